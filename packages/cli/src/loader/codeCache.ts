/**
 * The V8 code cache of the CLI bundle. Compiling the bundle was the largest single cost of a CLI
 * start after Node's own (Node 20 has no `module.enableCompileCache`), and agents start the CLI once
 * per action. The loader (main.ts) compiles the bundle with this cache and, after the command ran,
 * writes one when there was none, V8 rejected it, or it lacks this command's code.
 *
 * Where: next to the bundle when this user may write there (a user-owned install, the repository's
 * build), else in <relay home>/cache. A cache holds code, so it is only read from a place no one
 * else can write to: the bundle's own directory (whoever can write there can already change the
 * bundle), or the home's cache directory when this user owns it and it is closed to group and others.
 * Files are written whole under a temporary name, then renamed, and readable by this user only.
 *
 * Which: the file name carries the bundle's content hash (from the build), Node's version and the
 * architecture, so a cache never meets another bundle; V8 itself also refuses a cache made by
 * another V8 or with other flags. A file of another bundle found in the same place is removed when
 * a new one is written.
 *
 * Growth: V8 caches the functions compiled by the time the cache is made, so the first run of each
 * command adds that command's code (the header lists the commands covered).
 *
 * Every failure here is silent: the CLI then compiles the bundle as it always did.
 */
import { accessSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MAGIC = 'chrome-relay code cache 1\n';

export interface CacheFile {
  /** Directory the cache lives in. */
  dir: string;
  /** Full path of this bundle's cache for this Node. */
  path: string;
  /** What the names of this bundle's caches (for any Node) start with: `cli-<hash>-`. */
  bundlePrefix: string;
  /** What the names of every cache of this bundle file start with (`cli-`): those of other hashes there are stale. */
  namePrefix: string;
}

/** At most this many commands are listed; past it, a new command no longer rewrites the cache. */
export const MAX_COMMANDS = 40;

const safe = (text: string): string => text.replace(/[^\w.]/g, '_');

/** Pure: the cache's file name for a bundle (`cli`, `call`), its hash, Node version and architecture. */
export function cacheFileName(bundle: string, bundleHash: string, nodeVersion: string, arch: string): string {
  return `${safe(bundle)}-${safe(bundleHash)}-${safe(nodeVersion)}-${safe(arch)}.cache`;
}

/**
 * Pure: which command a command line runs, as far as the cache cares (the first word that looks
 * like a command name; a misread only costs one more cache write), '' for none.
 */
export function commandKey(argv: readonly string[]): string {
  return argv.find((word) => /^[a-z][a-z-]*$/.test(word)) ?? '';
}

/** Pure: whether to (re)write the cache after this run, and the commands the new one covers. */
export function cachePlan(cached: { commands: readonly string[] } | undefined, rejected: boolean, key: string): string[] | undefined {
  if (cached === undefined || rejected) return [key];
  if (cached.commands.includes(key) || cached.commands.length >= MAX_COMMANDS) return undefined;
  return [...cached.commands, key];
}

/** Pure: the file's bytes: magic, the header (commands covered) as one JSON line, then V8's data. */
export function encodeCache(commands: readonly string[], data: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify({ commands })}\n`), data]);
}

/** Pure: the commands and V8 data of a cache file, or undefined when it is not one. */
export function decodeCache(bytes: Buffer): { commands: string[]; data: Buffer } | undefined {
  if (bytes.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) return undefined;
  const end = bytes.indexOf(0x0a, MAGIC.length);
  if (end < 0) return undefined;
  try {
    const header: unknown = JSON.parse(bytes.subarray(MAGIC.length, end).toString('utf8'));
    const commands = typeof header === 'object' && header !== null ? (header as { commands?: unknown }).commands : undefined;
    if (!Array.isArray(commands) || !commands.every((c): c is string => typeof c === 'string')) return undefined;
    return { commands, data: bytes.subarray(end + 1) };
  } catch {
    return undefined;
  }
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A directory this user owns that group and others cannot write to (created so if missing). */
function privateDir(dir: string, uid: number): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** Where this bundle's cache lives, or undefined when no place is safe (see the header). */
export function cacheFile(options: { bundleDir: string; home: string; bundle: string; bundleHash: string; nodeVersion: string; arch: string; uid: number | undefined }): CacheFile | undefined {
  const name = cacheFileName(options.bundle, options.bundleHash, options.nodeVersion, options.arch);
  const namePrefix = `${safe(options.bundle)}-`;
  const bundlePrefix = `${namePrefix}${safe(options.bundleHash)}-`;
  if (writable(options.bundleDir)) return { dir: options.bundleDir, path: join(options.bundleDir, name), bundlePrefix, namePrefix };
  if (options.uid === undefined) return undefined;
  const dir = join(options.home, 'cache');
  return privateDir(dir, options.uid) ? { dir, path: join(dir, name), bundlePrefix, namePrefix } : undefined;
}

/** The cache's contents, or undefined (missing, not a regular file, unreadable, malformed). */
export function readCache(file: CacheFile): { commands: string[]; data: Buffer } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return decodeCache(bytes.subarray(0, read));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Write the cache whole (temporary name, then rename) and remove the caches of other bundles there. */
export function writeCache(file: CacheFile, commands: readonly string[], data: Uint8Array): void {
  const temporary = `${file.path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, encodeCache(commands, data), { mode: 0o600 });
    renameSync(temporary, file.path);
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // Never written.
    }
    return;
  }
  try {
    for (const name of readdirSync(file.dir)) {
      if (name.startsWith(file.namePrefix) && name.endsWith('.cache') && !name.startsWith(file.bundlePrefix)) unlinkSync(join(file.dir, name));
    }
  } catch {
    // Another process may be doing the same; leftovers are harmless.
  }
}
