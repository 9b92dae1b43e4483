import { describe, expect, it } from 'vitest';
import { PAST_CENTRE_PX, pastCentre } from './drag.js';

describe('pastCentre', () => {
  it('goes just past the centre, a quarter of the way on to the edge, along the way the pointer came', () => {
    // Straight down onto a 200×24 item centred at (100, 120): 3 px past the centre.
    expect(pastCentre({ x: 100, y: 20 }, { x: 100, y: 120 }, { width: 200, height: 24 })).toEqual({ x: 100, y: 123 });
    // Up: above the centre.
    expect(pastCentre({ x: 100, y: 220 }, { x: 100, y: 120 }, { width: 200, height: 24 })).toEqual({ x: 100, y: 117 });
    // Sideways onto a narrow column: a quarter of its half width.
    expect(pastCentre({ x: 0, y: 50 }, { x: 100, y: 50 }, { width: 16, height: 300 })).toEqual({ x: 102, y: 50 });
  });

  it('never more than PAST_CENTRE_PX past it: a box dropped into a big one still lands near its middle', () => {
    expect(pastCentre({ x: 100, y: 0 }, { x: 100, y: 300 }, { width: 400, height: 400 })).toEqual({ x: 100, y: 300 + PAST_CENTRE_PX });
    const diagonal = pastCentre({ x: 0, y: 0 }, { x: 100, y: 100 }, { width: 58, height: 58 });
    expect(Math.hypot(diagonal.x - 100, diagonal.y - 100)).toBeCloseTo(Math.min(29 * Math.SQRT2 / 4, PAST_CENTRE_PX));
  });

  it('keeps the centre when there is no way to go past it (no move, no size)', () => {
    expect(pastCentre({ x: 100, y: 120 }, { x: 100, y: 120 }, { width: 200, height: 40 })).toEqual({ x: 100, y: 120 });
    expect(pastCentre({ x: 0, y: 0 }, { x: 100, y: 120 }, { width: 0, height: 40 })).toEqual({ x: 100, y: 120 });
  });
});
