import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { descriptorPath, ensurePrivateDir, MAX_SOCKET_PATH_BYTES, prepareSocketPath, preferredSocketPath, removeOwnSocketDir, resolveHome, runDir } from './paths.js';

const uid = process.getuid?.() ?? 0;
let scratch = '';
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cr-paths-'));
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('paths', () => {
  it('uses CHROME_RELAY_HOME when set (absolute), else ~/.chrome-relay', () => {
    expect(resolveHome({ CHROME_RELAY_HOME: '/x/y' }, '/home/u')).toBe('/x/y');
    expect(resolveHome({ CHROME_RELAY_HOME: '' }, '/home/u')).toBe('/home/u/.chrome-relay');
    expect(resolveHome({}, '/home/u')).toBe('/home/u/.chrome-relay');
    expect(resolveHome({ CHROME_RELAY_HOME: 'rel' }, '/home/u')).toBe(join(process.cwd(), 'rel'));
  });

  it('lays out the run dir as <home>/run/host-<pid>.{json,sock}', () => {
    const run = runDir('/h');
    expect(run).toBe('/h/run');
    expect(descriptorPath(run, 12)).toBe('/h/run/host-12.json');
    expect(preferredSocketPath(run, 12)).toBe('/h/run/host-12.sock');
    expect(prepareSocketPath(run, 12, uid, {}, scratch)).toEqual({ path: '/h/run/host-12.sock', ownDir: null });
  });

  describe('when the socket beside the descriptor would overflow sun_path', () => {
    const longRun = runDir(`/${'d'.repeat(90)}`);

    it('makes a fresh private directory nobody else can have made, one per host, and removes it after', () => {
      const a = prepareSocketPath(longRun, 12, uid, {}, scratch);
      const b = prepareSocketPath(longRun, 12, uid, {}, scratch);
      expect(a.ownDir).not.toBeNull();
      expect(a.ownDir).not.toBe(b.ownDir);
      expect(dirname(a.path)).toBe(a.ownDir);
      expect(Buffer.byteLength(a.path)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
      expect(statSync(a.ownDir ?? '').mode & 0o777).toBe(0o700);
      expect(removeOwnSocketDir(a.ownDir ?? '', uid, scratch)).toBe(true);
      expect(existsSync(a.ownDir ?? '')).toBe(false);
      // Only our own prefix, directly under the root: never an arbitrary path from a descriptor.
      expect(removeOwnSocketDir(join(scratch, 'elsewhere'), uid, scratch)).toBe(false);
      expect(removeOwnSocketDir(b.ownDir ?? '', uid + 1, scratch)).toBe(false);
    });

    it('starts even when another user pre-created the old predictable /tmp/chrome-relay-<uid>', () => {
      const squatted = join(scratch, `chrome-relay-${uid}`);
      mkdirSync(squatted, { mode: 0o777 });
      const location = prepareSocketPath(longRun, 12, uid, {}, scratch);
      expect(dirname(location.path)).not.toBe(squatted);
      expect(readdirSync(squatted)).toEqual([]);
    });

    it('prefers a private XDG_RUNTIME_DIR, and ignores one that is not private or not ours', () => {
      const runtime = join(scratch, 'xdg');
      mkdirSync(runtime, { mode: 0o700 });
      chmodSync(runtime, 0o700);
      const location = prepareSocketPath(longRun, 12, uid, { XDG_RUNTIME_DIR: runtime }, scratch);
      expect(location).toEqual({ path: expect.stringMatching(new RegExp(`^${runtime}/chrome-relay/[0-9a-f]{16}\\.sock$`)), ownDir: null });
      expect(statSync(join(runtime, 'chrome-relay')).mode & 0o777).toBe(0o700);
      chmodSync(runtime, 0o755);
      expect(prepareSocketPath(longRun, 12, uid, { XDG_RUNTIME_DIR: runtime }, scratch).ownDir).not.toBeNull();
      expect(prepareSocketPath(longRun, 12, uid, { XDG_RUNTIME_DIR: 'relative' }, scratch).ownDir).not.toBeNull();
    });

    it('fails naming the fix when no short path fits either', () => {
      expect(() => prepareSocketPath(longRun, 12, uid, {}, `/${'r'.repeat(95)}`)).toThrow(/CHROME_RELAY_HOME/);
    });
  });

  it('creates private dirs as 0700 and tightens an existing one', () => {
    const dir = join(scratch, 'a', 'run');
    ensurePrivateDir(dir, uid);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    chmodSync(dir, 0o755);
    ensurePrivateDir(dir, uid);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a symlinked or foreign private dir', () => {
    const real = join(scratch, 'real');
    mkdirSync(real);
    const link = join(scratch, 'link');
    symlinkSync(real, link);
    expect(() => ensurePrivateDir(link, uid)).toThrow(/not a directory/);
    expect(() => ensurePrivateDir(real, uid + 1)).toThrow(/belongs to uid/);
  });

  // Node's recursive mkdir spins forever on these; the walk here fails at once.
  it.runIf(existsSync('/proc/self'))('fails fast where a directory cannot be made (procfs, a dangling symlink)', () => {
    expect(() => ensurePrivateDir('/proc/chrome-relay-test/run', uid)).toThrow(/ENOENT/);
    const dangling = join(scratch, 'dangling');
    symlinkSync(join(scratch, 'nowhere'), dangling);
    expect(() => ensurePrivateDir(join(dangling, 'run'), uid)).toThrow(/ENOENT|EEXIST/);
  });
});
