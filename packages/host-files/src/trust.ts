/**
 * Whether chrome-relay's home (and its run dir) is this user's own, the way OpenSSH's StrictModes judges ~/.ssh:
 * what it holds decides where a CLI sends its requests (descriptors naming sockets), which program a browser starts
 * (the launcher), which processes `stop` ends and which files `uninstall` removes. A home another user made, or one
 * others can write — itself or through a folder above it that lets them rename it — may hold that user's
 * descriptor and socket: a CLI trusting it hands that user every request, `fill` values included.
 *
 * The rules (POSIX; on Windows the home is under the user's profile, private by its ACL, and uids mean nothing):
 * - the home and `<home>/run`, when they exist: directories (the home may be a link to one), owned by this user,
 *   not writable by others;
 * - every folder above them, along the path as written and along the real path: owned by this user or root, and not
 *   writable by others unless sticky (/tmp: others may not rename what is not theirs);
 * - a symbolic link on the way: owned by this user or root (its folder is judged as the next one up).
 * "Others" are every other user and the folder's group, unless that group is this user's own primary group (the
 * private group most systems give each user, whose home is then often group-writable). OpenSSH refuses a
 * group-writable home outright; this is the one place we are less strict, so as not to refuse those systems.
 * A home that does not exist yet is judged by the folders above it: that is where it would be made.
 */
import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export type HomeProblemKind = 'owner' | 'writable' | 'not_directory';

export interface HomeProblem {
  /** The path at fault: the home, its run dir, or a folder (or link) above them. */
  readonly path: string;
  readonly kind: HomeProblemKind;
  /** Its owner (uid). */
  readonly owner: number;
  /** Its permission bits (e.g. 0o777). */
  readonly mode: number;
  /** Whether it is the home or the run dir itself (else a folder above them). */
  readonly own: boolean;
}

export interface TrustFs {
  lstat(path: string): Stats | undefined;
  stat(path: string): Stats | undefined;
  realpath(path: string): string | undefined;
}

const quiet = <T>(run: () => T): T | undefined => {
  try {
    return run();
  } catch {
    return undefined;
  }
};

const realTrustFs: TrustFs = {
  lstat: (path) => quiet(() => lstatSync(path)),
  stat: (path) => quiet(() => statSync(path)),
  realpath: (path) => quiet(() => realpathSync(path)),
};

const STICKY = 0o1000;

/** Whether someone besides this user may write in it (see the header on the group). */
function writableByOthers(stats: Stats, gid: number | undefined): boolean {
  return (stats.mode & 0o002) !== 0 || ((stats.mode & 0o020) !== 0 && stats.gid !== gid);
}

function problem(path: string, kind: HomeProblemKind, stats: Stats, own: boolean): HomeProblem {
  return { path, kind, owner: stats.uid, mode: stats.mode & 0o7777, own };
}

/** The folders above `path`, nearest first, up to the root. */
function above(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    out.push(dir);
    if (dirname(dir) === dir) return out;
  }
}

/** A folder above the home: owned by us or root; writable by others only when sticky. A link: owned by us or root. */
function ancestorProblem(fs: TrustFs, path: string, uid: number, gid: number | undefined): HomeProblem | null {
  const link = fs.lstat(path);
  if (link === undefined) return null; // not made yet: judged by the folder above it
  if (link.uid !== uid && link.uid !== 0) return problem(path, 'owner', link, false);
  if (link.isSymbolicLink()) return null;
  if (writableByOthers(link, gid) && (link.mode & STICKY) === 0) return problem(path, 'writable', link, false);
  return null;
}

/** The home or its run dir: a directory of ours (the home may be a link of ours to one), closed to others' writes. */
function ownProblem(fs: TrustFs, path: string, uid: number, gid: number | undefined, mayLink: boolean): HomeProblem | null {
  const link = fs.lstat(path);
  if (link === undefined) return null;
  if (link.isSymbolicLink()) {
    if (!mayLink) return problem(path, 'not_directory', link, true);
    if (link.uid !== uid && link.uid !== 0) return problem(path, 'owner', link, true);
  }
  const stats = link.isSymbolicLink() ? fs.stat(path) : link;
  if (stats === undefined) return null; // a dangling link: nothing in it to trust
  if (!stats.isDirectory()) return problem(path, 'not_directory', stats, true);
  if (stats.uid !== uid) return problem(path, 'owner', stats, true);
  if (writableByOthers(stats, gid)) return problem(path, 'writable', stats, true);
  return null;
}

/** This process's user, for homeProblem (undefined on Windows). */
export function currentUser(): { uid: number; gid: number } | undefined {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  return uid === undefined || gid === undefined ? undefined : { uid, gid };
}

/** The first reason not to trust `home` (see the header), or null. `user` undefined (Windows): always null. */
export function homeProblem(home: string, user: { uid: number; gid?: number } | undefined, fs: TrustFs = realTrustFs): HomeProblem | null {
  if (user === undefined) return null;
  const { uid, gid } = user;
  const written = resolve(home);
  const real = fs.realpath(written);
  for (const [path, mayLink] of [[written, true], [join(written, 'run'), false]] as const) {
    const found = ownProblem(fs, path, uid, gid, mayLink);
    if (found !== null) return found;
  }
  const chains = new Set([...above(written), ...(real === undefined || real === written ? [] : above(real))]);
  for (const dir of chains) {
    const found = ancestorProblem(fs, dir, uid, gid);
    if (found !== null) return found;
  }
  return null;
}
