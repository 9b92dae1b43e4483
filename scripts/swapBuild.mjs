// A build lands whole or not at all. scripts/build.mjs writes every bundle into a fresh sibling directory, then
// swapIn() renames it into place, so a suite running from the old build (CLI processes started per call, a browser
// whose extension was loaded from dist/extension) never finds a half-written or missing file for the ~1 s a build
// takes. Two renames: the old build aside, the new one in; between them (two system calls) the path does not exist.
// Node has no rename that exchanges two directories, and a symlinked dist would move the extension a browser loaded
// to a path a later build deletes.
//
// The V8 code caches the CLI writes next to its bundles (packages/cli/src/loader/codeCache.ts) are named by each
// bundle's content hash: the caches of a bundle this build left unchanged move into the new directory, so a rebuild
// in the middle of a suite does not cost every later call a compile. The others stay behind with the old build.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The bundles the loader runs with a code cache (cacheFileName: `<bundle>-<hash16>-<node>-<arch>.cache`). */
const CACHED_BUNDLES = ['cli', 'call', 'schemas'];

/** Where a build of `dist` is written before it is swapped in, and where the old one goes: siblings, same file system. */
export function stagingDirs(dist, pid = process.pid) {
  const parent = dirname(dist);
  const name = basename(dist);
  return { fresh: join(parent, `.${name}-new-${pid}`), old: join(parent, `.${name}-old-${pid}`) };
}

/** Leftovers of builds that died between writing and swapping (their pid is gone). */
export function sweepStaging(dist) {
  const parent = dirname(dist);
  const pattern = new RegExp(`^\\.${basename(dist).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(?:new|old)-(\\d+)$`);
  let names = [];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    rmSync(join(parent, name), { recursive: true, force: true });
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

const hash16 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);

/** Copy the code caches in `from` whose bundle is byte-identical in `to`; returns their names. */
export function carryCodeCaches(from, to) {
  const hashes = new Map();
  for (const bundle of CACHED_BUNDLES) {
    const file = join(to, `${bundle}.cjs`);
    if (existsSync(file)) hashes.set(bundle, hash16(file));
  }
  const carried = [];
  let names = [];
  try {
    names = readdirSync(from);
  } catch {
    return carried;
  }
  for (const name of names) {
    const match = /^([a-z]+)-([0-9a-f]{16})-.+\.cache$/.exec(name);
    if (match === null || hashes.get(match[1]) !== match[2]) continue;
    try {
      copyFileSync(join(from, name), join(to, name));
      carried.push(name);
    } catch {
      // A cache is an optimisation: the CLI writes a new one on its next start.
    }
  }
  return carried;
}

/** Put the complete build `fresh` at `dist`, then remove the old build. */
export function swapIn(fresh, dist, { old = stagingDirs(dist).old } = {}) {
  if (!existsSync(dist)) {
    renameSync(fresh, dist);
    return { carried: [] };
  }
  const carried = carryCodeCaches(dist, fresh);
  try {
    renameSync(dist, old);
  } catch (error) {
    // Windows refuses to rename a directory while a program has a file in it open: replace it the old way.
    if (error.code !== 'EPERM' && error.code !== 'EBUSY' && error.code !== 'EACCES') throw error;
    rmSync(dist, { recursive: true, force: true });
    renameSync(fresh, dist);
    return { carried };
  }
  renameSync(fresh, dist);
  // Nothing reaches the old build by its new name: processes and browsers name files by the dist path.
  rmSync(old, { recursive: true, force: true });
  return { carried };
}
