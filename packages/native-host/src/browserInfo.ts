/**
 * Which browser process and profile started this host. Chrome does not tell a native host, but on
 * Linux the parent's command line does: `--user-data-dir=<dir>` names the profile, and its absence
 * means the default profile (reported as null). The CLI uses this to pick the right host when several
 * browsers run at once.
 *
 * Elsewhere no command line is read: on macOS the parent is the browser (the launcher execs node), on
 * Windows it is the cmd.exe that ran the launcher, which names nothing. There a profile that `launch`
 * started is known from the environment it gave the browser (LAUNCHED_PROFILE_ENV), and any other is
 * reported as the default one.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import type { OsName } from '@chrome-relay/host-files';
import { LAUNCHED_PROFILE_ENV } from '@chrome-relay/protocol';

export interface BrowserInfo {
  browserPid: number | null;
  profile: string | null;
}

/** The few /proc reads detection needs; injected so tests describe a process tree as plain data. */
export interface ProcReader {
  /** argv of `pid`, or null when unreadable (gone, another user's, not Linux). */
  cmdline(pid: number): string[] | null;
  /** Parent pid of `pid`, or null when unreadable. */
  parentOf(pid: number): number | null;
  /** Working directory of `pid`, or null when unreadable. */
  cwd(pid: number): string | null;
}

// Some setups start hosts through `/bin/sh -c`; our launcher `exec`s node, but a wrapper might not.
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ash', 'ksh', 'busybox']);

/** The browser that started this host, by the rules of this OS (see the header). */
export function detectBrowserOn(os: OsName, ppid: number, env: NodeJS.ProcessEnv, fallbackCwd: string, proc: ProcReader = linuxProc): BrowserInfo {
  if (os === 'linux') return detectBrowser(ppid, proc, fallbackCwd);
  const launched = env[LAUNCHED_PROFILE_ENV];
  const profile = launched && isAbsolute(launched) ? resolve(launched) : null;
  return { browserPid: os === 'darwin' ? ppid : null, profile };
}

/**
 * Whether `chrome-relay launch` started the browser serving `profile`: launch hands the profile it starts to the
 * browser's environment, which this host inherits. A person's own browser never has it (or names another profile).
 * The CLI uses it to tell an agent whether a browser that closed is one it may start again.
 */
export function launchedByRelay(env: NodeJS.ProcessEnv, profile: string | null): boolean {
  const launched = env[LAUNCHED_PROFILE_ENV];
  return profile !== null && launched !== undefined && isAbsolute(launched) && resolve(launched) === profile;
}

export function detectBrowser(ppid: number, proc: ProcReader, fallbackCwd: string): BrowserInfo {
  let browserPid = ppid;
  let argv = proc.cmdline(ppid);
  const program = argv?.[0];
  if (program !== undefined && SHELLS.has(basename(program))) {
    const grandparent = proc.parentOf(ppid);
    if (grandparent !== null && grandparent > 1) {
      browserPid = grandparent;
      argv = proc.cmdline(grandparent);
    }
  }
  if (argv === null) return { browserPid, profile: null };
  const dir = userDataDir(argv);
  if (dir === null) return { browserPid, profile: null };
  // A relative --user-data-dir is relative to the browser's cwd, not ours.
  const base = isAbsolute(dir) ? '' : (proc.cwd(browserPid) ?? fallbackCwd);
  return { browserPid, profile: resolve(base, dir) };
}

/** Chrome honours the last occurrence of a switch, and only the `--switch=value` form. */
export function userDataDir(argv: readonly string[]): string | null {
  let found: string | null = null;
  for (const arg of argv) {
    if (arg.startsWith('--user-data-dir=')) {
      const value = arg.slice('--user-data-dir='.length);
      if (value) found = value;
    }
  }
  return found;
}

export const linuxProc: ProcReader = {
  cmdline(pid) {
    try {
      const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      // NUL-separated with a trailing NUL; a process that rewrote its title may use spaces instead.
      const parts = raw.split('\0');
      if (parts.at(-1) === '') parts.pop();
      return parts;
    } catch {
      return null;
    }
  },
  parentOf(pid) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const match = /^PPid:\s*(\d+)$/m.exec(status);
      return match?.[1] !== undefined ? Number(match[1]) : null;
    } catch {
      return null;
    }
  },
  cwd(pid) {
    try {
      return readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      return null;
    }
  },
};
