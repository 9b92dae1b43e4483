import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { platformOf } from '@chrome-relay/host-files';
import { DEV_EXTENSION_ID, HOST_NAME, RelayError } from '@chrome-relay/protocol';
import type { BrowserEnv } from './browsers.js';
import { allowedExtensionIds, install, installOrThrow, launcherScript, launcherTargets, parseExtensionId, resolveInstallTargets } from './install.js';
import { readRecord } from './installRecord.js';
import { fakeRegistry, type FakeRegistry } from './testing/fakeRegistry.js';
import { uninstall } from './uninstall.js';

const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';
const isRoot = process.getuid?.() === 0;

let root = '';
let userHome = '';
let home = '';
let hostSource = '';
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cr-install-'));
  userHome = join(root, 'user');
  home = join(root, 'relay');
  hostSource = join(root, 'host.mjs');
  mkdirSync(userHome);
  writeFileSync(hostSource, '// host bundle\n');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const env = (): BrowserEnv => ({ platform: 'linux', userHome });
const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

function caught(fn: () => unknown): RelayError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RelayError);
    return error as RelayError;
  }
  throw new Error('expected a RelayError');
}

describe('install', () => {
  it('registers every detected browser with an absolute launcher and only our extension id', () => {
    mkdirSync(join(userHome, '.config/google-chrome'), { recursive: true });
    mkdirSync(join(userHome, '.config/BraveSoftware/Brave-Browser'), { recursive: true });
    const targets = resolveInstallTargets({ browsers: [] }, env(), home);
    const result = installOrThrow(home, targets, allowedExtensionIds({}), { hostSource });

    expect(result.written.map((w) => w.browser)).toEqual(['chrome', 'brave']);
    for (const { manifest } of result.written) {
      expect(readJson(manifest)).toEqual({
        name: HOST_NAME,
        description: expect.any(String),
        path: join(home, 'host/chrome-relay-host'),
        type: 'stdio',
        allowed_origins: [`chrome-extension://${DEV_EXTENSION_ID}/`],
      });
    }
    expect(statSync(result.launcher).mode & 0o111).not.toBe(0);
    expect(readFileSync(result.hostFile, 'utf8')).toBe('// host bundle\n');
    expect(launcherTargets(readFileSync(result.launcher, 'utf8'), result.launcher)).toEqual({ node: process.execPath, hostFile: result.hostFile });
    // Browsers that are not there get nothing.
    expect(existsSync(join(userHome, '.config/chromium'))).toBe(false);
  });

  it('writes a named browser even when not detected, and a --user-data-dir profile', () => {
    const profile = join(root, 'profile');
    const targets = resolveInstallTargets({ browsers: ['edge'], userDataDir: profile }, env(), home);
    const result = installOrThrow(home, targets, allowedExtensionIds({}), { hostSource });
    expect(result.written).toEqual([
      { browser: 'edge', manifest: join(userHome, '.config/microsoft-edge/NativeMessagingHosts', `${HOST_NAME}.json`) },
      { browser: 'profile', manifest: join(profile, 'NativeMessagingHosts', `${HOST_NAME}.json`) },
    ]);
  });

  it('fails the whole command when one manifest cannot be written, listing what was and was not written', () => {
    mkdirSync(join(userHome, '.config/chromium'), { recursive: true });
    // A file where the NativeMessagingHosts directory should be: unwritable even for root.
    mkdirSync(join(userHome, '.config/BraveSoftware/Brave-Browser'), { recursive: true });
    writeFileSync(join(userHome, '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts'), 'in the way');
    const targets = resolveInstallTargets({ browsers: [] }, env(), home);
    const error = caught(() => installOrThrow(home, targets, allowedExtensionIds({}), { hostSource }));
    expect(error.code).toBe('partial_success_disallowed');
    expect(error.details.applied).toEqual([{ browser: 'chromium', manifest: expect.stringContaining('/.config/chromium/NativeMessagingHosts/') }]);
    expect(error.details.failed).toEqual([{ browser: 'brave', manifest: expect.stringContaining('Brave-Browser/NativeMessagingHosts/'), error: expect.any(String) }]);
    // What was written is recorded, so uninstall can remove it.
    const record = readRecord(home);
    expect(record.kind === 'ok' && record.record.manifests.map((m) => m.browser)).toEqual(['chromium']);
  });

  it.skipIf(isRoot)('fails on a read-only NativeMessagingHosts directory', () => {
    const dir = join(userHome, '.config/chromium/NativeMessagingHosts');
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o500);
    try {
      const error = caught(() => installOrThrow(home, resolveInstallTargets({ browsers: [] }, env(), home), allowedExtensionIds({}), { hostSource }));
      expect(error.code).toBe('partial_success_disallowed');
      expect(error.details.failed).toEqual([{ browser: 'chromium', manifest: join(dir, `${HOST_NAME}.json`), error: expect.stringContaining('EACCES') }]);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it('keeps extension ids across installs and bakes extra ids into the launcher for the host', () => {
    const profile = join(root, 'profile');
    const first = install(home, resolveInstallTargets({ browsers: [], userDataDir: profile }, env(), home), allowedExtensionIds({}, [STORE_ID]), { hostSource });
    expect(first.extensionIds).toEqual([DEV_EXTENSION_ID, STORE_ID]);
    // A later install (like `launch` does) with only the dev id must not drop the store id.
    const second = install(home, resolveInstallTargets({ browsers: [], userDataDir: profile }, env(), home), allowedExtensionIds({}), { hostSource });
    expect(second.extensionIds).toEqual([DEV_EXTENSION_ID, STORE_ID]);
    expect(readJson(second.written[0]?.manifest ?? '').allowed_origins).toEqual([`chrome-extension://${DEV_EXTENSION_ID}/`, `chrome-extension://${STORE_ID}/`]);
    expect(readFileSync(second.launcher, 'utf8')).toContain(`CHROME_RELAY_EXTENSION_IDS="\${CHROME_RELAY_EXTENSION_IDS:-${STORE_ID}}"`);
  });

  it('reads extra ids from CHROME_RELAY_EXTENSION_IDS and validates --extension-id', () => {
    expect(allowedExtensionIds({ CHROME_RELAY_EXTENSION_IDS: ` ${STORE_ID} ,` })).toEqual([DEV_EXTENSION_ID, STORE_ID]);
    expect(parseExtensionId(STORE_ID)).toBe(STORE_ID);
    const error = caught(() => parseExtensionId('not-an-id'));
    expect(error.code).toBe('invalid_arguments');
    expect(error.details.field).toBe('extension-id');
  });

  it('quotes paths in the launcher so any home survives the shell', () => {
    const weird = "/tmp/it's \"odd\" $HOME";
    const script = launcherScript(weird, `${weird}/host/host.mjs`, [DEV_EXTENSION_ID], '/usr/bin/node');
    expect(launcherTargets(script, '')).toEqual({ node: '/usr/bin/node', hostFile: `${weird}/host/host.mjs` });
    expect(script).toContain('CHROME_RELAY_HOME="${CHROME_RELAY_HOME:-/tmp/it\'s \\"odd\\" \\$HOME}"');
    expect(script).not.toContain('CHROME_RELAY_EXTENSION_IDS');
  });

  it('says the package is incomplete when the host bundle is missing', () => {
    const error = caught(() => install(home, [], allowedExtensionIds({}), { hostSource: join(root, 'nope.mjs') }));
    expect(error.code).toBe('internal_error');
    expect(error.message).toContain('nope.mjs');
  });
});

describe('install and uninstall on Windows', () => {
  const windows = (): BrowserEnv => ({ platform: 'win32', userHome, env: { LOCALAPPDATA: join(userHome, 'Local') } });
  const key = (vendor: string): string => `HKCU\\Software\\${vendor}\\NativeMessagingHosts\\${HOST_NAME}`;
  const options = (registry: FakeRegistry) => ({ hostSource, platform: platformOf('win32'), registry });

  it('writes a manifest per browser in <home>/host/manifests, names it in the browser\'s registry key, and points it at the .cmd launcher', () => {
    const registry = fakeRegistry();
    const targets = resolveInstallTargets({ browsers: ['chrome', 'edge'] }, windows(), home);
    const result = installOrThrow(home, targets, allowedExtensionIds({}), options(registry));
    const manifest = (browser: string): string => join(home, 'host', 'manifests', `${browser}.json`);
    expect(registry.changes).toEqual([
      ['set', key('Google\\Chrome'), manifest('chrome')],
      ['set', key('Microsoft\\Edge'), manifest('edge')],
    ]);
    expect(result.written).toEqual([
      { browser: 'chrome', manifest: manifest('chrome'), registryKey: key('Google\\Chrome') },
      { browser: 'edge', manifest: manifest('edge'), registryKey: key('Microsoft\\Edge') },
    ]);
    expect(result.launcher).toBe(join(home, 'host', 'chrome-relay-host.cmd'));
    expect(readJson(manifest('chrome'))).toMatchObject({ name: HOST_NAME, path: result.launcher, type: 'stdio', allowed_origins: [`chrome-extension://${DEV_EXTENSION_ID}/`] });
    expect(readFileSync(result.launcher, 'utf8')).toMatch(/^@echo off\r\n[\s\S]*"%~dp0host\.mjs" %\*\r\n$/);
    const record = readRecord(home);
    expect(record.kind === 'ok' && record.record.manifests).toEqual([
      { browser: 'chrome', path: manifest('chrome'), registryKey: key('Google\\Chrome') },
      { browser: 'edge', path: manifest('edge'), registryKey: key('Microsoft\\Edge') },
    ]);
  });

  it('refuses --user-data-dir: Chrome on Windows reads no profile directory for hosts', () => {
    const error = caught(() => resolveInstallTargets({ browsers: [], userDataDir: join(root, 'profile') }, windows(), home));
    expect(error.code).toBe('invalid_arguments');
    expect(error.details.field).toBe('user-data-dir');
    expect(error.message).toMatch(/registry/);
  });

  it('a key it cannot set fails that browser and takes its manifest back', () => {
    const registry = fakeRegistry();
    registry.refuse.add(key('Microsoft\\Edge'));
    const error = caught(() => installOrThrow(home, resolveInstallTargets({ browsers: ['chrome', 'edge'] }, windows(), home), allowedExtensionIds({}), options(registry)));
    expect(error.code).toBe('partial_success_disallowed');
    expect(error.details.failed).toEqual([{ browser: 'edge', manifest: join(home, 'host', 'manifests', 'edge.json'), error: expect.stringContaining('Access is denied') }]);
    expect(existsSync(join(home, 'host', 'manifests', 'edge.json'))).toBe(false);
    expect(existsSync(join(home, 'host', 'manifests', 'chrome.json'))).toBe(true);
  });

  it('uninstall deletes the keys still naming its manifests, keeps one repointed elsewhere, and removes the files', () => {
    const registry = fakeRegistry();
    installOrThrow(home, resolveInstallTargets({ browsers: ['chrome', 'edge'] }, windows(), home), allowedExtensionIds({}), options(registry));
    registry.values.set(key('Microsoft\\Edge'), 'C:\\other\\tool.json');
    registry.changes.length = 0;
    const result = uninstall(home, { registry });
    expect(registry.changes).toEqual([['delete', key('Google\\Chrome')]]);
    expect(registry.values.get(key('Microsoft\\Edge'))).toBe('C:\\other\\tool.json');
    expect(result.kept).toEqual([{ path: key('Microsoft\\Edge'), reason: expect.stringContaining('names C:\\other\\tool.json') }]);
    expect(result.removed).toEqual(expect.arrayContaining([key('Google\\Chrome'), join(home, 'host', 'manifests', 'chrome.json'), join(home, 'host', 'chrome-relay-host.cmd')]));
    expect(existsSync(join(home, 'host'))).toBe(false);
  });
});
