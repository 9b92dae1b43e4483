import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reconnect } from './reconnect.js';
import { startFakeHost, type FakeHost, type FakeHostSpec } from './testing/fakeHost.js';
import { failureOf } from './testing/relayFailure.js';

let home = '';
const hosts: FakeHost[] = [];
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cr-reconnect-'));
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  rmSync(home, { recursive: true, force: true });
});

async function fakeHost(spec: Partial<FakeHostSpec> = {}): Promise<FakeHost> {
  const host = await startFakeHost({ home, pid: process.pid, browserPid: 4242, profile: null, ...spec });
  hosts.push(host);
  return host;
}

describe('reconnect', () => {
  it('re-arms the host: it sends rearm (never the restart_host that cuts calls) and reports what each host said', async () => {
    const host = await fakeHost({ circuitWasOpen: true });
    const result = await reconnect({ home, timeoutMs: 4000 });
    expect(result).toEqual({ hosts: [{ profile: null, browserPid: 4242, hostPid: process.pid, wasOpen: true, roundTripMs: 1 }] });
    expect(host.requests.map((r) => [r.tool, r.params, r.timeoutMs])).toEqual([['rearm', {}, 4000]]);
  });

  it('fails with the host\'s circuit_open when the extension still does not answer, within its timeout', async () => {
    await fakeHost({ extensionAnswers: false });
    const error = await failureOf(reconnect({ home, timeoutMs: 100 }));
    expect(error.toData()).toMatchObject({ code: 'extension_not_connected', tool: 'reconnect', details: { reason: 'circuit_open', hostPid: process.pid } });
  });

  it('fails with no_host when no browser is connected; a --profile no connected browser runs is target_not_found listing those that are', async () => {
    expect((await failureOf(reconnect({ home, timeoutMs: 100 }))).toData()).toMatchObject({ code: 'extension_not_connected', details: { reason: 'no_host' } });
    await fakeHost({ profile: '/profiles/a' });
    const other = await failureOf(reconnect({ home, profile: '/profiles/b', timeoutMs: 100 }));
    expect(other.toData()).toMatchObject({ code: 'target_not_found', tool: 'reconnect', details: { field: 'profile', profile: '/profiles/b', connectedProfiles: ['/profiles/a'] } });
    expect((await reconnect({ home, profile: '/profiles/a', timeoutMs: 100 })).hosts).toHaveLength(1);
  });

  it('names `chrome-relay update` when the running host predates rearm', async () => {
    await fakeHost({ legacy: true });
    const error = await failureOf(reconnect({ home, timeoutMs: 100 }));
    expect(error.code).toBe('unsupported_tool');
    expect(error.message).toContain('chrome-relay update');
  });

  it('reports partial success as failure when one of two browsers does not answer', async () => {
    await fakeHost({ pid: process.pid, browserPid: 1 });
    await fakeHost({ pid: process.ppid, browserPid: 2, extensionAnswers: false });
    const error = await failureOf(reconnect({ home, timeoutMs: 100 }));
    expect(error.toData()).toMatchObject({
      code: 'partial_success_disallowed',
      details: { applied: [expect.objectContaining({ browserPid: 1 })], failed: [expect.objectContaining({ hostPid: process.ppid, code: 'extension_not_connected', reason: 'circuit_open' })] },
    });
  });
});
