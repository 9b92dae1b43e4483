import { describe, expect, it } from 'vitest';
import { lazy } from './lazy.js';

describe('lazy', () => {
  it('builds on first use, once, and hands back the same value', () => {
    let builds = 0;
    const value = lazy(() => ({ n: ++builds }));
    expect(builds).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(builds).toBe(1);
  });
});
