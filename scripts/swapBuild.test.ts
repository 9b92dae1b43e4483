/**
 * A rebuild does not pull the floor from a running suite: while `scripts/build.mjs` rebuilds a directory, the
 * previous build stays complete and runnable until the new one is swapped in whole, and the code caches of bundles
 * the rebuild left unchanged survive it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { carryCodeCaches, swapIn } from './swapBuild.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'cr-swap-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const swap = swapIn as (fresh: string, dist: string, options?: { old?: string }) => { carried: string[] };
const carry = carryCodeCaches as (from: string, to: string) => string[];
const hash16 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);

function build(out: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repo, 'scripts/build.mjs'), '--out', out], { stdio: 'ignore' });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

describe('swapIn', () => {
  it('puts the new build in place, carries only the caches of unchanged bundles, and leaves nothing behind', () => {
    const root = join(scratch, 'unit');
    const dist = join(root, 'dist');
    const fresh = join(root, 'fresh');
    for (const dir of [dist, fresh]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dist, 'cli.cjs'), 'same');
    writeFileSync(join(dist, 'call.cjs'), 'old call');
    writeFileSync(join(fresh, 'cli.cjs'), 'same');
    writeFileSync(join(fresh, 'call.cjs'), 'new call');
    const cliCache = `cli-${hash16(join(fresh, 'cli.cjs'))}-v20.0.0-x64.cache`;
    const oldCallCache = `call-${hash16(join(dist, 'call.cjs'))}-v20.0.0-x64.cache`;
    writeFileSync(join(dist, cliCache), 'cache');
    writeFileSync(join(dist, oldCallCache), 'cache');
    expect(swap(fresh, dist, { old: join(root, 'old') }).carried).toEqual([cliCache]);
    expect(readdirSync(dist).sort()).toEqual(['call.cjs', 'cli.cjs', cliCache].sort());
    expect(readFileSync(join(dist, 'call.cjs'), 'utf8')).toBe('new call');
    expect(readdirSync(root)).toEqual(['dist']);
    expect(carry(join(root, 'missing'), dist)).toEqual([]);
  });
});

describe('scripts/build.mjs', () => {
  it('keeps the previous build complete while it rebuilds, then swaps the new one in whole', async () => {
    const out = join(scratch, 'dist');
    expect(await build(out)).toBe(0);
    const cliCache = `cli-${hash16(join(out, 'cli.cjs'))}-v0.0.0-test.cache`;
    writeFileSync(join(out, cliCache), 'a cache of the unchanged bundle');
    writeFileSync(join(out, 'cli-0000000000000000-v0.0.0-test.cache'), 'a cache of another bundle');
    writeFileSync(join(out, 'marker'), 'the previous build');

    // What every CLI start and a browser's extension read. Polled every millisecond for the whole rebuild: a
    // build that clears the directory first leaves these missing for most of a second (hundreds of misses);
    // the swap leaves them missing for two renames, which one poll in a million lands in — at most one.
    const needed = ['chrome-relay.cjs', 'call.cjs', 'cli.cjs', 'schemas.cjs', 'mcp.cjs', 'host/host.mjs', 'extension/manifest.json', 'extension/background.js'].map((f) => join(out, f));
    let misses = 0;
    let polls = 0;
    let done = false;
    const finished = build(out).then((code) => {
      done = true;
      return code;
    });
    while (!done) {
      polls++;
      if (!needed.every((file) => existsSync(file))) misses++;
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(await finished).toBe(0);
    expect(polls).toBeGreaterThan(10);
    expect(misses).toBeLessThanOrEqual(1);
    expect(existsSync(join(out, 'marker'))).toBe(false);
    expect(existsSync(join(out, cliCache))).toBe(true);
    expect(existsSync(join(out, 'cli-0000000000000000-v0.0.0-test.cache'))).toBe(false);
    expect(readdirSync(scratch).filter((name) => name.startsWith('.dist-'))).toEqual([]);
  }, 120_000);
});
