import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutFile, makeDirs, makeDirsFor, makePrivateDirsFor, prepareOutDir, writeOutFile } from './outputFiles.js';
import { failureIn } from './testing/relayFailure.js';

let scratch = '';
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cr-out-'));
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const onLinux = existsSync('/proc/self');

describe('checkOutFile', () => {
  it('accepts a new file in an existing directory without leaving it behind, and an existing file untouched', () => {
    const path = join(scratch, 'shot.png');
    expect(checkOutFile(path)).toBe(path);
    expect(existsSync(path)).toBe(false);
    writeFileSync(path, 'keep');
    expect(checkOutFile(path)).toBe(path);
    expect(statSync(path).size).toBe(4);
  });

  it('refuses every unusable path as invalid_arguments naming out', () => {
    const file = join(scratch, 'file');
    writeFileSync(file, '');
    const cases: [string, RegExp][] = [
      ['', /empty/],
      ['   ', /empty/],
      [join(scratch, 'missing', 'x.png'), /does not exist/],
      [join(scratch, `${'n'.repeat(300)}.png`), /longer than 255 bytes/],
      [join(file, 'x.png'), /is a file, not a directory/],
      [scratch, /is a directory/],
      ...(onLinux ? ([['/proc/chrome-relay-x', /cannot be created there/]] as [string, RegExp][]) : []),
    ];
    for (const [raw, message] of cases) {
      const error = failureIn(() => checkOutFile(raw));
      expect(error.toData(), raw).toMatchObject({ code: 'invalid_arguments', phase: 'cli', details: { field: 'out' } });
      expect(error.message, raw).toMatch(message);
      expect(error.message.split('\n'), raw).toHaveLength(1);
    }
  });
});

describe('prepareOutDir and makeDirs', () => {
  it('creates missing levels, reports them outermost first, and proves the directory writable', () => {
    const dir = join(scratch, 'a', 'b');
    expect(makeDirs(dir, 0o700)).toEqual([join(scratch, 'a'), dir]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(makeDirs(dir)).toEqual([]);
    expect(prepareOutDir(join(scratch, 'c'))).toBe(join(scratch, 'c'));
    expect(readdirSync(join(scratch, 'c'))).toEqual([]);
  });

  it('fails fast (never loops) where Node recursive mkdir spins: procfs and dangling symlinks', () => {
    const dangling = join(scratch, 'dangling');
    symlinkSync(join(scratch, 'nowhere'), dangling);
    const started = Date.now();
    expect(failureIn(() => prepareOutDir(join(dangling, 'frames'))).details).toMatchObject({ field: 'out' });
    if (onLinux) expect(failureIn(() => prepareOutDir('/proc/chrome-relay-x/frames')).details).toMatchObject({ field: 'out', errno: 'ENOENT' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('names the field it was given: an option or an environment variable', () => {
    const file = join(scratch, 'file');
    writeFileSync(file, '');
    expect(failureIn(() => makeDirsFor('user-data-dir', join(file, 'p'))).message).toMatch(/^user-data-dir: .*--user-data-dir/);
    expect(failureIn(() => makeDirsFor('CHROME_RELAY_HOME', file)).message).toMatch(/^CHROME_RELAY_HOME: .*set CHROME_RELAY_HOME/);
    expect(failureIn(() => prepareOutDir('')).message).toMatch(/empty/);
  });

  it('a write that fails after the check is still the path\'s problem, not internal_error', () => {
    const dir = join(scratch, 'gone');
    mkdirSync(dir);
    rmSync(dir, { recursive: true });
    expect(failureIn(() => writeOutFile(join(dir, 'x'), 'data')).toData()).toMatchObject({ code: 'invalid_arguments', details: { field: 'out' } });
  });
});

describe('makePrivateDirsFor', () => {
  it('makes the home, its logs and the default profile 0700, tightening ones an older version left 0755', () => {
    const home = join(scratch, 'home');
    mkdirSync(home, { mode: 0o755 });
    chmodSync(home, 0o755);
    const profile = join(home, 'profiles', 'default');
    makePrivateDirsFor('CHROME_RELAY_HOME', [home, join(home, 'profiles'), profile, join(home, 'logs')]);
    for (const dir of [home, join(home, 'profiles'), profile, join(home, 'logs')]) expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('names the field when a directory cannot be made', () => {
    writeFileSync(join(scratch, 'file'), '');
    expect(failureIn(() => makePrivateDirsFor('CHROME_RELAY_HOME', [join(scratch, 'file', 'logs')])).details).toMatchObject({ field: 'CHROME_RELAY_HOME' });
  });
});
