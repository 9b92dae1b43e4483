import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BROWSERS } from './browsers.js';
import { platformOf } from './platform.js';
import type { EndpointRequest } from './seam.js';
import { removeOwnSocketDir } from './posix.js';

const uid = process.getuid?.() ?? 0;
const linux = platformOf('linux');
const darwin = platformOf('darwin');
let scratch = '';
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cr-posix-'));
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const request = (run: string, env: NodeJS.ProcessEnv = {}): EndpointRequest => ({ run, pid: 12, uid, home: dirname(run), userName: 'u', env, shortRoot: scratch });
/** A run dir whose socket path is exactly `bytes` long. */
const runOfSocketBytes = (bytes: number): string => `/${'d'.repeat(bytes - '/x/run/host-12.sock'.length + 1)}/run`;
const spec = (name: string) => {
  const found = BROWSERS.find((b) => b.name === name);
  if (!found) throw new Error(name);
  return found;
};

describe('a Unix socket endpoint', () => {
  it('sits beside the descriptor when it fits', () => {
    expect(linux.prepareEndpoint(request('/h/run'))).toEqual({ path: '/h/run/host-12.sock', ownDir: null, note: null });
    expect(darwin.prepareEndpoint(request('/h/run'))).toEqual({ path: '/h/run/host-12.sock', ownDir: null, note: null });
  });

  it('holds 107 bytes on Linux and 103 on macOS (sun_path less its NUL), and a fallback says why in the note', () => {
    expect(runOfSocketBytes(103).length + '/host-12.sock'.length).toBe(103);
    expect(linux.prepareEndpoint(request(runOfSocketBytes(107))).ownDir).toBeNull();
    expect(linux.prepareEndpoint(request(runOfSocketBytes(108))).ownDir).not.toBeNull();
    expect(darwin.prepareEndpoint(request(runOfSocketBytes(103))).ownDir).toBeNull();
    const moved = darwin.prepareEndpoint(request(runOfSocketBytes(104)));
    expect(Buffer.byteLength(moved.path)).toBeLessThanOrEqual(103);
    expect(moved.note).toMatch(/would be 104 bytes, over the 103-byte limit of a socket path on macOS; it is .* \(in a directory made for this host alone, 0700\) instead$/);
  });

  it('makes a fresh private directory nobody else can have made, one per host, and removes it after', () => {
    const longRun = runOfSocketBytes(200);
    const a = linux.prepareEndpoint(request(longRun));
    const b = linux.prepareEndpoint(request(longRun));
    expect(a.ownDir).not.toBeNull();
    expect(a.ownDir).not.toBe(b.ownDir);
    expect(dirname(a.path)).toBe(a.ownDir);
    expect(statSync(a.ownDir ?? '').mode & 0o777).toBe(0o700);
    expect(removeOwnSocketDir(a.ownDir ?? '', uid, scratch)).toBe(true);
    expect(existsSync(a.ownDir ?? '')).toBe(false);
    // Only our own prefix, directly under the root: never an arbitrary path from a descriptor.
    expect(removeOwnSocketDir(join(scratch, 'elsewhere'), uid, scratch)).toBe(false);
    expect(removeOwnSocketDir(b.ownDir ?? '', uid + 1, scratch)).toBe(false);
  });

  it('starts even when another user pre-created the old predictable /tmp/chrome-relay-<uid>', () => {
    const squatted = join(scratch, `chrome-relay-${uid}`);
    mkdirSync(squatted, { mode: 0o777 });
    const location = linux.prepareEndpoint(request(runOfSocketBytes(200)));
    expect(dirname(location.path)).not.toBe(squatted);
    expect(readdirSync(squatted)).toEqual([]);
  });

  it('prefers the private runtime dir of each OS (XDG_RUNTIME_DIR, macOS $TMPDIR), and ignores one that is not private or not ours', () => {
    const runtime = join(scratch, 'runtime');
    mkdirSync(runtime, { mode: 0o700 });
    chmodSync(runtime, 0o700);
    const longRun = runOfSocketBytes(200);
    const onLinux = linux.prepareEndpoint(request(longRun, { XDG_RUNTIME_DIR: runtime, TMPDIR: '/nowhere' }));
    expect(onLinux).toEqual({ path: expect.stringMatching(new RegExp(`^${runtime}/chrome-relay/[0-9a-f]{16}\\.sock$`)), ownDir: null, note: expect.stringContaining('in $XDG_RUNTIME_DIR') });
    expect(statSync(join(runtime, 'chrome-relay')).mode & 0o777).toBe(0o700);
    // macOS hands every user a private $TMPDIR (/var/folders/…/T/, with a trailing slash).
    const onMac = darwin.prepareEndpoint(request(longRun, { TMPDIR: `${runtime}/`, XDG_RUNTIME_DIR: '/nowhere' }));
    expect(onMac.path).toMatch(new RegExp(`^${runtime}/chrome-relay/[0-9a-f]{16}\\.sock$`));
    expect(onMac.note).toContain('in $TMPDIR');
    chmodSync(runtime, 0o755);
    expect(linux.prepareEndpoint(request(longRun, { XDG_RUNTIME_DIR: runtime })).ownDir).not.toBeNull();
    expect(darwin.prepareEndpoint(request(longRun, { TMPDIR: runtime })).ownDir).not.toBeNull();
    expect(linux.prepareEndpoint(request(longRun, { XDG_RUNTIME_DIR: 'relative' })).ownDir).not.toBeNull();
  });

  it('fails naming the fix when no short path fits either', () => {
    expect(() => linux.prepareEndpoint({ ...request(runOfSocketBytes(200)), shortRoot: `/${'r'.repeat(95)}` })).toThrow(/CHROME_RELAY_HOME/);
  });
});

