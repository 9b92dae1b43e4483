import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { browserExecutable, browserOfExecutable, browserTarget, browserTargets, type BrowserEnv } from './browsers.js';
import { resolveInstallTargets } from './install.js';

let userHome = '';
beforeEach(() => {
  userHome = mkdtempSync(join(tmpdir(), 'cr-browsers-'));
});
afterEach(() => {
  rmSync(userHome, { recursive: true, force: true });
});

const linux = (): BrowserEnv => ({ platform: 'linux', userHome });
const detected = (env: BrowserEnv): string[] => browserTargets(env).filter((t) => t.detected).map((t) => t.browser);
const makeDirs = (...dirs: string[]): void => dirs.forEach((d) => mkdirSync(join(userHome, d), { recursive: true }));

function caught(fn: () => unknown): RelayError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RelayError);
    return error as RelayError;
  }
  throw new Error('expected a RelayError');
}

describe('browser detection', () => {
  it('knows every Linux browser with its user-level NativeMessagingHosts dir', () => {
    const dirs = Object.fromEntries(browserTargets(linux()).map((t) => [t.browser, t.dir?.slice(userHome.length)]));
    expect(dirs).toEqual({
      chrome: '/.config/google-chrome/NativeMessagingHosts',
      'chrome-beta': '/.config/google-chrome-beta/NativeMessagingHosts',
      'chrome-dev': '/.config/google-chrome-unstable/NativeMessagingHosts',
      'chrome-canary': '/.config/google-chrome-canary/NativeMessagingHosts',
      'chrome-for-testing': '/.config/google-chrome-for-testing/NativeMessagingHosts',
      chromium: '/.config/chromium/NativeMessagingHosts',
      brave: '/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts',
      edge: '/.config/microsoft-edge/NativeMessagingHosts',
      vivaldi: '/.config/vivaldi/NativeMessagingHosts',
      opera: '/.config/opera/NativeMessagingHosts',
    });
  });

  it('knows the macOS layout, including Arc', () => {
    const targets = browserTargets({ platform: 'darwin', userHome });
    const dirs = Object.fromEntries(targets.map((t) => [t.browser, t.dir?.slice(userHome.length)]));
    expect(dirs.chrome).toBe('/Library/Application Support/Google/Chrome/NativeMessagingHosts');
    expect(dirs['chrome-canary']).toBe('/Library/Application Support/Google/Chrome Canary/NativeMessagingHosts');
    expect(dirs.opera).toBe('/Library/Application Support/com.operasoftware.Opera/NativeMessagingHosts');
    expect(dirs.arc).toBe('/Library/Application Support/Arc/User Data/NativeMessagingHosts');
    expect(Object.keys(dirs)).toHaveLength(11);
  });

  it('detects only chromium when only its profile dir exists', () => {
    makeDirs('.config/chromium');
    expect(detected(linux())).toEqual(['chromium']);
  });

  it('detects chrome and brave together', () => {
    makeDirs('.config/google-chrome', '.config/BraveSoftware/Brave-Browser');
    expect(detected(linux())).toEqual(['chrome', 'brave']);
    // A vendor folder without the browser's profile is not the browser.
    rmSync(join(userHome, '.config/BraveSoftware/Brave-Browser'), { recursive: true });
    expect(detected(linux())).toEqual(['chrome']);
  });

  it('detects nothing on a fresh home, and install then refuses with the browsers it looked for', () => {
    expect(detected(linux())).toEqual([]);
    const error = caught(() => resolveInstallTargets({ browsers: [] }, linux(), join(userHome, 'relay')));
    expect(error.code).toBe('external_dependency_missing');
    expect(error.details.looked).toContain(join(userHome, '.config/chromium'));
  });

  it('honours an absolute XDG_CONFIG_HOME and ignores a relative one', () => {
    const xdg = join(userHome, 'xdg');
    mkdirSync(join(xdg, 'vivaldi'), { recursive: true });
    expect(detected({ platform: 'linux', userHome, env: { XDG_CONFIG_HOME: xdg } })).toEqual(['vivaldi']);
    expect(browserTarget('chrome', { platform: 'linux', userHome, env: { XDG_CONFIG_HOME: 'rel' } }).dir).toBe(join(userHome, '.config/google-chrome/NativeMessagingHosts'));
  });

  it('rejects an unknown --browser with the valid names for this platform', () => {
    const error = caught(() => browserTarget('firefox', linux()));
    expect(error.code).toBe('invalid_arguments');
    expect(error.details.field).toBe('browser');
    expect(error.message).toContain('chrome, chrome-beta, chrome-dev, chrome-canary, chrome-for-testing, chromium, brave, edge, vivaldi, opera');
    expect(caught(() => browserTarget('arc', linux())).code).toBe('invalid_arguments');
    expect(browserTarget('arc', { platform: 'darwin', userHome }).browser).toBe('arc');
  });

  it('names the browser from its executable path', () => {
    expect(browserOfExecutable('/usr/lib/chromium/chromium')).toBe('chromium');
    expect(browserOfExecutable('/opt/google/chrome/chrome')).toBe('chrome');
    expect(browserOfExecutable('/opt/google/chrome-beta/chrome')).toBe('chrome-beta');
    expect(browserOfExecutable('/opt/google/chrome-unstable/chrome')).toBe('chrome-dev');
    expect(browserOfExecutable('/opt/brave.com/brave/brave')).toBe('brave');
    expect(browserOfExecutable('/opt/microsoft/msedge/msedge')).toBe('edge');
    expect(browserOfExecutable('/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary')).toBe('chrome-canary');
    expect(browserOfExecutable('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome')).toBe('chrome');
    expect(browserOfExecutable('/Applications/Arc.app/Contents/MacOS/Arc')).toBe('arc');
    expect(browserOfExecutable('/usr/bin/node')).toBeNull();
  });

  it('finds a browser\'s executable (setup opens its steps with it): package paths and PATH on Linux, the app bundle on macOS, Program Files on Windows', () => {
    const present = new Set(['/opt/bin/google-chrome-stable', '/usr/bin/chromium']);
    const isExecutable = (path: string): boolean => present.has(path);
    const onPath = { platform: 'linux' as const, userHome, env: { PATH: '/usr/bin:/opt/bin' } };
    expect(browserExecutable('chrome', onPath, isExecutable)).toBe('/opt/bin/google-chrome-stable');
    expect(browserExecutable('chromium', onPath, isExecutable)).toBe('/usr/bin/chromium');
    expect(browserExecutable('brave', onPath, isExecutable)).toBeNull();
    expect(browserExecutable('chrome', { platform: 'darwin', userHome }, () => true)).toBe('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
    const windows = { platform: 'win32' as const, userHome: 'C:\\Users\\u', env: { ProgramFiles: 'C:\\Program Files' } };
    expect(browserExecutable('chrome', windows, (p) => p.endsWith('Local\\Google\\Chrome\\Application\\chrome.exe'))).toBe('C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe');
  });
});
