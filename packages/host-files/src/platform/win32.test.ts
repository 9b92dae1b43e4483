import { describe, expect, it } from 'vitest';
import { relayHome } from '../home.js';
import { BROWSERS, browserOfExecutable } from './browsers.js';
import { platformOf } from './platform.js';
import { pipeName } from './win32.js';

const win32 = platformOf('win32');
const env = {
  LOCALAPPDATA: 'C:\\Users\\José Ñ\\AppData\\Local',
  APPDATA: 'C:\\Users\\José Ñ\\AppData\\Roaming',
  USERPROFILE: 'C:\\Users\\José Ñ',
  ProgramFiles: 'C:\\Program Files',
  'ProgramFiles(x86)': 'C:\\Program Files (x86)',
};
const user = { env, userHome: 'C:\\Users\\José Ñ' };
const spec = (name: string) => {
  const found = BROWSERS.find((b) => b.name === name);
  if (!found) throw new Error(name);
  return found;
};

describe('Windows homes and the secret', () => {
  it('keeps state in %LOCALAPPDATA%\\chrome-relay (inside the profile directory), the secret beside the default home', () => {
    expect(relayHome(env, user.userHome, 'win32')).toBe('C:\\Users\\José Ñ\\AppData\\Local\\chrome-relay');
    expect(relayHome({}, 'C:\\Users\\u', 'win32')).toBe('C:\\Users\\u\\AppData\\Local\\chrome-relay');
    expect(relayHome({ LOCALAPPDATA: 'relative' }, 'C:\\Users\\u', 'win32')).toBe('C:\\Users\\u\\AppData\\Local\\chrome-relay');
    expect(relayHome({ CHROME_RELAY_HOME: 'D:\\relay\\' }, 'C:\\Users\\u', 'win32')).toBe('D:\\relay');
    // A relocated home does not move the secret: it belongs to the user, in their profile directory.
    expect(win32.secretFile({ env: { ...env, CHROME_RELAY_HOME: 'D:\\relay' }, userHome: user.userHome })).toBe('C:\\Users\\José Ñ\\AppData\\Local\\chrome-relay\\secret');
  });
});

describe('a named pipe endpoint', () => {
  it('is \\\\.\\pipe\\chrome-relay-<hash of user and home>-<pid>-<random>, never beside the descriptor', () => {
    const endpoint = win32.prepareEndpoint({ run: 'C:\\h\\run', pid: 4242, uid: 0, home: 'C:\\h', userName: 'José', env: {} });
    expect(endpoint.path).toMatch(/^\\\\\.\\pipe\\chrome-relay-[0-9a-f]{16}-4242-[0-9a-f]{12}$/);
    expect(endpoint.ownDir).toBeNull();
    expect(endpoint.note).toBeNull();
    // The owner part depends on the user and the home only (case-insensitively, as Windows compares both).
    const owner = (name: string): string => name.split('-')[2] ?? '';
    expect(owner(pipeName('josé', 'c:\\H\\', 1, 'aa'))).toBe(owner(pipeName('José', 'C:\\h', 2, 'bb')));
    expect(owner(pipeName('josé', 'C:\\h2', 1, 'aa'))).not.toBe(owner(pipeName('José', 'C:\\h', 1, 'aa')));
    expect(owner(pipeName('ana', 'C:\\h', 1, 'aa'))).not.toBe(owner(pipeName('José', 'C:\\h', 1, 'aa')));
    // Two hosts of one pid (pids are reused) never share a name.
    expect(win32.prepareEndpoint({ run: 'C:\\h\\run', pid: 1, uid: 0, home: 'C:\\h', userName: 'u', env: {} }).path).not.toBe(
      win32.prepareEndpoint({ run: 'C:\\h\\run', pid: 1, uid: 0, home: 'C:\\h', userName: 'u', env: {} }).path,
    );
  });
});

