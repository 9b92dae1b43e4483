import { describe, expect, it } from 'vitest';
import type { BlockedLayout, Rect } from '../page/blockedBoxes.js';
import { MASK_FILL, outputSize, paintMasks, planMasks, type FillContext } from './captureMask.js';

const layout = (box: Rect, scroll = { x: 0, y: 0 }): BlockedLayout => ({ boxes: [{ rule: 'bank.test', origin: 'https://bank.test', box }], scroll });
const VIEWPORT = { x: 0, y: 0, width: 800, height: 600 };
const PNG = { cssToFrame: 1, jpeg: false };

/** Whether `inner` lies inside `outer`. */
const covers = (outer: Rect, inner: Rect): boolean =>
  outer.x <= inner.x && outer.y <= inner.y && outer.x + outer.width >= inner.x + inner.width && outer.y + outer.height >= inner.y + inner.height;

describe('planMasks', () => {
  it('covers the box padded (2 frame px + 1 output px), in whole pixels, and names it in CSS px of the capture', () => {
    const plan = planMasks([layout({ x: 100.4, y: 50.6, width: 200, height: 100 })], PNG, VIEWPORT, outputSize(VIEWPORT, 1, 1));
    expect(plan.rects).toEqual([{ x: 97, y: 47, width: 207, height: 107 }]);
    expect(plan.masked).toEqual([{ rule: 'bank.test', origin: 'https://bank.test', box: { x: 100, y: 50, width: 201, height: 101 } }]);
  });

  it('scales by the device pixel ratio and by --max-edge', () => {
    const dpr2 = planMasks([layout({ x: 100, y: 50, width: 200, height: 100 })], { cssToFrame: 2, jpeg: false }, VIEWPORT, outputSize(VIEWPORT, 2, 1));
    expect(covers(dpr2.rects[0] ?? VIEWPORT, { x: 200, y: 100, width: 400, height: 200 })).toBe(true);
    const half = planMasks([layout({ x: 100, y: 50, width: 200, height: 100 })], { cssToFrame: 2, jpeg: false }, VIEWPORT, outputSize(VIEWPORT, 2, 0.25));
    // 200×100 CSS px at dpr 2 is 400×200 frame px, a quarter of that in the image: 100×50, plus the padding.
    expect(half.rects).toEqual([{ x: 48, y: 23, width: 104, height: 54 }]);
    // What the agent is told stays in CSS px of the captured area.
    expect(half.masked[0]?.box).toEqual({ x: 100, y: 50, width: 200, height: 100 });
  });

  it('cuts to an element clip: relative to it, only the part inside', () => {
    const clip = { x: 80, y: 40, width: 100, height: 100 };
    const plan = planMasks([layout({ x: 100, y: 50, width: 200, height: 100 })], PNG, clip, outputSize(clip, 1, 1));
    expect(plan.rects).toEqual([{ x: 17, y: 7, width: 83, height: 93 }]);
    expect(plan.masked[0]?.box).toEqual({ x: 20, y: 10, width: 80, height: 90 });
    const away = planMasks([layout({ x: 400, y: 400, width: 10, height: 10 })], PNG, clip, outputSize(clip, 1, 1));
    expect(away).toEqual({ rects: [], masked: [] });
  });

  it('a frame drawn at another scroll: covered where the box was measured and where that scroll puts it', () => {
    const plan = planMasks([layout({ x: 0, y: 300, width: 100, height: 100 }, { x: 0, y: 500 })], { ...PNG, scroll: { x: 0, y: 400 } }, VIEWPORT, outputSize(VIEWPORT, 1, 1));
    expect(plan.rects.map((r) => r.y)).toEqual([297, 397]);
    expect(plan.masked[0]?.box).toEqual({ x: 0, y: 300, width: 100, height: 200 });
  });

  it('covers every measurement (before and after the frame), and snaps a JPEG frame to its 16 px blocks', () => {
    const plan = planMasks([layout({ x: 20, y: 20, width: 10, height: 10 }), undefined, layout({ x: 40, y: 20, width: 10, height: 10 })], { cssToFrame: 1, jpeg: true }, VIEWPORT, outputSize(VIEWPORT, 1, 1));
    // 20..30 padded to 18..32 is the block 16..32; 40..50 padded to 38..52 spans the blocks 32..64; then 1 px more.
    expect(plan.rects).toEqual([
      { x: 15, y: 15, width: 18, height: 18 },
      { x: 31, y: 15, width: 34, height: 18 },
    ]);
  });
});

describe('paintMasks', () => {
  it('fills each rectangle with the flat grey, fully opaque, over (never blended with) the picture', () => {
    const fills: unknown[] = [];
    const context: FillContext = {
      fillStyle: 'red',
      globalAlpha: 0.5,
      globalCompositeOperation: 'multiply',
      fillRect(x, y, width, height) {
        fills.push({ x, y, width, height, style: context.fillStyle, alpha: context.globalAlpha, op: context.globalCompositeOperation });
      },
    };
    paintMasks(context, [{ x: 1, y: 2, width: 3, height: 4 }]);
    expect(fills).toEqual([{ x: 1, y: 2, width: 3, height: 4, style: MASK_FILL, alpha: 1, op: 'source-over' }]);
  });
});
