import { describe, expect, it } from 'vitest';
import { sample, stats } from './timing.js';

describe('stats', () => {
  it('takes the middle of an odd count and the mean of the two middles of an even one', () => {
    expect(stats([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, n: 3 });
    expect(stats([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4, n: 4 });
  });

  it('is not moved by one stalled run', () => {
    expect(stats([10, 11, 12, 10, 900]).median).toBe(11);
  });

  it('does not reorder the caller’s samples', () => {
    const xs = [3, 1, 2];
    stats(xs);
    expect(xs).toEqual([3, 1, 2]);
  });

  it('refuses no samples rather than printing NaN', () => {
    expect(() => stats([])).toThrow(/no samples/);
  });
});

describe('sample', () => {
  it('runs the warm-ups untimed, prepares before every run, and keeps only the timed runs', async () => {
    const calls: string[] = [];
    let next = 100;
    const result = await sample(
      { warmups: 2, runs: 3 },
      {
        prepare: async () => void calls.push('prepare'),
        run: async () => {
          calls.push('run');
          return next++;
        },
      },
    );
    expect(calls).toEqual(['prepare', 'run', 'prepare', 'run', 'prepare', 'run', 'prepare', 'run', 'prepare', 'run']);
    // The warm-ups returned 100 and 101: not in the figures.
    expect(result).toEqual({ median: 103, min: 102, max: 104, n: 3 });
  });
});
