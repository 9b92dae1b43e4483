/**
 * The unpacked extension a person loads, in a folder of their own: `<home>/extension/current`. Chrome keeps
 * the path of an unpacked extension and reads its files from there, so that path must outlive what npm
 * does to the CLI's own files (a new Node version under nvm is a new prefix; `npm uninstall -g` deletes
 * it; an upgrade replaces it). The home is per user and per OS (the platform seam's defaultHome), so the
 * folder's place needs no rule of its own.
 *
 *   <home>/extension/<version>/   a copy of the extension this CLI ships, per version (the previous one is
 *                                 kept: a person can go back to it); `launch` loads this one
 *   <home>/extension/current/     a real directory, never a link (Chrome resolves links when it loads an
 *                                 extension and would keep the version's path): what `extension path`
 *                                 prints and the person loads; refreshed to this CLI's copy by install,
 *                                 setup, update and `extension path`
 *
 * Each copy carries a stamp (version and a hash of its files), so a folder already holding this build is
 * left alone and a development build of the same version still refreshes it. A copy is written beside
 * its place and renamed into it: a browser reading the folder meets the old files or the new ones.
 * After a refresh of `current` an extension already loaded from it runs the old code until it is
 * reloaded (chrome://extensions, or restarting the browser): update says so.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { HOME_ENV, RelayError } from '@chrome-relay/protocol';
import { makeDirs } from './outputFiles.js';
import { bundledExtensionDir } from './paths.js';

/** Inside each copy: the build it holds. Not a name Chrome reserves (those start with `_`). */
const STAMP = '.chrome-relay-build.json';

export interface ExtensionFolder {
  /** The stable folder to load in chrome://extensions. */
  path: string;
  /** The version this CLI ships, and its own folder (what `launch` loads). */
  version: string;
  versionPath: string;
  /** `current` now holds another build than before (an extension loaded from it needs a reload). */
  refreshed: boolean;
  /** The version `current` held before a refresh, when it held one. */
  previousVersion: string | null;
}

interface Stamp {
  version: string;
  hash: string;
}

const extensionRoot = (home: string): string => join(home, 'extension');
export const currentExtensionDir = (home: string): string => join(extensionRoot(home), 'current');

function filesOf(dir: string): string[] {
  const out: string[] = [];
  const visit = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile() && entry.name !== STAMP) out.push(relative(dir, path));
    }
  };
  visit(dir);
  return out.sort();
}

/** The build in `dir`: the manifest's version and a hash of every file (names and bytes). */
function stampOf(dir: string): Stamp {
  const hash = createHash('sha256');
  for (const file of filesOf(dir)) hash.update(`${file.replace(/\\/g, '/')}\0`).update(readFileSync(join(dir, file))).update('\0');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { version?: unknown };
  return { version: typeof manifest.version === 'string' ? manifest.version : '0.0.0', hash: hash.digest('hex').slice(0, 32) };
}

function readStamp(dir: string): Stamp | null {
  try {
    const value = JSON.parse(readFileSync(join(dir, STAMP), 'utf8')) as Partial<Stamp>;
    return typeof value.version === 'string' && typeof value.hash === 'string' ? { version: value.version, hash: value.hash } : null;
  } catch {
    return null;
  }
}

function copyTree(from: string, to: string): void {
  mkdirSync(to, { mode: 0o700 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) copyTree(join(from, entry.name), join(to, entry.name));
    else if (entry.isFile() && entry.name !== STAMP) copyFileSync(join(from, entry.name), join(to, entry.name));
  }
}

/** Put a copy of `source` stamped `stamp` at `target`, written beside it and renamed into place. */
function placeCopy(source: string, target: string, stamp: Stamp): void {
  const fresh = `${target}.new-${process.pid}`;
  const old = `${target}.old-${process.pid}`;
  rmSync(fresh, { recursive: true, force: true });
  copyTree(source, fresh);
  writeFileSync(join(fresh, STAMP), `${JSON.stringify(stamp)}\n`);
  if (!existsSync(target)) {
    renameSync(fresh, target);
    return;
  }
  try {
    renameSync(target, old);
  } catch {
    // Windows refuses to rename a folder a program has a file of open: replace it in place.
    rmSync(target, { recursive: true, force: true });
  }
  renameSync(fresh, target);
  rmSync(old, { recursive: true, force: true });
}

/** Version folders other than these two go: each holds a whole extension, and only the last two are of use. */
function pruneVersions(root: string, keep: readonly string[]): void {
  for (const name of readdirSync(root)) {
    if (name === 'current' || keep.includes(name)) continue;
    const path = join(root, name);
    // Only what this module wrote: a stamped copy, or a leftover of one it was writing.
    if (readStamp(path) !== null || /\.(?:new|old)-\d+$/.test(name)) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Make `<home>/extension/current` (and this version's folder) hold the extension this CLI ships.
 * `source`: the unpacked extension to copy (default: the one next to this CLI).
 */
export function installExtension(home: string, source: string = bundledExtensionDir()): ExtensionFolder {
  if (!existsSync(join(source, 'manifest.json'))) {
    throw new RelayError('internal_error', `The CLI package is incomplete: no extension at ${source}. Reinstall chrome-relay (or run \`node scripts/build.mjs\` in a checkout).`, {
      tool: 'extension',
      phase: 'cli',
      details: { missing: source },
    });
  }
  const root = extensionRoot(home);
  const stamp = stampOf(source);
  const versionPath = join(root, stamp.version);
  const current = currentExtensionDir(home);
  try {
    makeDirs(root, 0o700);
    const had = readStamp(versionPath);
    if (had?.hash !== stamp.hash) placeCopy(source, versionPath, stamp);
    const before = readStamp(current);
    const refreshed = before?.hash !== stamp.hash;
    if (refreshed) placeCopy(versionPath, current, stamp);
    pruneVersions(root, [stamp.version, ...(before === null ? [] : [before.version])]);
    return { path: current, version: stamp.version, versionPath, refreshed: refreshed && before !== null, previousVersion: before?.version ?? null };
  } catch (error) {
    if (error instanceof RelayError) throw error;
    throw new RelayError('invalid_arguments', `Cannot write the extension folder ${root}: ${(error as Error).message}. Point ${HOME_ENV} at a writable directory.`, {
      tool: 'extension',
      phase: 'act',
      details: { field: HOME_ENV, path: root },
    });
  }
}

/** `<home>/extension` when it holds folders this module wrote (uninstall removes it whole). */
export function installedExtensionRoot(home: string): string | null {
  const root = extensionRoot(home);
  try {
    if (!statSync(root).isDirectory()) return null;
    return readdirSync(root).some((name) => readStamp(join(root, name)) !== null) ? root : null;
  } catch {
    return null;
  }
}
