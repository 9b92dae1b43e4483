import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RelayError, VERSION } from '@chrome-relay/protocol';
import { isPidAlive } from '@chrome-relay/host-files';
import { allowedExtensionIds } from './install.js';
import { readRecord } from './installRecord.js';
import { spawnFakeHostProcess, type FakeHostProcess } from './testing/fakeHost.js';
import { update } from './update.js';

let root = '';
let home = '';
let hostSource = '';
let extensionSource = '';
const children: FakeHostProcess[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cr-update-'));
  home = join(root, 'relay');
  hostSource = join(root, 'host-new.mjs');
  mkdirSync(home);
  writeFileSync(hostSource, '// new host bundle\n');
  extensionSource = join(root, 'extension');
  mkdirSync(extensionSource);
  writeFileSync(join(extensionSource, 'manifest.json'), JSON.stringify({ version: VERSION }));
});
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.child.exitCode === null && c.child.signalCode === null) {
      c.child.kill('SIGKILL');
      await c.exited;
    }
  }
  rmSync(root, { recursive: true, force: true });
});

async function host(restart: 'ok' | 'unsupported' | 'ignore', browserPid = 4242): Promise<FakeHostProcess> {
  const spawned = await spawnFakeHostProcess({ home, restart, browserPid, profile: null });
  children.push(spawned);
  return spawned;
}

const options = (timeoutMs = 3000) => ({ home, timeoutMs, extensionIds: allowedExtensionIds({}), hostSource, extensionSource });

describe('update', () => {
  it('installs the new host bundle even when no browser is connected', async () => {
    const result = await update(options());
    expect(result.reconnected).toEqual([]);
    expect(readFileSync(result.hostFile, 'utf8')).toBe('// new host bundle\n');
    const record = readRecord(home);
    expect(record.kind === 'ok' && record.record.hostFiles).toEqual([result.launcher, result.hostFile]);
  });

  it('refreshes the extension folder in the home and tells the person to reload only when it changed', async () => {
    const first = await update(options());
    expect(first.extension).toMatchObject({ path: join(home, 'extension/current'), refreshed: false, reload: null });
    expect(readFileSync(join(first.extension.path, 'manifest.json'), 'utf8')).toContain(VERSION);
    writeFileSync(join(extensionSource, 'background.js'), '// a new build');
    const second = await update(options());
    expect(second.extension.refreshed).toBe(true);
    expect(second.extension.reload).toMatch(/chrome:\/\/extensions.*reload/);
    expect(readFileSync(join(second.extension.path, 'background.js'), 'utf8')).toBe('// a new build');
  });

  it('has the browser replace its host: the old process is gone and a new one is connected', async () => {
    const old = await host('ok');
    // Play Chrome: when the old host exits after `restart_host`, start a new one for the same browser.
    const successor = old.exited.then(() => host('ok'));
    const result = await update(options());
    const fresh = await successor;
    expect(result.reconnected).toEqual([{ profile: null, browserPid: 4242, oldHostPid: old.pid, newHostPid: fresh.pid, hostVersion: VERSION }]);
    expect(isPidAlive(old.pid)).toBe(false);
  });

  it('fails with unsupported_tool naming the reload when the extension does not know restart_host, after installing the files', async () => {
    const old = await host('unsupported');
    let error: unknown;
    try {
      await update(options());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RelayError);
    const relay = error as RelayError;
    expect(relay.code).toBe('unsupported_tool');
    expect(relay.message).toContain('used from the next browser start');
    expect(relay.message).toContain('reload chrome-relay in chrome://extensions');
    expect(relay.details.hostPid).toBe(old.pid);
    expect(readFileSync(join(home, 'host/host.mjs'), 'utf8')).toBe('// new host bundle\n');
  });

  it('fails with timeout when the old host survives the restart', async () => {
    const old = await host('ignore');
    let error: unknown;
    try {
      await update(options(300));
    } catch (e) {
      error = e;
    }
    expect((error as RelayError).code).toBe('timeout');
    expect((error as RelayError).details).toMatchObject({ oldHostPid: old.pid, oldHostAlive: true });
  });

  it('reports partial success as failure when one of two browsers does not switch', async () => {
    const a = await host('ok', 1001);
    await host('unsupported', 1002);
    // Awaited below: a successor started after the test would outlive it (afterEach kills only what it knows).
    const successor = a.exited.then(() => host('ok', 1001));
    let error: unknown;
    try {
      await update(options());
    } catch (e) {
      error = e;
    }
    const relay = error as RelayError;
    expect(relay.code).toBe('partial_success_disallowed');
    expect(relay.details.applied).toEqual([expect.objectContaining({ browserPid: 1001, oldHostPid: a.pid })]);
    expect(relay.details.failed).toEqual([expect.objectContaining({ code: 'unsupported_tool' })]);
    await successor;
  });
});
