import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID, HOST_NAME, RelayError } from '@chrome-relay/protocol';
import type { BrowserEnv } from './browsers.js';
import { allowedExtensionIds, install, installOrThrow, launcherScript, launcherTargets, parseExtensionId, resolveInstallTargets } from './install.js';
import { readRecord } from './installRecord.js';

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
    const targets = resolveInstallTargets({ browsers: [] }, env());
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
    expect(launcherTargets(readFileSync(result.launcher, 'utf8'))).toEqual({ node: process.execPath, hostFile: result.hostFile });
    // Browsers that are not there get nothing.
    expect(existsSync(join(userHome, '.config/chromium'))).toBe(false);
  });

  it('writes a named browser even when not detected, and a --user-data-dir profile', () => {
    const profile = join(root, 'profile');
    const targets = resolveInstallTargets({ browsers: ['edge'], userDataDir: profile }, env());
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
    const targets = resolveInstallTargets({ browsers: [] }, env());
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
      const error = caught(() => installOrThrow(home, resolveInstallTargets({ browsers: [] }, env()), allowedExtensionIds({}), { hostSource }));
      expect(error.code).toBe('partial_success_disallowed');
      expect(error.details.failed).toEqual([{ browser: 'chromium', manifest: join(dir, `${HOST_NAME}.json`), error: expect.stringContaining('EACCES') }]);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it('keeps extension ids across installs and bakes extra ids into the launcher for the host', () => {
    const profile = join(root, 'profile');
    const first = install(home, resolveInstallTargets({ browsers: [], userDataDir: profile }, env()), allowedExtensionIds({}, [STORE_ID]), { hostSource });
    expect(first.extensionIds).toEqual([DEV_EXTENSION_ID, STORE_ID]);
    // A later install (like `launch` does) with only the dev id must not drop the store id.
    const second = install(home, resolveInstallTargets({ browsers: [], userDataDir: profile }, env()), allowedExtensionIds({}), { hostSource });
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
    expect(launcherTargets(script)).toEqual({ node: '/usr/bin/node', hostFile: `${weird}/host/host.mjs` });
    expect(script).toContain('CHROME_RELAY_HOME="${CHROME_RELAY_HOME:-/tmp/it\'s \\"odd\\" \\$HOME}"');
    expect(script).not.toContain('CHROME_RELAY_EXTENSION_IDS');
  });

  it('says the package is incomplete when the host bundle is missing', () => {
    const error = caught(() => install(home, [], allowedExtensionIds({}), { hostSource: join(root, 'nope.mjs') }));
    expect(error.code).toBe('internal_error');
    expect(error.message).toContain('nope.mjs');
  });
});
