import { describe, expect, it } from 'vitest';
import { fromDeepSerialized } from './jsonValue.js';

const n = (value: number | string) => ({ type: 'number', value });
const s = (value: string) => ({ type: 'string', value });

describe('fromDeepSerialized', () => {
  it('converts JSON-shaped values with JSON.stringify semantics that lose nothing', () => {
    const deep = {
      type: 'object',
      value: [
        ['a', n(1)],
        ['b', { type: 'array', value: [n(1), { type: 'undefined' }, s('x')] }],
        ['c', { type: 'undefined' }],
        ['d', { type: 'date', value: '1970-01-01T00:00:00.000Z' }],
        ['e', n('-0')],
        ['f', { type: 'null' }],
        ['g', { type: 'boolean', value: false }],
      ],
    };
    expect(fromDeepSerialized(deep)).toEqual({ ok: true, value: { a: 1, b: [1, null, 'x'], d: '1970-01-01T00:00:00.000Z', e: 0, f: null, g: false } });
  });

  it('keeps a top-level undefined distinguishable', () => {
    expect(fromDeepSerialized({ type: 'undefined' })).toEqual({ ok: true, value: undefined });
  });

  it('names the path and the fix for values JSON cannot carry', () => {
    const node = fromDeepSerialized({ type: 'array', value: [n(1), { type: 'node', value: {} }] });
    expect(node).toMatchObject({ ok: false, path: 'result[1]' });
    expect(node.ok === false && node.why).toMatch(/DOM node/);
    expect(fromDeepSerialized({ type: 'object', value: [['my key', n('NaN')]] })).toMatchObject({ ok: false, path: 'result["my key"]' });
    expect(fromDeepSerialized({ type: 'map', value: [] })).toMatchObject({ ok: false, path: 'result' });
    expect(fromDeepSerialized({ type: 'object', value: [['f', { type: 'function' }]] })).toMatchObject({ ok: false, path: 'result.f' });
  });

  it('repeats an object referenced twice but refuses a circular one', () => {
    const shared = { type: 'object', value: [['x', n(1)]], weakLocalObjectReference: 2 };
    const twice = { type: 'array', value: [shared, { type: 'object', weakLocalObjectReference: 2 }] };
    expect(fromDeepSerialized(twice)).toEqual({ ok: true, value: [{ x: 1 }, { x: 1 }] });
    const circular = { type: 'object', value: [['self', { type: 'object', weakLocalObjectReference: 1 }]], weakLocalObjectReference: 1 };
    expect(fromDeepSerialized(circular)).toMatchObject({ ok: false, path: 'result.self', why: 'a circular reference' });
  });

  it('reports objects cut off by the depth limit', () => {
    expect(fromDeepSerialized({ type: 'object', value: [['deep', { type: 'object' }]] })).toMatchObject({ ok: false, path: 'result.deep' });
  });
});
