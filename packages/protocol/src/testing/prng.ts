/**
 * A small seeded PRNG (mulberry32) and the draws the seeded tests make with it: the torture suite, whose every
 * generated input comes from one seed printed at the start (a failing run is reproduced with `pnpm test:torture
 * --seed N`), seeded e2e models and property tests. Test code only (not exported from the package index); it lives
 * at the bottom layer so that packages' tests, e2e/ and scripts/ all reach it by importing downwards.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  int(min: number, maxInclusive: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A fresh generator derived from this one and `label`: phases draw independently of each other's counts. */
  fork(label: string): Rng;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
    fork: (label) => createRng(hash(`${seed}:${label}`)),
  };
  return rng;
}

/** FNV-1a, 32 bits. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
