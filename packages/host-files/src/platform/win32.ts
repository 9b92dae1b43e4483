/**
 * Windows: state in %LOCALAPPDATA%\chrome-relay, inside the user's profile directory (private to the user
 * by its ACL); a named pipe per host, which file modes cannot guard, so clients present a per-user secret
 * kept beside the default home (secret.ts); liveness by kill(0) (no zombies); browsers found through the
 * registry — Chromium on Windows reads host manifests only from the path named by
 * `HKCU\Software\<vendor>\NativeMessagingHosts\<host>` (never from a profile directory) — and started
 * through cmd.exe, which runs the .cmd launcher.
 */
import { createHash, randomBytes } from 'node:crypto';
import { win32 as path } from 'node:path';
import type { BrowserSpec } from './browsers.js';
import type { LauncherFormat, LauncherSpec, Platform, UserFacts } from './seam.js';
import { killZeroAlive } from './posix.js';

/** %LOCALAPPDATA% when absolute, else where Windows puts it. */
function localAppData(user: UserFacts): string {
  const value = user.env.LOCALAPPDATA;
  return value && path.isAbsolute(value) ? value : path.join(user.userHome, 'AppData', 'Local');
}

/**
 * `\\.\pipe\chrome-relay-<hash of user and home>-<pid>-<random>`: one per host (several browsers run
 * hosts at once). The random part means no later host ever serves this name again, so a proof sent to it
 * (secret.ts) is worth nothing to whoever might serve the name once this host is gone.
 */
export function pipeName(userName: string, home: string, pid: number, random: string = randomBytes(6).toString('hex')): string {
  const owner = createHash('sha256').update(`${userName.toLowerCase()}\0${path.resolve(home).toLowerCase()}`).digest('hex').slice(0, 16);
  return `\\\\.\\pipe\\chrome-relay-${owner}-${pid}-${random}`;
}

/** Variables whose values cmd.exe reads from the browser's environment, so the .cmd file need not spell them (longest first). */
const PATH_VARIABLES = ['LOCALAPPDATA', 'APPDATA', 'USERPROFILE'] as const;

const under = (child: string, parent: string): boolean => child.toLowerCase().startsWith(`${parent.toLowerCase().replace(/\\+$/, '')}\\`);

/**
 * A path as .cmd text. cmd.exe reads a batch file in the console's code page, not UTF-8, so a path is
 * written relative to the launcher (`%~dp0`) or to the user's folders (`%LOCALAPPDATA%`…) wherever it
 * can be, leaving a user name with accents out of the file; `%` is doubled (cmd expands it even inside
 * quotes). Quotes need no escaping: Windows file names cannot contain them.
 */
function cmdPath(value: string, launcherDir: string, env: NodeJS.ProcessEnv): string {
  const escape = (s: string): string => s.replace(/%/g, '%%');
  const full = path.resolve(value);
  if (full.toLowerCase() === path.dirname(launcherDir).toLowerCase()) return '%~dp0..';
  if (under(full, launcherDir)) return `%~dp0${escape(path.relative(launcherDir, full))}`;
  const variables = PATH_VARIABLES.map((name) => ({ name, root: env[name] })).filter((v): v is { name: (typeof PATH_VARIABLES)[number]; root: string } => typeof v.root === 'string' && path.isAbsolute(v.root));
  for (const { name, root } of variables.sort((a, b) => b.root.length - a.root.length)) {
    if (under(full, root)) return `%${name}%\\${escape(path.relative(root, full))}`;
  }
  return escape(full);
}

/** The inverse of cmdPath, for doctor. */
function expandCmdPath(text: string, launcherDir: string, env: NodeJS.ProcessEnv): string | null {
  let missing = false;
  const expanded = text.replace(/%~dp0|%%|%([^%]+)%/g, (token, name: string | undefined) => {
    if (token === '%~dp0') return `${launcherDir}\\`;
    if (token === '%%') return '%';
    const found = Object.entries(env).find(([key]) => key.toLowerCase() === (name ?? '').toLowerCase())?.[1];
    if (found === undefined) missing = true;
    return found ?? '';
  });
  return missing ? null : path.resolve(expanded);
}

const cmdLauncher: LauncherFormat = {
  fileName: 'chrome-relay-host.cmd',
  script(spec: LauncherSpec): string {
    const dir = path.dirname(path.resolve(spec.file));
    const { env } = spec;
    return [
      // Nothing but the host may write to stdout: it is the native messaging channel.
      '@echo off',
      'rem chrome-relay native host launcher, written by chrome-relay install. Chrome runs it through cmd.exe',
      "rem with the browser's environment; home and extension ids are set here so the host agrees with the CLI.",
      'setlocal DisableDelayedExpansion',
      ...spec.defaults.map((d) => `if not defined ${d.name} set "${d.name}=${d.path === true ? cmdPath(d.value, dir, env) : d.value.replace(/%/g, '%%')}"`),
      `"${cmdPath(spec.node, dir, env)}" "${cmdPath(spec.hostFile, dir, env)}" %*`,
      '',
    ].join('\r\n');
  },
  targets(text: string, file: string, env: NodeJS.ProcessEnv) {
    const match = /^"([^"]+)" "([^"]+)" %\*\r?$/m.exec(text);
    if (!match?.[1] || !match[2]) return null;
    const dir = path.dirname(path.resolve(file));
    const node = expandCmdPath(match[1], dir, env);
    const hostFile = expandCmdPath(match[2], dir, env);
    return node === null || hostFile === null ? null : { node, hostFile };
  },
  unstartable: (file) =>
    /\.(?:cmd|bat|exe)$/i.test(file) ? null : `Chrome on Windows starts a host through cmd.exe, which runs only .exe, .cmd and .bat files, and ${path.basename(file)} is none of them`,
};

export const win32: Platform = {
  os: 'win32',
  samePath: (a, b) => path.resolve(a).toLowerCase() === path.resolve(b).toLowerCase(),
  programFile: (name) => `${name}.exe`,
  profileManifests: false,
  defaultHome: (user) => path.join(localAppData(user), 'chrome-relay'),
  secretFile: (user) => path.join(localAppData(user), 'chrome-relay', 'secret'),
  prepareEndpoint: (request) => ({ path: pipeName(request.userName, request.home, request.pid), ownDir: null, note: null }),
  isPidAlive: (pid) => killZeroAlive(pid, false),
  commandLineOf: () => null,
  launcher: cmdLauncher,
  browserPlaces(spec: BrowserSpec, user: UserFacts) {
    if (spec.win32 === undefined) return null;
    const { vendor } = spec.win32;
    return { userDataDir: path.join(localAppData(user), vendor, 'User Data'), manifestDir: null, registryKey: `HKCU\\Software\\${vendor}\\NativeMessagingHosts` };
  },
  browserExecutables(spec: BrowserSpec, user: UserFacts) {
    if (spec.win32 === undefined) return [];
    const { vendor, exe } = spec.win32;
    const roots = [user.env.ProgramFiles, user.env['ProgramFiles(x86)'], localAppData(user)].filter((r): r is string => typeof r === 'string' && path.isAbsolute(r));
    const unique = roots.filter((root, i) => roots.findIndex((r) => r.toLowerCase() === root.toLowerCase()) === i);
    return unique.map((root) => path.join(root, vendor, 'Application', exe));
  },
  browserProgram: (given) => given,
};
