import { describe, expect, it } from 'vitest';
import { drawnAtScroll } from './screenshot.js';

describe('an element screenshot takes a frame drawn at the scroll its box was measured at', () => {
  it('refuses a frame drawn before the element was scrolled into view', () => {
    expect(drawnAtScroll({ scrollOffsetX: 0, scrollOffsetY: 0 }, { x: 0, y: 2880 })).toBe(false);
    expect(drawnAtScroll({ scrollOffsetX: 0, scrollOffsetY: 2880 }, { x: 0, y: 2880 })).toBe(true);
  });

  it('allows a pixel of rounding, and takes any frame when no scroll is asked for or reported', () => {
    expect(drawnAtScroll({ scrollOffsetX: 10.5, scrollOffsetY: 2879.6 }, { x: 10, y: 2880 })).toBe(true);
    expect(drawnAtScroll({ scrollOffsetX: 0, scrollOffsetY: 100 }, undefined)).toBe(true);
    expect(drawnAtScroll({}, { x: 0, y: 2880 })).toBe(true);
  });
});
