import { describe, expect, it } from 'vitest';
import { createRng } from './prng.js';

describe('createRng', () => {
  it('is reproducible from its seed, and forks are independent of the parent\'s draws', () => {
    const draws = (seed: number) => Array.from({ length: 5 }, ((rng) => () => rng.int(0, 1000))(createRng(seed)));
    expect(draws(42)).toEqual(draws(42));
    expect(draws(42)).not.toEqual(draws(43));
    const a = createRng(7);
    const b = createRng(7);
    a.next();
    expect(a.fork('argv').next()).toBe(b.fork('argv').next());
    expect(a.fork('argv').next()).not.toBe(a.fork('socket').next());
  });

  it('draws within bounds', () => {
    const rng = createRng(1);
    for (let i = 0; i < 1000; i++) {
      const n = rng.int(-3, 3);
      expect(n).toBeGreaterThanOrEqual(-3);
      expect(n).toBeLessThanOrEqual(3);
    }
    expect(() => rng.pick([])).toThrow();
  });
});
