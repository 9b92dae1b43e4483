/**
 * Where a host keeps its files. The layout is part of the contract with the CLI, which finds hosts by
 * reading `<home>/run/host-*.json` (it re-implements this discovery; it never imports the host):
 *
 *   <home>/run/                 0700, one per user (home = $CHROME_RELAY_HOME or ~/.chrome-relay)
 *   <home>/run/host-<pid>.json  descriptor, 0600, names the socket
 *   <home>/run/host-<pid>.sock  socket, 0600 — or /tmp/chrome-relay-<uid>/<hash>.sock when that
 *                               path would not fit in sun_path
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, statSync } from 'node:fs';
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

/** The socket path that fits sun_path: beside the descriptor when possible, else a short /tmp path. */
export function socketPath(run: string, pid: number, uid: number, shortRoot = '/tmp'): string {
  const preferred = join(run, `host-${pid}.sock`);
  if (Buffer.byteLength(preferred) <= MAX_SOCKET_PATH_BYTES) return preferred;
  // Hashing the preferred path keeps the name stable for this host and distinct across homes.
  const hash = createHash('sha256').update(preferred).digest('hex').slice(0, 16);
  return join(shortSocketDir(uid, shortRoot), `${hash}.sock`);
}

export function shortSocketDir(uid: number, shortRoot = '/tmp'): string {
  return join(shortRoot, `chrome-relay-${uid}`);
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