describe('the shell launcher', () => {
  it('bakes defaults the browser environment may override, and quotes paths so any home survives the shell', () => {
    const weird = `/tmp/it's "a" $home \`x\``;
    const script = linux.launcher.script({ file: `${weird}/host/chrome-relay-host`, node: '/usr/bin/node', hostFile: `${weird}/host/host.mjs`, defaults: [{ name: 'CHROME_RELAY_HOME', value: weird, path: true }], env: {} });
    expect(script.split('\n')[0]).toBe('#!/bin/sh');
    expect(script).toContain('CHROME_RELAY_HOME="${CHROME_RELAY_HOME:-/tmp/it\'s \\"a\\" \\$home \\`x\\`}"\nexport CHROME_RELAY_HOME');
    expect(linux.launcher.targets(script, '', {})).toEqual({ node: '/usr/bin/node', hostFile: `${weird}/host/host.mjs` });
    expect(linux.launcher.fileName).toBe('chrome-relay-host');
    expect(darwin.launcher).toBe(linux.launcher);
  });
});

describe('browsers on Linux and macOS', () => {
  const user = { userHome: '/home/u', env: { PATH: '/usr/local/bin:/usr/bin', XDG_CONFIG_HOME: '/cfg' } };

  it('Linux: profiles under the XDG config root, manifests in <user-data-dir>/NativeMessagingHosts, executables at package paths then on PATH', () => {
    expect(linux.browserPlaces(spec('chrome'), user)).toEqual({ userDataDir: '/cfg/google-chrome', manifestDir: '/cfg/google-chrome/NativeMessagingHosts', registryKey: null });
    expect(linux.browserPlaces(spec('chrome'), { ...user, env: { XDG_CONFIG_HOME: 'relative' } })?.userDataDir).toBe('/home/u/.config/google-chrome');
    expect(linux.browserPlaces(spec('arc'), user)).toBeNull();
    expect(linux.browserExecutables(spec('chromium'), user)).toEqual([
      '/usr/lib/chromium/chromium',
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/snap/bin/chromium',
      '/usr/local/bin/chromium',
      '/usr/bin/chromium',
      '/usr/local/bin/chromium-browser',
      '/usr/bin/chromium-browser',
    ]);
  });

  it('macOS: profiles under ~/Library/Application Support, executables inside app bundles in /Applications or ~/Applications', () => {
    expect(darwin.browserPlaces(spec('brave'), user)).toEqual({
      userDataDir: '/home/u/Library/Application Support/BraveSoftware/Brave-Browser',
      manifestDir: '/home/u/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts',
      registryKey: null,
    });
    expect(darwin.browserExecutables(spec('chrome-for-testing'), user)).toEqual([
      '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
      '/home/u/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
    ]);
    expect(darwin.defaultHome(user)).toBe('/home/u/.chrome-relay');
    expect(darwin.secretFile(user)).toBeNull();
    // A browser started with --user-data-dir reads the profile's own manifests; paths compare exactly.
    for (const os of [linux, darwin]) {
      expect(os.profileManifests).toBe(true);
      expect(os.samePath('/a/B', '/a/b')).toBe(false);
      expect(os.programFile('ffmpeg')).toBe('ffmpeg');
    }
  });
});

describe('a browser named by an app bundle (macOS)', () => {
  const bundle = (name: string, plist: string | null): string => {
    const app = join(scratch, `${name}.app`);
    mkdirSync(join(app, 'Contents', 'MacOS'), { recursive: true });
    if (plist !== null) writeFileSync(join(app, 'Contents', 'Info.plist'), plist);
    return app;
  };

  it('runs the executable Info.plist names inside the bundle, or the one named like the bundle', () => {
    const xml = bundle('Google Chrome', '<?xml version="1.0"?><plist><dict><key>CFBundleExecutable</key>\n\t<string>Google Chrome</string></dict></plist>');
    expect(darwin.browserProgram(xml)).toBe(join(xml, 'Contents', 'MacOS', 'Google Chrome'));
    expect(darwin.browserProgram(`${xml}/`)).toBe(join(xml, 'Contents', 'MacOS', 'Google Chrome'));
    const renamed = bundle('Chromium Dev', '<plist><dict><key>CFBundleExecutable</key><string>Chromium</string></dict></plist>');
    expect(darwin.browserProgram(renamed)).toBe(join(renamed, 'Contents', 'MacOS', 'Chromium'));
    // A binary plist is not read: the convention.
    const binary = bundle('Brave Browser', 'bplist00\u0000\u0001');
    expect(darwin.browserProgram(binary)).toBe(join(binary, 'Contents', 'MacOS', 'Brave Browser'));
    // Anything else is the program itself.
    expect(darwin.browserProgram('/usr/local/bin/chromium')).toBe('/usr/local/bin/chromium');
    expect(darwin.browserProgram(join(scratch, 'Missing.app'))).toBe(join(scratch, 'Missing.app'));
    expect(linux.browserProgram(xml)).toBe(xml);
  });
});
