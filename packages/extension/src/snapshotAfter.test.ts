import { describe, expect, it } from 'vitest';
import { QUIET_LIMIT_MS, QUIET_MS, ROUTE_LIMIT_MS, stillSettling } from './snapshotAfter.js';

const at = (now: number, mutation: number, route: number) => ({ now, mutation, route });

describe('a snapshot after an action waits for the view the action produced', () => {
  it('a route newer than the last change of elements waits for the view to be drawn, within a bound', () => {
    const start = at(1000, 500, 900);
    expect(stillSettling(start, at(1100, 500, 900), 100)).toBe(true);
    expect(stillSettling(start, at(1000 + ROUTE_LIMIT_MS, 500, 900), ROUTE_LIMIT_MS)).toBe(false);
  });

  it('once drawn, it waits for elements to stop changing, within a bound', () => {
    const start = at(1000, 500, 900);
    expect(stillSettling(start, at(1210, 1200, 900), 210)).toBe(true);
    expect(stillSettling(start, at(1200 + QUIET_MS, 1200, 900), 250)).toBe(false);
  });

  it('a page that changed nothing lately is snapshotted at once; one that never stops changing, after the bound', () => {
    expect(stillSettling(at(1000, 100, -1), at(1000, 100, -1), 0)).toBe(false);
    expect(stillSettling(at(1000, -1, -1), at(1000, -1, -1), 0)).toBe(false);
    expect(stillSettling(at(1000, 995, -1), at(1000, 995, -1), 0)).toBe(true);
    expect(stillSettling(at(1000, 995, -1), at(3000, 2995, -1), QUIET_LIMIT_MS)).toBe(false);
  });
});
