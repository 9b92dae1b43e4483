import { describe, expect, it } from 'vitest';
import { callExpression } from './pageCall.js';

/** Evaluate a call expression with `api` as the page script of its global (globalThis shadowed by a parameter). */
function run(expression: string, api: unknown): unknown {
  const scope = api === undefined ? {} : { __chromeRelay: api };
  return (new Function('globalThis', `return ${expression};`) as (scope: object) => unknown)(scope);
}

describe('callExpression: a call reaches only the world it was made for', () => {
  const ours = { stamp: 'a1b2', ping: (args: { n: number }) => ({ pong: args.n }) };

  it('answers with the world stamp, then the JSON answer', () => {
    expect(run(callExpression('ping', { n: 3 }, undefined), ours)).toBe('a1b2:{"pong":3}');
    expect(run(callExpression('ping', { n: 3 }, 'a1b2'), ours)).toBe('a1b2:{"pong":3}');
  });

  it('is null where no page script is yet (the stamp not known), and 0 where none or another one is once it is known', () => {
    expect(run(callExpression('ping', { n: 3 }, undefined), undefined)).toBeNull();
    expect(run(callExpression('ping', { n: 3 }, 'a1b2'), undefined)).toBe(0);
    expect(run(callExpression('ping', { n: 3 }, 'a1b2'), { ...ours, stamp: 'ffff' })).toBe(0);
  });

  it("is 0, not an exception, whatever a page's own __chromeRelay is: null, a number, a getter that throws, a Proxy", () => {
    const throwing = Object.defineProperty({}, 'stamp', {
      get: () => {
        throw new Error('no');
      },
    });
    const proxy = new Proxy({}, { get: () => { throw new Error('trap'); } });
    for (const api of [null, 5, throwing, proxy]) expect(run(callExpression('ping', { n: 3 }, 'a1b2'), api)).toBe(0);
  });

  it("a page's own __chromeRelay met under a reused id cannot read the expected stamp from its caller's source", () => {
    // Page code is sloppy (as code made by the Function constructor is): a sloppy getter can read its caller, and a
    // sloppy caller's source would hold the stamp.
    const getter = new Function(
      `return function getter() {
        const found = getter.caller === null ? null : /api\\.stamp !== "(\\w+)"/.exec(String(getter.caller));
        return found === null ? 'guess' : found[1];
      };`,
    )() as () => string;
    const hostile = Object.defineProperty({ ping: () => ({ pong: 'forged' }) }, 'stamp', { get: getter });
    expect(run(callExpression('ping', { n: 3 }, 'a1b2'), hostile)).toBe(0);
  });
});
