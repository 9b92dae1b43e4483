import { describe, expect, it } from 'vitest';
import { reasonedError, RelayError, type HostDescriptor } from '@chrome-relay/protocol';
import { explainLostHost, LOOK_MS, type BrowserLook } from './lostHost.js';
import { defaultProfileDir } from './paths.js';
import { descriptorFor } from './testing/fakeHost.js';

const HOME = '/h';

/** A clock that moves only when the code under test sleeps; the browser dies (or a successor comes) at a set time. */
function fakeLook(options: { diesAt?: number; successorAt?: number }): BrowserLook & { slept: number } {
  let now = 0;
  const look = {
    slept: 0,
    alive: () => options.diesAt === undefined || now < options.diesAt,
    successor: () => options.successorAt !== undefined && now >= options.successorAt,
    sleep: async (ms: number) => {
      now += ms;
      look.slept += ms;
    },
    now: () => now,
  };
  return look;
}

const host = (spec: { browserPid?: number | null; profile?: string; launched?: boolean }): HostDescriptor => ({
  ...descriptorFor({ home: HOME, pid: 10, browserPid: spec.browserPid === undefined ? 77 : spec.browserPid, profile: spec.profile ?? '/p' }, '/h/run/host-10.sock'),
  ...(spec.launched === undefined ? {} : { launched: spec.launched }),
});

const died = (tool: string, phase: 'transport' | 'host' = 'transport') =>
  reasonedError('native_host_disconnected', 'host_exited', `The native host went away during ${tool}.`, { tool, phase, details: { cause: 'host_died' } });
const sideClosed = (tool: string) =>
  reasonedError('native_host_disconnected', 'worker_stopped', `${tool} did not finish: the browser closed its connection.`, { tool, phase: 'host', details: { cause: 'browser_closed' } });

describe('explainLostHost', () => {
  it("the person's browser is gone: browser_closed, not retryable, ask the person; never launch in its place", async () => {
    const error = await explainLostHost(sideClosed('tabs'), host({ launched: false }), HOME, fakeLook({ diesAt: 300 }));
    expect(error.toData()).toMatchObject({ code: 'native_host_disconnected', retryable: false, details: { reason: 'browser_closed', browserPid: 77, launched: false, profile: '/p' } });
    expect(error.message).toMatch(/person's browser \(pid 77, profile \/p\) has closed/);
    expect(error.message).toMatch(/ask them to reopen it/);
    expect(error.message).toMatch(/`chrome-relay launch` would start another, different browser/);
    expect(error.details.mayHaveActed).toBeUndefined();
  });

  it('a browser `launch` started is gone: the move is to launch that profile again (no flag for the default one)', async () => {
    const custom = await explainLostHost(died('snapshot'), host({ launched: true }), HOME, fakeLook({ diesAt: 0 }));
    expect(custom.toData()).toMatchObject({ retryable: false, details: { reason: 'browser_closed', launched: true } });
    expect(custom.message).toMatch(/Run `chrome-relay launch --user-data-dir \/p` to start it again/);
    const own = await explainLostHost(died('snapshot'), host({ launched: true, profile: defaultProfileDir(HOME) }), HOME, fakeLook({ diesAt: 0 }));
    expect(own.message).toMatch(/Run `chrome-relay launch` to start it again/);
  });

  it('a mutating call cut off by the closing browser may have acted, and says to look once it is back', async () => {
    const error = await explainLostHost(sideClosed('click'), host({}), HOME, fakeLook({ diesAt: 0 }));
    expect(error.toData()).toMatchObject({ retryable: false, details: { reason: 'browser_closed', mayHaveActed: true } });
    expect(error.message).toMatch(/`chrome-relay snapshot` before re-issuing `click`: it may already have taken effect/);
  });

  it('the browser runs and a new host came: the reason stands (a retry works)', async () => {
    const original = sideClosed('tabs');
    const look = fakeLook({ successorAt: 400 });
    expect(await explainLostHost(original, host({}), HOME, look)).toBe(original);
    expect(look.slept).toBe(400);
  });

  it('the browser runs and no host comes: the reason stands once the look gives up', async () => {
    const original = died('tabs');
    const look = fakeLook({});
    expect(await explainLostHost(original, host({}), HOME, look)).toBe(original);
    expect(look.slept).toBeGreaterThanOrEqual(LOOK_MS);
  });

  it('without a browser pid nothing is looked at; other errors and reasons are left alone', async () => {
    const original = sideClosed('tabs');
    const look = fakeLook({ diesAt: 0 });
    expect(await explainLostHost(original, host({ browserPid: null }), HOME, look)).toBe(original);
    const other = new RelayError('internal_error', 'x');
    expect(await explainLostHost(other, host({}), HOME, look)).toBe(other);
    const closedClient = reasonedError('native_host_disconnected', 'client_closed', 'the client closed', { tool: 'tabs' });
    expect(await explainLostHost(closedClient, host({}), HOME, look)).toBe(closedClient);
    const replacing = reasonedError('native_host_disconnected', 'host_exited', 'replacing', { tool: 'tabs', phase: 'connect', details: { cause: 'replacing' } });
    expect(await explainLostHost(replacing, host({}), HOME, look)).toBe(replacing);
    expect(look.slept).toBe(0);
  });
});
