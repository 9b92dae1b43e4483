import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOST_NAME, RelayError } from '@chrome-relay/protocol';
import { allowedExtensionIds, install, installOrThrow, resolveInstallTargets } from './install.js';
import { readRecord, recordPath } from './installRecord.js';
import { uninstall } from './uninstall.js';

let root = '';
let userHome = '';
let home = '';
let hostSource = '';
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cr-uninstall-'));
  userHome = join(root, 'user');
  home = join(root, 'relay');
  hostSource = join(root, 'host.mjs');
  mkdirSync(userHome);
  writeFileSync(hostSource, '// host bundle\n');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Every path under `dir` with its content (files) or '/' (directories): a snapshot to compare. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) {
        out[`${relative(dir, path)}/`] = '';
        walk(path);
      } else {
        out[relative(dir, path)] = readFileSync(path, 'utf8');
      }
    }
  };
  walk(dir);
  return out;
}

const doInstall = (browsers: string[] = [], userDataDir?: string) =>
  installOrThrow(home, resolveInstallTargets({ browsers, userDataDir }, { platform: 'linux', userHome }, home), allowedExtensionIds({}), { hostSource });

describe('uninstall', () => {
  it('removes exactly what install wrote and leaves everything else as it was', () => {
    // A user's machine: chromium with another app's manifest, a brave profile, a foreign file in the relay home.
    mkdirSync(join(userHome, '.config/chromium/NativeMessagingHosts'), { recursive: true });
    writeFileSync(join(userHome, '.config/chromium/NativeMessagingHosts/com.other.app.json'), '{"name":"com.other.app"}');
    mkdirSync(join(userHome, '.config/BraveSoftware/Brave-Browser/Default'), { recursive: true });
    mkdirSync(join(home, 'run'), { recursive: true });
    writeFileSync(join(home, 'run/keep.txt'), 'not ours');
    const before = tree(root);

    doInstall();
    doInstall([], join(root, 'new-profile')); // a second run merges into the same record
    expect(existsSync(join(userHome, '.config/chromium/NativeMessagingHosts', `${HOST_NAME}.json`))).toBe(true);

    const result = uninstall(home);
    expect(result.failed).toEqual([]);
    // What install did not write is named, with why it stays: here the home's run dir (with a foreign file), so the home too.
    expect(result.kept).toEqual([
      { path: join(home, 'run'), reason: expect.stringContaining('descriptors of hosts') },
      { path: home, reason: expect.stringContaining("chrome-relay's home: it still holds the 1 item(s) above") },
    ]);
    expect(tree(root)).toEqual(before);
    expect(result.removed).toEqual(
      expect.arrayContaining([
        join(userHome, '.config/chromium/NativeMessagingHosts', `${HOST_NAME}.json`),
        join(userHome, '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts'),
        join(root, 'new-profile'),
        join(home, 'host'),
      ]),
    );
    // Running it again is harmless.
    expect(uninstall(home)).toMatchObject({ nothingInstalled: true, removed: [] });
  });

  it('removes the relay home too when install created it and nothing else lives there', () => {
    mkdirSync(join(userHome, '.config/chromium'), { recursive: true });
    const before = tree(root);
    doInstall();
    uninstall(home);
    expect(tree(root)).toEqual(before);
    expect(existsSync(home)).toBe(false);
  });

  it('keeps a manifest that was rewritten since install, and a created directory that gained files', () => {
    mkdirSync(join(userHome, '.config/chromium'), { recursive: true });
    doInstall();
    const manifest = join(userHome, '.config/chromium/NativeMessagingHosts', `${HOST_NAME}.json`);
    writeFileSync(manifest, JSON.stringify({ name: HOST_NAME, path: '/somewhere/else', type: 'stdio', allowed_origins: [] }));
    const result = uninstall(home);
    expect(result.kept).toEqual([
      { path: manifest, reason: expect.stringContaining('changed since install') },
      { path: join(userHome, '.config/chromium/NativeMessagingHosts'), reason: expect.stringContaining('not empty') },
    ]);
    expect(existsSync(manifest)).toBe(true);
    expect(existsSync(recordPath(home))).toBe(false);
  });

  it('fails without claiming success when something cannot be removed, and keeps it in the record', () => {
    mkdirSync(join(userHome, '.config/chromium'), { recursive: true });
    const installed = doInstall();
    // A directory where the host bundle was: unlink fails (EISDIR) even for root.
    rmSync(installed.hostFile);
    mkdirSync(join(installed.hostFile, 'inside'), { recursive: true });
    let error: unknown;
    try {
      uninstall(home);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RelayError);
    const relay = error as RelayError;
    expect(relay.code).toBe('partial_success_disallowed');
    expect(relay.details.failed).toEqual([{ path: installed.hostFile, error: expect.any(String) }]);
    expect(relay.details.applied).toEqual(expect.arrayContaining([installed.launcher]));
    const record = readRecord(home);
    expect(record.kind === 'ok' && record.record.hostFiles).toEqual([installed.hostFile]);
    expect(record.kind === 'ok' && record.record.manifests).toEqual([]);
  });

  it('refuses a corrupt record instead of guessing what to delete', () => {
    install(home, [], allowedExtensionIds({}), { hostSource });
    writeFileSync(recordPath(home), '{"launcher": 3}');
    let error: unknown;
    try {
      uninstall(home);
    } catch (e) {
      error = e;
    }
    expect((error as RelayError).code).toBe('invalid_arguments');
    expect(existsSync(join(home, 'host/chrome-relay-host'))).toBe(true);
  });

  it('names everything it leaves in the home and why: the profiles launch made, logs, the setup page (never "kept: []" while they stay)', () => {
    mkdirSync(join(userHome, '.config/chromium'), { recursive: true });
    doInstall();
    for (const dir of ['profiles/default', 'logs', 'setup']) mkdirSync(join(home, dir), { recursive: true });
    writeFileSync(join(home, 'setup/load-extension.html'), '<p>steps</p>');
    const result = uninstall(home);
    expect(result.kept).toEqual([
      { path: join(home, 'logs'), reason: expect.stringContaining('logs of the browsers') },
      { path: join(home, 'profiles'), reason: expect.stringContaining('logins, cookies, history') },
      { path: join(home, 'setup'), reason: expect.stringContaining('setup') },
      { path: home, reason: expect.stringContaining('3 item(s)') },
    ]);
    for (const kept of result.kept) expect(existsSync(kept.path), kept.path).toBe(true);
  });

  it('--browser removes only that browser’s registration; the shared host and extension stay while another browser uses them, then go with the last', () => {
    mkdirSync(join(userHome, '.config/chromium'), { recursive: true });
    mkdirSync(join(userHome, '.config/BraveSoftware/Brave-Browser/Default'), { recursive: true });
    const installed = doInstall(['chromium', 'brave']);
    const chromium = join(userHome, '.config/chromium/NativeMessagingHosts', `${HOST_NAME}.json`);
    const brave = join(userHome, '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts', `${HOST_NAME}.json`);
    const first = uninstall(home, { browsers: ['brave'] });
    expect(first.removed).toContain(brave);
    expect(existsSync(brave)).toBe(false);
    expect(existsSync(chromium)).toBe(true);
    expect(existsSync(installed.launcher)).toBe(true);
    expect(first.kept).toEqual(expect.arrayContaining([{ path: installed.launcher, reason: expect.stringContaining('still used by chromium') }]));
    const record = readRecord(home);
    expect(record.kind === 'ok' && record.record.manifests.map((m) => m.browser)).toEqual(['chromium']);
    let unknown: unknown;
    try {
      uninstall(home, { browsers: ['brave'] });
    } catch (error) {
      unknown = error;
    }
    expect(unknown).toMatchObject({ code: 'invalid_arguments', details: { field: 'browser', registered: ['chromium'] } });
    const last = uninstall(home, { browsers: ['chromium'] });
    expect(last.removed).toEqual(expect.arrayContaining([chromium, installed.launcher]));
    expect(readRecord(home).kind).toBe('absent');
  });
});
