import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { descriptorPath, ensurePrivateDir, MAX_SOCKET_PATH_BYTES, resolveHome, runDir, shortSocketDir, socketPath } from './paths.js';

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
    expect(socketPath(run, 12, 1000)).toBe('/h/run/host-12.sock');
  });

  it('moves the socket to a short, stable, per-home path when sun_path would overflow', () => {
    const longRun = runDir(`/${'d'.repeat(90)}`);
    const path = socketPath(longRun, 12, 1000);
    expect(dirname(path)).toBe('/tmp/chrome-relay-1000');
    expect(path).toMatch(/^\/tmp\/chrome-relay-1000\/[0-9a-f]{16}\.sock$/);
    expect(Buffer.byteLength(path)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    expect(socketPath(longRun, 12, 1000)).toBe(path);
    expect(socketPath(longRun, 13, 1000)).not.toBe(path);
    expect(socketPath(runDir(`/${'e'.repeat(90)}`), 12, 1000)).not.toBe(path);
  });

  it('creates private dirs as 0700 and tightens an existing one', () => {
    const dir = join(scratch, 'a', 'run');
    ensurePrivateDir(dir, uid);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    chmodSync(dir, 0o755);
    ensurePrivateDir(dir, uid);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(shortSocketDir(5, scratch)).toBe(join(scratch, 'chrome-relay-5'));
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
