/**
 * Directories only this user may enter (the home, its run dir, a socket's short fallback directory).
 * Shared by the host, which makes them, and the endpoint rules, which make the fallback directory.
 */
import { chmodSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Environment variable that relocates all per-user state; named in fixes. Same as protocol HOME_ENV. */
export const HOME_ENV = 'CHROME_RELAY_HOME';

/**
 * Create `dir` (and parents) and make it 0700. Refuses a directory that is a symlink or belongs to
 * someone else: under a shared root like /tmp another user could pre-create it to read our socket.
 * (On Windows modes and uids mean nothing — both read as 0 there — and the user's profile directory,
 * which holds the home, is private by its ACL.)
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
 * here that ENOENT is final. (The CLI has the same walk in outputFiles.ts, which also reports what it made.)
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
