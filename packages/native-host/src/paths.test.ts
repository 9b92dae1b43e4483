import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { descriptorPath, ensurePrivateDir, preferredSocketPath, resolveHome, runDir } from './paths.js';

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
