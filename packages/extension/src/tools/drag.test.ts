import { describe, expect, it } from 'vitest';
import { pastCentre } from './drag.js';

describe('pastCentre', () => {
  it('goes past the centre halfway on to the edge, along the way the pointer came', () => {
    // Straight down onto a 200×40 item centred at (100, 120): a quarter of its height past the centre.
    expect(pastCentre({ x: 100, y: 20 }, { x: 100, y: 120 }, { width: 200, height: 40 })).toEqual({ x: 100, y: 130 });
    // Up: above the centre.
    expect(pastCentre({ x: 100, y: 220 }, { x: 100, y: 120 }, { width: 200, height: 40 })).toEqual({ x: 100, y: 110 });
    // Sideways onto a column: a quarter of its width.
    expect(pastCentre({ x: 0, y: 50 }, { x: 100, y: 50 }, { width: 80, height: 300 })).toEqual({ x: 120, y: 50 });
  });

  it('stays inside the target on a diagonal: the nearer edge along the way bounds it', () => {
    const point = pastCentre({ x: 0, y: 0 }, { x: 100, y: 100 }, { width: 200, height: 20 });
    expect(point.y).toBeCloseTo(105);
    expect(point.x).toBeCloseTo(105);
  });

  it('keeps the centre when there is no way to go past it (no move, no size)', () => {
    expect(pastCentre({ x: 100, y: 120 }, { x: 100, y: 120 }, { width: 200, height: 40 })).toEqual({ x: 100, y: 120 });
    expect(pastCentre({ x: 0, y: 0 }, { x: 100, y: 120 }, { width: 0, height: 40 })).toEqual({ x: 100, y: 120 });
  });
});
