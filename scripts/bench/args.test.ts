import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './args.js';

describe('parseBenchArgs', () => {
  it('defaults to chrome-relay only, 2 warm-ups and 10 runs, headless', () => {
    expect(parseBenchArgs([])).toEqual({ peers: false, quick: false, headful: false, help: false, chars: false, runs: 10, warmups: 2 });
    expect(parseBenchArgs(['--chars'])).toMatchObject({ chars: true });
  });

  it('reads --peers, --runs N, --runs=N and --warmups', () => {
    expect(parseBenchArgs(['--peers', '--runs', '5', '--warmups=0'])).toMatchObject({ peers: true, runs: 5, warmups: 0 });
    expect(parseBenchArgs(['--runs=7'])).toMatchObject({ runs: 7 });
  });

  it('--quick lowers the defaults but an explicit --runs wins', () => {
    expect(parseBenchArgs(['--quick'])).toMatchObject({ quick: true, runs: 3, warmups: 1 });
    expect(parseBenchArgs(['--quick', '--runs', '6'])).toMatchObject({ runs: 6, warmups: 1 });
  });

  it('keeps the old positional run count and BENCH_HEADFUL', () => {
    expect(parseBenchArgs(['20'])).toMatchObject({ runs: 20 });
    expect(parseBenchArgs([], { BENCH_HEADFUL: '1' })).toMatchObject({ headful: true });
  });

  it('names the bad argument', () => {
    expect(parseBenchArgs(['--runs', '0'])).toEqual({ error: '--runs needs a whole number ≥ 1, got 0' });
    expect(parseBenchArgs(['--runs'])).toEqual({ error: '--runs needs a whole number ≥ 1, got nothing' });
    expect(parseBenchArgs(['--warmups', 'x'])).toEqual({ error: '--warmups needs a whole number ≥ 0, got x' });
    expect(parseBenchArgs(['--peer'])).toEqual({ error: 'unknown argument --peer' });
  });
});