describe('the .cmd launcher', () => {
  const home = 'C:\\Users\\José Ñ\\AppData\\Local\\chrome-relay';
  const file = `${home}\\host\\chrome-relay-host.cmd`;
  const launch = (node: string, extraEnv: NodeJS.ProcessEnv = env) =>
    win32.launcher.script({
      file,
      node,
      hostFile: `${home}\\host\\host.mjs`,
      defaults: [
        { name: 'CHROME_RELAY_HOME', value: home, path: true },
        { name: 'CHROME_RELAY_EXTENSION_IDS', value: 'abcdefghijklmnopabcdefghijklmnop' },
      ],
      env: extraEnv,
    });

  it('quotes node and the host, runs them with the browser arguments, and writes no non-ASCII path: the launcher dir is %~dp0, the user folders variables', () => {
    const script = launch('C:\\Program Files\\nodejs\\node.exe');
    expect(script.split('\r\n')).toEqual([
      '@echo off',
      'rem chrome-relay native host launcher, written by chrome-relay install. Chrome runs it through cmd.exe',
      "rem with the browser's environment; home and extension ids are set here so the host agrees with the CLI.",
      'setlocal DisableDelayedExpansion',
      'if not defined CHROME_RELAY_HOME set "CHROME_RELAY_HOME=%~dp0.."',
      'if not defined CHROME_RELAY_EXTENSION_IDS set "CHROME_RELAY_EXTENSION_IDS=abcdefghijklmnopabcdefghijklmnop"',
      '"C:\\Program Files\\nodejs\\node.exe" "%~dp0host.mjs" %*',
      '',
    ]);
    expect(win32.launcher.targets(script, file, env)).toEqual({ node: 'C:\\Program Files\\nodejs\\node.exe', hostFile: `${home}\\host\\host.mjs` });
  });

  it('names a node under the user profile by variable, doubles % (cmd expands it even in quotes), and reads it all back', () => {
    const node = 'C:\\Users\\José Ñ\\AppData\\Roaming\\nvm\\v20 %x%\\node.exe';
    const script = launch(node);
    expect(script).toContain('"%APPDATA%\\nvm\\v20 %%x%%\\node.exe" "%~dp0host.mjs" %*\r\n');
    // The file is ASCII: cmd.exe reads a batch file in the console's code page.
    expect(/^[\x20-\x7e\r\n]*$/.test(script)).toBe(true);
    expect(win32.launcher.targets(script, file, env)).toEqual({ node, hostFile: `${home}\\host\\host.mjs` });
    // A variable the reader's environment lacks: not a launcher it can follow.
    expect(win32.launcher.targets(script, file, {})).toBeNull();
    // Anywhere else, the path as it is.
    expect(launch('D:\\tools\\node.exe')).toContain('"D:\\tools\\node.exe" "%~dp0host.mjs" %*');
  });

  it('is a .cmd file, and says why Chrome cannot start anything but .exe, .cmd and .bat', () => {
    expect(win32.launcher.fileName).toBe('chrome-relay-host.cmd');
    expect(win32.launcher.unstartable('C:\\x\\chrome-relay-host.cmd')).toBeNull();
    expect(win32.launcher.unstartable('C:\\x\\HOST.EXE')).toBeNull();
    expect(win32.launcher.unstartable('C:\\x\\chrome-relay-host')).toMatch(/runs only \.exe, \.cmd and \.bat files, and chrome-relay-host is none/);
    expect(win32.launcher.targets("#!/bin/sh\nexec '/usr/bin/node' '/h/host.mjs' \"$@\"\n", file, env)).toBeNull();
  });
});

describe('browsers on Windows', () => {
  it('derives profiles, the registry key and the executable from the vendor path', () => {
    expect(win32.browserPlaces(spec('chrome'), user)).toEqual({
      userDataDir: 'C:\\Users\\José Ñ\\AppData\\Local\\Google\\Chrome\\User Data',
      manifestDir: null,
      registryKey: 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts',
    });
    const keys = Object.fromEntries(BROWSERS.map((b) => [b.name, win32.browserPlaces(b, user)?.registryKey ?? null]));
    expect(keys).toEqual({
      chrome: 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts',
      'chrome-beta': 'HKCU\\Software\\Google\\Chrome Beta\\NativeMessagingHosts',
      'chrome-dev': 'HKCU\\Software\\Google\\Chrome Dev\\NativeMessagingHosts',
      'chrome-canary': 'HKCU\\Software\\Google\\Chrome SxS\\NativeMessagingHosts',
      'chrome-for-testing': 'HKCU\\Software\\Google\\Chrome for Testing\\NativeMessagingHosts',
      chromium: 'HKCU\\Software\\Chromium\\NativeMessagingHosts',
      brave: 'HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts',
      edge: 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts',
      vivaldi: 'HKCU\\Software\\Vivaldi\\NativeMessagingHosts',
      opera: null,
      arc: null,
    });
    expect(win32.browserExecutables(spec('edge'), user)).toEqual([
      'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe',
      'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
      'C:\\Users\\José Ñ\\AppData\\Local\\Microsoft\\Edge\\Application\\msedge.exe',
    ]);
  });

  it('reads hosts from the registry only (never a profile directory), compares paths without case, runs programs as .exe', () => {
    expect(win32.profileManifests).toBe(false);
    expect(win32.samePath('C:\\Users\\Ana\\x.json', 'c:\\users\\ana\\X.JSON')).toBe(true);
    expect(win32.samePath('C:\\Users\\Ana\\x.json', 'C:\\Users\\Ana\\y.json')).toBe(false);
    expect(win32.programFile('ffmpeg')).toBe('ffmpeg.exe');
  });

  it('names the browser of a Windows executable path', () => {
    expect(browserOfExecutable('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe')).toBe('chrome');
    expect(browserOfExecutable('C:\\Program Files\\Google\\Chrome Beta\\Application\\chrome.exe')).toBe('chrome-beta');
    expect(browserOfExecutable('C:\\Users\\u\\AppData\\Local\\Google\\Chrome SxS\\Application\\chrome.exe')).toBe('chrome-canary');
    expect(browserOfExecutable('C:\\Users\\u\\AppData\\Local\\Chromium\\Application\\chrome.exe')).toBe('chromium');
    expect(browserOfExecutable('C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe')).toBe('edge');
    expect(browserOfExecutable('/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing')).toBe('chrome-for-testing');
    expect(browserOfExecutable('C:\\ci\\chrome\\win64-131\\chrome-win64\\chrome.exe')).toBeNull();
  });
});
