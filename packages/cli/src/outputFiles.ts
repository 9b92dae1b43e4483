/**
 * The files and directories a command is asked to create (`--out`, `--user-data-dir`, CHROME_RELAY_HOME).
 * A bad path is the caller's mistake, so it is invalid_arguments naming the field — checked BEFORE the
 * browser is asked for anything, so a screenshot or a recording is never taken only to be lost.
 *
 * Directories are made one level at a time, never with `mkdirSync(…, { recursive: true })`: Node's
 * recursive mkdir spins at 100 % CPU forever when the filesystem answers ENOENT for a child of a parent
 * that exists (procfs: `/proc/x`; a dangling symlink) — it keeps re-creating the parent. Here a child
 * that still cannot be made once its parent exists is final.
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { RelayError } from '@chrome-relay/protocol';

/** Longest file name Linux and macOS accept (NAME_MAX), in bytes. */
const NAME_MAX_BYTES = 255;

const errnoOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'unknown';

/** Why the filesystem refused `path`, in words (errno kept in details). */
function refusal(path: string, error: unknown): string {
  switch (errnoOf(error)) {
    case 'ENOENT':
      return `${path} cannot be created there (its directory is missing, or the filesystem — e.g. /proc — holds no new files)`;
    case 'ENOTDIR':
      return `a part of ${path} is a file, not a directory`;
    case 'ENAMETOOLONG':
      return `${path} is too long a name`;
    case 'EISDIR':
      return `${path} is a directory; give a file path`;
    case 'EEXIST':
      return `${path} exists and is not a directory`;
    case 'EACCES':
    case 'EPERM':
      return `no permission to write ${path}`;
    case 'EROFS':
      return `${path} is on a read-only filesystem`;
    default:
      return `${path} cannot be written (${errnoOf(error)})`;
  }
}

/** invalid_arguments naming `field` (an option like `out`, or an environment variable). */
function pathError(field: string, path: string, problem: string, extra: Record<string, unknown> = {}): RelayError {
  const how = /^[A-Z_]+$/.test(field) ? `set ${field} to a directory you can write` : `pass a writable path to --${field}`;
  return new RelayError('invalid_arguments', `${field}: ${problem}; ${how}.`, { phase: 'cli', details: { field, path, ...extra } });
}

/**
 * mkdir -p without Node's procfs loop (see the header). Returns the directories it created, outermost
 * first, so install can record exactly those for uninstall. Throws the filesystem's error.
 */
export function makeDirs(dir: string, mode?: number): string[] {
  const missing: string[] = [];
  for (let current = resolve(dir); ; ) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(current).isDirectory();
    } catch (error) {
      const parent = dirname(current);
      if (errnoOf(error) !== 'ENOENT' || parent === current) throw error;
      missing.unshift(current);
      current = parent;
      continue;
    }
    if (!isDirectory) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: missing.length > 0 ? 'ENOTDIR' : 'EEXIST' });
    break;
  }
  const created: string[] = [];
  for (const path of missing) {
    try {
      mkdirSync(path, mode === undefined ? undefined : { mode });
      created.push(path);
    } catch (error) {
      // Made by someone else meanwhile: fine. Anything else — ENOENT included — is final.
      if (errnoOf(error) !== 'EEXIST' || !statSync(path).isDirectory()) throw error;
    }
  }
  return created;
}

/** makeDirs whose failure is invalid_arguments naming `field`. */
export function makeDirsFor(field: string, dir: string, mode?: number): string[] {
  try {
    return makeDirs(dir, mode);
  } catch (error) {
    throw pathError(field, dir, refusal(dir, error), { errno: errnoOf(error) });
  }
}

/**
 * makeDirsFor, and every directory of `dirs` that this user owns made 0700 — created that way, or tightened
 * when an older version left it 0755. chrome-relay's home, logs and default profile hold socket and profile
 * paths, cookies and history: nobody else on the machine may list them. (A directory someone else owns is
 * left alone; chmod would fail on it anyway.)
 */
export function makePrivateDirsFor(field: string, dirs: readonly string[]): void {
  for (const dir of dirs) {
    makeDirsFor(field, dir, 0o700);
    try {
      const stat = lstatSync(dir);
      if (stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    } catch (error) {
      throw pathError(field, dir, refusal(dir, error), { errno: errnoOf(error) });
    }
  }
}

/**
 * A file path the command will write after the browser answers: checked now, by opening it the way the
 * write will (creating it if new, then removing it again), so every refusal shows up before the call.
 * Returns the absolute path.
 */
export function checkOutFile(raw: string, field = 'out'): string {
  if (raw.trim() === '') throw pathError(field, raw, 'the path is empty');
  const path = resolve(raw);
  if (Buffer.byteLength(basename(path)) > NAME_MAX_BYTES) throw pathError(field, path, `the file name is longer than ${NAME_MAX_BYTES} bytes`);
  const dir = dirname(path);
  let dirIsDirectory: boolean;
  try {
    dirIsDirectory = statSync(dir).isDirectory();
  } catch (error) {
    throw pathError(field, path, errnoOf(error) === 'ENOENT' ? `the directory ${dir} does not exist` : refusal(dir, error), { errno: errnoOf(error) });
  }
  if (!dirIsDirectory) throw pathError(field, path, `${dir} is a file, not a directory`);
  let existed = true;
  try {
    statSync(path);
  } catch {
    existed = false;
  }
  try {
    // 'r+' on an existing file proves it writable without truncating it; a new one is created and removed.
    closeSync(openSync(path, existed ? 'r+' : 'wx'));
    if (!existed) unlinkSync(path);
  } catch (error) {
    throw pathError(field, path, refusal(path, error), { errno: errnoOf(error) });
  }
  return path;
}

/** A directory to write files into: created if missing and proven writable, before the call. */
export function prepareOutDir(raw: string, field = 'out'): string {
  if (raw.trim() === '') throw pathError(field, raw, 'the path is empty');
  const dir = resolve(raw);
  makeDirsFor(field, dir);
  const probe = join(dir, `.chrome-relay-${process.pid}.probe`);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (error) {
    throw pathError(field, dir, refusal(dir, error), { errno: errnoOf(error) });
  }
  return dir;
}

/** Write a checked path; a failure now (disk full, a race) is still the path's problem, not a bug. */
export function writeOutFile(path: string, data: Buffer | string, field = 'out'): void {
  try {
    writeFileSync(path, data);
  } catch (error) {
    throw pathError(field, path, refusal(path, error), { errno: errnoOf(error) });
  }
}
