import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RelayError, type HostDescriptor } from '@chrome-relay/protocol';
import { callHost, hostGone } from './hostClient.js';
import { descriptorFor, startFakeHost, type FakeHost } from './testing/fakeHost.js';

let home = '';
const hosts: FakeHost[] = [];
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cr-hostclient-'));
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  rmSync(home, { recursive: true, force: true });
});

async function failure(call: Promise<unknown>): Promise<RelayError> {
  const error = await call.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof RelayError)) throw new Error(`expected a RelayError, got ${String(error)}`);
  return error;
}

/** A run dir untouched for a minute: no host is coming or going, so nothing is waited for. */
function settle(): void {
  const old = new Date(Date.now() - 60_000);
  utimesSync(join(home, 'run'), old, old);
}

describe('callHost', () => {
  it('--profile naming no connected browser: target_not_found listing the profiles that are connected', async () => {
    hosts.push(await startFakeHost({ home, pid: process.pid, profile: '/profiles/work' }));
    settle();
    const error = await failure(callHost('tabs', {}, { home, profile: '/nonexistent', timeoutMs: 1000 }));
    expect(error.toData()).toMatchObject({ code: 'target_not_found', phase: 'connect', retryable: false, details: { field: 'profile', connectedProfiles: ['/profiles/work'] } });
    expect(error.message).toContain('/profiles/work');
    // The same profile written another way still reaches its browser.
    const response = await callHost('status', {}, { home, profile: '/profiles/../profiles/work', timeoutMs: 1000 });
    expect(response.ok).toBe(true);
  });

  it('with nothing connected at all, the answer stays extension_not_connected (no_host)', async () => {
    const error = await failure(callHost('tabs', {}, { home, profile: '/nonexistent', timeoutMs: 1000 }));
    expect(error.toData()).toMatchObject({ code: 'extension_not_connected', details: { reason: 'no_host' } });
  });
});

describe('hostGone', () => {
  const died = (tool: string) =>
    new RelayError('native_host_disconnected', `The native host went away during ${tool} without answering.`, { tool, phase: 'transport', details: { cause: 'host_died' } });
  const host = (browserPid: number | null): HostDescriptor => descriptorFor({ home: '/h', pid: 10, browserPid, profile: '/p' }, '/h/run/host-10.sock');

  it('the browser is gone too: nothing restarts the host, so not retryable, and the move is to start it', () => {
    const error = hostGone(died('tabs'), host(77), () => false);
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).toData()).toMatchObject({ retryable: false, details: { cause: 'browser_exited', browserPid: 77 } });
    expect((error as RelayError).message).toMatch(/pid 77\) has exited too.*launch --user-data-dir \/p/);
    expect((error as RelayError).message).not.toMatch(/within a second/);
  });

  it('the browser still runs: a new host comes, and a read stays retryable', () => {
    const error = hostGone(died('tabs'), host(77), () => true) as RelayError;
    expect(error.toData()).toMatchObject({ code: 'native_host_disconnected', retryable: true, details: { cause: 'host_died' } });
    expect(error.message).toMatch(/still runs.*within a second/);
  });

  it('leaves every other error alone', () => {
    const other = new RelayError('timeout', 'slow', { details: { reason: 'host_unresponsive' } });
    expect(hostGone(other, host(77), () => false)).toBe(other);
  });
});
