/**
 * What Linux and macOS share: a host listens on a Unix socket guarded by file modes, and browsers start
 * a `#!/bin/sh` launcher. Socket paths are bounded by sun_path (108 bytes on Linux, 104 on macOS, each
 * including the terminating NUL), so a home with a long path gets its sockets elsewhere.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdtempSync, readFileSync, rmdirSync } from 'node:fs';
import { posix } from 'node:path';
import { ensurePrivateDir, HOME_ENV } from '../privateDir.js';
import type { Endpoint, EndpointRequest, LauncherFormat, LauncherSpec } from './seam.js';

/** Prefix of the directories made under /tmp for one host's socket (the sweep recognises them). */
const SHORT_DIR_PREFIX = 'chrome-relay-';

export interface UnixSocketRules {
  /** Longest socket path this OS accepts, in bytes, without the NUL. */
  maxBytes: number;
  /** The OS's name in the note a fallback leaves in the host's log. */
  osLabel: string;
  /** A directory of this user's that nobody else may enter, from the environment (XDG_RUNTIME_DIR, TMPDIR). */
  runtimeVariable: string;
}

/**
 * Where host `pid`'s socket goes. Beside the descriptor when that fits; else in a directory no other user
 * can have created, because a shared, predictable path (the old /tmp/chrome-relay-<uid>) let another local
 * user pre-create it and so stop this user's host from starting:
 *   1. <runtime dir>/chrome-relay, when the runtime dir is ours and private (0700);
 *   2. a fresh mkdtemp directory under /tmp (created atomically with a random name, 0700).
 * When not even that fits, the error names the fix (a shorter CHROME_RELAY_HOME).
 */
export function prepareUnixSocket(rules: UnixSocketRules, request: EndpointRequest): Endpoint {
  const { run, pid, uid, env } = request;
  const shortRoot = request.shortRoot ?? '/tmp';
  const preferred = posix.join(run, `host-${pid}.sock`);
  const fits = (path: string): boolean => Buffer.byteLength(path) <= rules.maxBytes;
  if (fits(preferred)) return { path: preferred, ownDir: null, note: null };
  const note = (path: string): string =>
    `the socket beside the descriptor (${preferred}) would be ${Buffer.byteLength(preferred)} bytes, over the ${rules.maxBytes}-byte limit of a socket path on ${rules.osLabel}; it is ${path} instead`;
  // Hashing the preferred path keeps the name distinct across homes.
  const name = `${createHash('sha256').update(preferred).digest('hex').slice(0, 16)}.sock`;
  const runtime = privateRuntimeDir(env[rules.runtimeVariable], uid);
  if (runtime !== null && fits(posix.join(runtime, 'chrome-relay', name))) {
    const dir = posix.join(runtime, 'chrome-relay');
    ensurePrivateDir(dir, uid);
    const path = posix.join(dir, name);
    return { path, ownDir: null, note: note(`${path} (in $${rules.runtimeVariable}, which only this user may enter)`) };
  }
  if (!fits(posix.join(shortRoot, `${SHORT_DIR_PREFIX}${uid}-XXXXXX`, name))) {
    throw new Error(`no socket path short enough for ${run} (a socket path holds ${rules.maxBytes} bytes on ${rules.osLabel}); set ${HOME_ENV} to a shorter directory.`);
  }
  const dir = mkdtempSync(posix.join(shortRoot, `${SHORT_DIR_PREFIX}${uid}-`));
  chmodSync(dir, 0o700);
  const path = posix.join(dir, name);
  return { path, ownDir: dir, note: note(`${path} (in a directory made for this host alone, 0700)`) };
}

/** The runtime dir when it is an absolute directory of ours that nobody else may enter, else null. */
function privateRuntimeDir(dir: string | undefined, uid: number): string | null {
  if (!dir || !dir.startsWith('/')) return null;
  const trimmed = dir.length > 1 ? dir.replace(/\/+$/, '') : dir;
  try {
    const stat = lstatSync(trimmed);
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0 ? trimmed : null;
  } catch {
    return null;
  }
}

/**
 * Remove a directory prepareUnixSocket made under `shortRoot` once its socket is gone. Only an empty
 * directory of ours with our prefix is removed, so a path from a descriptor can be passed safely.
 */
export function removeOwnSocketDir(dir: string, uid: number, shortRoot = '/tmp'): boolean {
  if (posix.dirname(dir) !== shortRoot || !dir.slice(shortRoot.length + 1).startsWith(`${SHORT_DIR_PREFIX}${uid}-`)) return false;
  try {
    if (lstatSync(dir).uid !== uid) return false;
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

/** A killed host stays a zombie until its parent (the browser) reaps it: it answers kill(0) but is dead. */
function isLinuxZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may contain spaces or ')'; the state letter follows the last ')'.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    // Already gone: kill(0) decided.
    return false;
  }
}

/** kill(pid, 0) succeeds (EPERM: someone else's, but alive) — and, where /proc can tell, it is not a zombie. */
export function killZeroAlive(pid: number, checkZombie: boolean): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !(checkZombie && isLinuxZombie(pid));
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const shellDefault = (s: string): string => s.replace(/(["\\$`])/g, '\\$1');

/** `#!/bin/sh`, the defaults exported unless set, then `exec node host "$@"` (the browser's pid stays the host's parent). */
export const shLauncher: LauncherFormat = {
  fileName: 'chrome-relay-host',
  script(spec: LauncherSpec): string {
    return [
      '#!/bin/sh',
      '# chrome-relay native host launcher, written by `chrome-relay install`. Chrome runs it with the',
      "# browser's environment; home and extension ids are baked in so the host agrees with the CLI.",
      ...spec.defaults.flatMap(({ name, value }) => [`${name}="\${${name}:-${shellDefault(value)}}"`, `export ${name}`]),
      `exec ${shellQuote(spec.node)} ${shellQuote(spec.hostFile)} "$@"`,
      '',
    ].join('\n');
  },
  targets(text: string) {
    const match = /^exec '((?:[^']|'\\'')*)' '((?:[^']|'\\'')*)' "\$@"$/m.exec(text);
    if (!match?.[1] || !match[2]) return null;
    const unquote = (s: string): string => s.replace(/'\\''/g, "'");
    return { node: unquote(match[1]), hostFile: unquote(match[2]) };
  },
  // The executable bit is checked on the file itself (manifestCheck): the name does not matter.
  unstartable: () => null,
};
