import { describe, expect, it } from 'vitest';
import { drawnAtScroll, noFrameError } from './screenshot.js';

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

describe('noFrameError', () => {
  it('is timeout/no_frame, saying whether frames came at another scroll, and from a recording or not', () => {
    const cases = [
      [noFrameError(3, 0, false), /^Tab 3 produced no frame to capture before the deadline; retry/, { tab: 3, framesAtOtherScroll: 0 }],
      [noFrameError(3, 2, false), /^Tab 3 drew no frame at the scroll the element was measured at/, { tab: 3, framesAtOtherScroll: 2 }],
      [noFrameError(3, 0, true), /^Tab 3 is being recorded but its screencast has shown no frame yet; retry/, { tab: 3, recording: true, framesAtOtherScroll: 0 }],
      [noFrameError(3, 1, true), /^Tab 3 is being recorded but drew no frame at the scroll the element was measured at/, { tab: 3, recording: true, framesAtOtherScroll: 1 }],
    ] as const;
    for (const [error, message, details] of cases) {
      expect(error).toMatchObject({ code: 'timeout', phase: 'act', details: { reason: 'no_frame', ...details } });
      expect(error.message).toMatch(message);
      expect(error.details).toEqual({ reason: 'no_frame', ...details });
    }
  });
});
