import { describe, expect, it } from 'vitest';
import { sameSize } from './pointerDelivery.js';

describe('sameSize: has a frame’s layout caught up with its iframe?', () => {
  it('accepts sizes within a pixel of rounding', () => {
    expect(sameSize({ width: 420, height: 220 }, { width: 420, height: 220 })).toBe(true);
    expect(sameSize({ width: 420, height: 220 }, { width: 419.5, height: 220.75 })).toBe(true);
  });

  it('rejects a frame still laid out at another size (e.g. the 300×150 default before its iframe was sized)', () => {
    expect(sameSize({ width: 300, height: 150 }, { width: 420, height: 220 })).toBe(false);
    expect(sameSize({ width: 0, height: 0 }, { width: 420, height: 220 })).toBe(false);
  });
});
