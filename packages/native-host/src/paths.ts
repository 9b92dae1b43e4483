/**
 * Where a host keeps its files. The layout is part of the contract with the CLI, which finds hosts by
 * reading `<home>/run/host-*.json` (it re-implements this discovery; it never imports the host):
 *
 *   <home>/run/                 0700, one per user (home = $CHROME_RELAY_HOME or ~/.chrome-relay)
 *   <home>/run/host-<pid>.json  descriptor, 0600, names the socket
 *   <home>/run/host-<pid>.sock  socket, 0600 — or, when that path would not fit in sun_path, a
 *                               short path in a directory only this user can have created (see
 *                               prepareSocketPath); the descriptor always names the real one
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { HOME_ENV } from '@chrome-relay/protocol';

/**
 * sun_path holds 108 bytes on Linux and 104 on macOS, including the terminating NUL; staying at or
 * below 100 keeps one rule for every platform.
 */
export const MAX_SOCKET_PATH_BYTES = 100;

/** The home and run dir, resolved the same way as the CLI does (@chrome-relay/host-files). */
export { relayHome as resolveHome, runDir } from '@chrome-relay/host-files';

export function descriptorPath(run: string, pid: number): string {
  return join(run, `host-${pid}.json`);
}

/** The socket beside the descriptor: where it goes whenever the path fits in sun_path. */
export function preferredSocketPath(run: string, pid: number): string {
  return join(run, `host-${pid}.sock`);
}

export interface SocketLocation {
  path: string;
  /** A directory made for this host alone, to remove when it exits (null when the socket sits elsewhere). */
  ownDir: string | null;
}

/** Prefix of the directories made under /tmp by prepareSocketPath (the sweep recognises them). */
export const SHORT_DIR_PREFIX = 'chrome-relay-';

/**
 * Where this host's socket goes. Beside the descriptor when that fits in sun_path; else in a directory
 * no other user can have created, because a shared, predictable path (the old /tmp/chrome-relay-<uid>)
 * let another local user pre-create it and so stop this user's host from starting:
 *   1. $XDG_RUNTIME_DIR/chrome-relay, when XDG_RUNTIME_DIR is ours and private (0700, as logind makes it);
 *   2. a fresh mkdtemp directory under /tmp (created atomically with a random name, 0700).
 * When not even that fits, the error names the fix (a shorter CHROME_RELAY_HOME).
 */
export function prepareSocketPath(run: string, pid: number, uid: number, env: NodeJS.ProcessEnv, shortRoot = '/tmp'): SocketLocation {
  const preferred = preferredSocketPath(run, pid);
  if (fits(preferred)) return { path: preferred, ownDir: null };
  // Hashing the preferred path keeps the name distinct across homes.
  const name = `${createHash('sha256').update(preferred).digest('hex').slice(0, 16)}.sock`;
  const runtime = privateRuntimeDir(env, uid);
  if (runtime !== null && fits(join(runtime, 'chrome-relay', name))) {
    const dir = join(runtime, 'chrome-relay');
    ensurePrivateDir(dir, uid);
    return { path: join(dir, name), ownDir: null };
  }
  const candidate = join(shortRoot, `${SHORT_DIR_PREFIX}${uid}-XXXXXX`, name);
  if (!fits(candidate)) {
    throw new Error(`no socket path short enough for ${run} (sun_path holds ${MAX_SOCKET_PATH_BYTES} bytes); set ${HOME_ENV} to a shorter directory.`);
  }
  const dir = mkdtempSync(join(shortRoot, `${SHORT_DIR_PREFIX}${uid}-`));
  chmodSync(dir, 0o700);
  return { path: join(dir, name), ownDir: dir };
}

function fits(path: string): boolean {
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES;
}

/** $XDG_RUNTIME_DIR when it is an absolute directory of ours that nobody else may enter, else null. */
function privateRuntimeDir(env: NodeJS.ProcessEnv, uid: number): string | null {
  const dir = env.XDG_RUNTIME_DIR;
  if (!dir || !dir.startsWith('/')) return null;
  try {
    const stat = lstatSync(dir);
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0 ? dir : null;
  } catch {
    return null;
  }
}

/**
 * Remove a directory prepareSocketPath made under `shortRoot` once its socket is gone. Only an empty
 * directory of ours with our prefix is removed, so a path from a descriptor can be passed safely.
 */
export function removeOwnSocketDir(dir: string, uid: number, shortRoot = '/tmp'): boolean {
  if (dirname(dir) !== shortRoot || !dir.slice(shortRoot.length + 1).startsWith(`${SHORT_DIR_PREFIX}${uid}-`)) return false;
  try {
    if (lstatSync(dir).uid !== uid) return false;
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

/**
 * Create `dir` (and parents) and make it 0700. Refuses a directory that is a symlink or belongs to
 * someone else: under a shared root like /tmp another user could pre-create it to read our socket.
 */
export function ensurePrivateDir(dir: string, uid: number): void {
  makeDirs(dir, 0o700);
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) {
    throw new Error(`${dir} exists but is not a directory (a symlink or file); remove it and restart the browser.`);
  }
  if (stat.uid !== uid) {
    throw new Error(`${dir} belongs to uid ${stat.uid}, not to us (uid ${uid}); remove it or set ${HOME_ENV}.`);
  }
  chmodSync(dir, 0o700);
}

/**
 * mkdir -p one level at a time. Node's `mkdirSync(…, { recursive: true })` spins forever when a child
 * of an existing parent answers ENOENT (procfs such as CHROME_RELAY_HOME=/proc/x, a dangling symlink):
 * here that ENOENT is final. (The CLI has the same walk in outputFiles.ts; the host never imports the CLI.)
 */
export function makeDirs(dir: string, mode: number): void {
  const missing: string[] = [];
  for (let current = resolve(dir); ; current = dirname(current)) {
    try {
      statSync(current);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(current) === current) throw error;
      missing.unshift(current);
    }
  }
  for (const path of missing) {
    try {
      mkdirSync(path, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
