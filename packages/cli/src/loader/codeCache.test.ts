import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheFile, cacheFileName, cachePlan, commandKey, decodeCache, encodeCache, MAX_COMMANDS, readCache, writeCache } from './codeCache.js';

const uid = process.getuid?.() ?? 0;
const scratch = (): string => mkdtempSync(join(tmpdir(), 'cr-codecache-'));
const where = (bundleDir: string, home: string, bundle = 'cli') => cacheFile({ bundleDir, home, bundle, bundleHash: 'abc123', nodeVersion: 'v20.20.2', arch: 'x64', uid });

describe('code cache file format', () => {
  it('round-trips the commands covered and V8 data', () => {
    const data = Buffer.from([0, 1, 2, 10, 255]);
    expect(decodeCache(encodeCache(['tabs', 'click'], data))).toEqual({ commands: ['tabs', 'click'], data });
  });

  it('refuses what is not one of its files', () => {
    expect(decodeCache(Buffer.from('not a cache'))).toBeUndefined();
    expect(decodeCache(Buffer.from('chrome-relay code cache 1\n{"commands": 3}\n'))).toBeUndefined();
    expect(decodeCache(Buffer.from('chrome-relay code cache 1\nno header end'))).toBeUndefined();
  });

  it('names the file after the bundle, Node version and architecture, with nothing a path could misread', () => {
    expect(cacheFileName('cli', 'abc123', 'v20.20.2', 'x64')).toBe('cli-abc123-v20.20.2-x64.cache');
    expect(cacheFileName('call', 'a/b', 'v1 ../x', 'x')).not.toMatch(/[/ ]/);
  });
});

describe('which runs write a cache', () => {
  it('writes when there is none or V8 rejected it, and when this command is not covered yet', () => {
    expect(cachePlan(undefined, false, 'tabs')).toEqual(['tabs']);
    expect(cachePlan({ commands: ['tabs'] }, true, 'click')).toEqual(['click']);
    expect(cachePlan({ commands: ['tabs'] }, false, 'click')).toEqual(['tabs', 'click']);
    expect(cachePlan({ commands: ['tabs', 'click'] }, false, 'click')).toBeUndefined();
  });

  it('stops growing at MAX_COMMANDS', () => {
    const full = Array.from({ length: MAX_COMMANDS }, (_, i) => `c${i}`);
    expect(cachePlan({ commands: full }, false, 'click')).toBeUndefined();
  });

  it('keys a run by its first command-like word', () => {
    expect(commandKey(['--tab', '5', 'click', '@e1'])).toBe('click');
    expect(commandKey(['record', 'start'])).toBe('record');
    expect(commandKey(['--json'])).toBe('');
  });
});

describe('where the cache lives', () => {
  it('next to the bundle when this user may write there', () => {
    const bundleDir = scratch();
    expect(where(bundleDir, scratch())).toEqual({ dir: bundleDir, path: join(bundleDir, 'cli-abc123-v20.20.2-x64.cache'), bundlePrefix: 'cli-abc123-', namePrefix: 'cli-' });
  });

  it('else in a private cache directory under the home', () => {
    // A directory this user cannot write to (one that cannot exist: under a file).
    const file = join(scratch(), 'file');
    writeFileSync(file, '');
    const bundleDir = join(file, 'dist');
    const home = scratch();
    const found = where(bundleDir, home);
    expect(found?.dir).toBe(join(home, 'cache'));
    expect(statSync(join(home, 'cache')).mode & 0o777).toBe(0o700);
  });

  it('never in a home cache directory others may write to', () => {
    const home = scratch();
    mkdirSync(join(home, 'cache'), { mode: 0o777 });
    chmodSync(join(home, 'cache'), 0o777);
    // The bundle's directory is not writable (a file stands in for it).
    const bundleDir = join(scratch(), 'file');
    writeFileSync(bundleDir, '');
    expect(cacheFile({ bundleDir: join(bundleDir, 'x'), home, bundle: 'cli', bundleHash: 'h', nodeVersion: 'v', arch: 'a', uid })).toBeUndefined();
  });
});

describe('reading and writing', () => {
  it('writes whole, reads back, and removes the caches of older builds of the same bundle (not of other Nodes or bundles)', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'cli-old-v20.20.2-x64.cache'), 'stale');
    writeFileSync(join(dir, 'cli-abc123-v22.0.0-x64.cache'), 'other node');
    writeFileSync(join(dir, 'call-fff-v20.20.2-x64.cache'), 'the fast bundle');
    writeFileSync(join(dir, 'cli.cjs'), 'the bundle');
    const file = where(dir, scratch());
    if (file === undefined) throw new Error('no cache place');
    writeCache(file, ['tabs'], Buffer.from([7, 8, 9]));
    expect(readCache(file)).toEqual({ commands: ['tabs'], data: Buffer.from([7, 8, 9]) });
    expect(readdirSync(dir).sort()).toEqual(['call-fff-v20.20.2-x64.cache', 'cli-abc123-v20.20.2-x64.cache', 'cli-abc123-v22.0.0-x64.cache', 'cli.cjs']);
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
  });

  it('reads nothing through a symlink, from a missing file or from a foreign one', () => {
    const dir = scratch();
    const file = where(dir, scratch());
    if (file === undefined) throw new Error('no cache place');
    expect(readCache(file)).toBeUndefined();
    const elsewhere = join(scratch(), 'planted.cache');
    writeFileSync(elsewhere, encodeCache(['tabs'], Buffer.from([1])));
    symlinkSync(elsewhere, file.path);
    expect(readCache(file)).toBeUndefined();
  });
});
