import type { Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { homeProblem, type TrustFs } from './trust.js';

interface Entry {
  uid: number;
  gid?: number;
  mode: number;
  kind?: 'dir' | 'file' | 'link';
  to?: string;
}

/** A file system of a few paths; every other path does not exist. `/` and `/tmp` as on Linux. */
function fakeFs(entries: Record<string, Entry>): TrustFs {
  const all: Record<string, Entry> = { '/': { uid: 0, mode: 0o755 }, '/tmp': { uid: 0, mode: 0o1777 }, '/home': { uid: 0, mode: 0o755 }, ...entries };
  const stats = (entry: Entry, followed: boolean): Stats =>
    ({
      uid: entry.uid,
      gid: entry.gid ?? entry.uid,
      mode: entry.mode,
      isDirectory: () => (entry.kind ?? 'dir') === 'dir',
      isSymbolicLink: () => !followed && entry.kind === 'link',
    }) as Stats;
  const follow = (path: string): string => {
    const entry = all[path];
    return entry?.kind === 'link' && entry.to !== undefined ? follow(entry.to) : path;
  };
  return {
    lstat: (path) => (all[path] === undefined ? undefined : stats(all[path], false)),
    stat: (path) => {
      const target = all[follow(path)];
      return target === undefined ? undefined : stats(target, true);
    },
    realpath: (path) => (all[path] === undefined ? undefined : follow(path)),
  };
}

const ME = { uid: 1000, gid: 1000 };
const OTHER = 1001;

describe('homeProblem: a home this user may trust, as OpenSSH judges ~/.ssh', () => {
  it('trusts a private home of its own, under /tmp (sticky) or a home folder, made or not yet', () => {
    expect(homeProblem('/home/me/.chrome-relay', ME, fakeFs({ '/home/me': { uid: 1000, mode: 0o755 }, '/home/me/.chrome-relay': { uid: 1000, mode: 0o700 }, '/home/me/.chrome-relay/run': { uid: 1000, mode: 0o700 } }))).toBeNull();
    expect(homeProblem('/tmp/cr/home', ME, fakeFs({ '/tmp/cr': { uid: 1000, mode: 0o700 } }))).toBeNull();
    // A home folder writable by the user's own private group (most distributions give each user one).
    expect(homeProblem('/home/me/.chrome-relay', ME, fakeFs({ '/home/me': { uid: 1000, gid: 1000, mode: 0o775 } }))).toBeNull();
    expect(homeProblem('/anything', undefined, fakeFs({}))).toBeNull();
  });

  it("refuses a home, or a run dir, another user made (a planted descriptor and socket)", () => {
    const shared = { '/tmp/shared': { uid: 0, mode: 0o1777 } };
    expect(homeProblem('/tmp/shared/home', ME, fakeFs({ ...shared, '/tmp/shared/home': { uid: OTHER, mode: 0o777 } }))).toMatchObject({ path: '/tmp/shared/home', kind: 'owner', owner: OTHER, own: true });
    expect(homeProblem('/tmp/shared/home', ME, fakeFs({ ...shared, '/tmp/shared/home': { uid: 1000, mode: 0o700 }, '/tmp/shared/home/run': { uid: OTHER, mode: 0o700 } }))).toMatchObject({ path: '/tmp/shared/home/run', kind: 'owner' });
  });

  it('refuses a home others can write, or that sits where others can rename it', () => {
    expect(homeProblem('/tmp/h', ME, fakeFs({ '/tmp/h': { uid: 1000, mode: 0o777 } }))).toMatchObject({ path: '/tmp/h', kind: 'writable', mode: 0o777 });
    expect(homeProblem('/tmp/h', ME, fakeFs({ '/tmp/h': { uid: 1000, gid: 50, mode: 0o770 } }))).toMatchObject({ kind: 'writable' });
    // A world-writable folder without the sticky bit: anyone may swap the home for theirs.
    expect(homeProblem('/srv/drop/home', ME, fakeFs({ '/srv': { uid: 0, mode: 0o755 }, '/srv/drop': { uid: 0, mode: 0o777 }, '/srv/drop/home': { uid: 1000, mode: 0o700 } }))).toMatchObject({ path: '/srv/drop', kind: 'writable', own: false });
    // A folder above owned by another user: they may rename the home.
    expect(homeProblem('/home/bob/x/home', ME, fakeFs({ '/home/bob': { uid: OTHER, mode: 0o755 }, '/home/bob/x': { uid: 1000, mode: 0o755 } }))).toMatchObject({ path: '/home/bob', kind: 'owner', own: false });
    // Not made yet, but it would be made in such a folder.
    expect(homeProblem('/srv/drop/new', ME, fakeFs({ '/srv': { uid: 0, mode: 0o755 }, '/srv/drop': { uid: 0, mode: 0o777 } }))).toMatchObject({ path: '/srv/drop', kind: 'writable' });
  });

  it('follows a link of its own to a private home, and judges the real path too; refuses a link another user owns or a run link', () => {
    const base = { '/data': { uid: 0, mode: 0o755 }, '/data/me': { uid: 1000, mode: 0o700 }, '/home/me': { uid: 1000, mode: 0o755 } };
    expect(homeProblem('/home/me/cr', ME, fakeFs({ ...base, '/home/me/cr': { uid: 1000, mode: 0o777, kind: 'link', to: '/data/me' } }))).toBeNull();
    expect(homeProblem('/home/me/cr', ME, fakeFs({ ...base, '/home/me/cr': { uid: OTHER, mode: 0o777, kind: 'link', to: '/data/me' } }))).toMatchObject({ kind: 'owner', owner: OTHER });
    expect(homeProblem('/home/me/cr', ME, fakeFs({ ...base, '/data': { uid: 0, mode: 0o777 }, '/home/me/cr': { uid: 1000, mode: 0o777, kind: 'link', to: '/data/me' } }))).toMatchObject({ path: '/data', kind: 'writable' });
    expect(homeProblem('/data/me', ME, fakeFs({ ...base, '/data/me/run': { uid: 1000, mode: 0o777, kind: 'link', to: '/tmp' } }))).toMatchObject({ path: '/data/me/run', kind: 'not_directory' });
    expect(homeProblem('/data/f', ME, fakeFs({ ...base, '/data/f': { uid: 1000, mode: 0o600, kind: 'file' } }))).toMatchObject({ kind: 'not_directory' });
  });
});
