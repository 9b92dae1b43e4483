import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callHost } from './hostClient.js';
import { startFakeHost, type FakeHost } from './testing/fakeHost.js';
import { failureOf } from './testing/relayFailure.js';

let home = '';
const hosts: FakeHost[] = [];
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cr-hostclient-'));
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  rmSync(home, { recursive: true, force: true });
});

/** A run dir untouched for a minute: no host is coming or going, so nothing is waited for. */
function settle(): void {
  const old = new Date(Date.now() - 60_000);
  utimesSync(join(home, 'run'), old, old);
}

describe('callHost', () => {
  it('--profile naming no connected browser: target_not_found listing the profiles that are connected', async () => {
    hosts.push(await startFakeHost({ home, pid: process.pid, profile: '/profiles/work' }));
    settle();
    const error = await failureOf(callHost('tabs', {}, { home, profile: '/nonexistent', timeoutMs: 1000 }));
    expect(error.toData()).toMatchObject({ code: 'target_not_found', phase: 'connect', retryable: false, details: { field: 'profile', connectedProfiles: ['/profiles/work'] } });
    expect(error.message).toContain('/profiles/work');
    // The same profile written another way still reaches its browser.
    const response = await callHost('status', {}, { home, profile: '/profiles/../profiles/work', timeoutMs: 1000 });
    expect(response.ok).toBe(true);
  });

  it('with nothing connected at all, the answer stays extension_not_connected (no_host)', async () => {
    const error = await failureOf(callHost('tabs', {}, { home, profile: '/nonexistent', timeoutMs: 1000 }));
    expect(error.toData()).toMatchObject({ code: 'extension_not_connected', details: { reason: 'no_host' } });
  });

  it('status with nothing connected answers as things are (a host that just went is not waited for), in one short line', async () => {
    // A host that just died: its descriptor left behind, the run dir just touched. Any other call would wait for a new one.
    const gone = await startFakeHost({ home, pid: process.pid, profile: '/profiles/work' });
    await gone.close();
    const error = await failureOf(callHost('status', {}, { home, timeoutMs: 1000 }));
    expect(error.toData()).toMatchObject({ code: 'extension_not_connected', details: { reason: 'no_host' } });
    expect(error.message).toMatch(/^No browser is connected\. Run `chrome-relay launch`/);
    expect(error.message.length).toBeLessThan(200);
  });
});
