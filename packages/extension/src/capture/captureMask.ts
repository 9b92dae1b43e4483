/**
 * Pure: where to paint over the frames that show a blocked site (page/blockedBoxes.ts measures them) in an image
 * made from a screencast frame, and what to tell the agent about it. Every image chrome-relay hands out of a tab
 * goes through here when the person blocks any site: screenshots (viewport, full page, element) and recordings.
 *
 * Why the areas are generous:
 * - A box is measured just before and just after the frame was drawn (the caller passes both): an iframe that
 *   moved in between is covered at both places. A frame drawn at another page scroll than a measurement is
 *   covered at the box's place for both scrolls (a fixed-position iframe does not move with the scroll, others do).
 * - Scaling and anti-aliasing smear an edge over a pixel: the area grows by 2 px of the frame, then by 1 px of
 *   the output, and is snapped outward to whole pixels (a fractional edge would be blended, not covered).
 * - A JPEG frame (recordings) carries each 16×16 block's content into all of its pixels (DCT ringing, chroma
 *   subsampling): the area is snapped outward to that grid of the frame, so no block that held blocked pixels
 *   survives.
 */
import type { BlockedBox, BlockedLayout, Rect } from '../page/blockedBoxes.js';
import { intersect } from '../page/blockedBoxes.js';

/** The flat fill: opaque mid grey, nothing of the original pixels. */
export const MASK_FILL = 'rgb(128, 128, 128)';
const JPEG_BLOCK = 16;
const FRAME_PAD = 2;
const OUTPUT_PAD = 1;

/** How a screencast frame maps the page's viewport. */
export interface FrameGeometry {
  /** CSS px → frame px. */
  cssToFrame: number;
  /** The page scroll (CSS px) the frame was drawn at, when the screencast said. */
  scroll?: { x: number; y: number };
  /** The frame is a JPEG (its blocks carry content past a box's edge). */
  jpeg: boolean;
}

/** What the agent is told: each blocked area the image shows, in CSS px of the captured area. */
export type MaskedArea = Omit<BlockedBox, 'box'> & { box: Rect };

export interface MaskPlan {
  /** Output pixels to fill, whole pixels inside the image. */
  rects: Rect[];
  masked: MaskedArea[];
}

/** The places a measured box may appear at in a frame drawn at `scroll` (see the header). */
function placesOf(box: Rect, measuredAt: { x: number; y: number }, scroll: FrameGeometry['scroll']): Rect[] {
  if (scroll === undefined || (Math.abs(scroll.x - measuredAt.x) <= 1 && Math.abs(scroll.y - measuredAt.y) <= 1)) return [box];
  return [box, { ...box, x: box.x + measuredAt.x - scroll.x, y: box.y + measuredAt.y - scroll.y }];
}

function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/** Pure: the output size of `clip` (CSS px) cut from a frame at `cssToFrame` and scaled by `scale`. */
export function outputSize(clip: Rect, cssToFrame: number, scale: number): { width: number; height: number } {
  return { width: Math.max(1, Math.round(clip.width * cssToFrame * scale)), height: Math.max(1, Math.round(clip.height * cssToFrame * scale)) };
}

/**
 * Pure: the rectangles to fill in an image of `clip` (CSS px of the frame's viewport) cut from `frame` and drawn at
 * `out` size, for every box of every measurement; and the areas to name (one per blocked frame the image shows).
 */
export function planMasks(layouts: readonly (BlockedLayout | undefined)[], frame: FrameGeometry, clip: Rect, out: { width: number; height: number }): MaskPlan {
  const k = frame.cssToFrame;
  const sx = out.width / (clip.width * k);
  const sy = out.height / (clip.height * k);
  const rects: Rect[] = [];
  const named = new Map<string, MaskedArea>();
  for (const layout of layouts) {
    for (const blocked of layout?.boxes ?? []) {
      for (const place of placesOf(blocked.box, layout?.scroll ?? { x: 0, y: 0 }, frame.scroll)) {
        let x0 = place.x * k - FRAME_PAD;
        let y0 = place.y * k - FRAME_PAD;
        let x1 = (place.x + place.width) * k + FRAME_PAD;
        let y1 = (place.y + place.height) * k + FRAME_PAD;
        if (frame.jpeg) {
          [x0, y0] = [Math.floor(x0 / JPEG_BLOCK) * JPEG_BLOCK, Math.floor(y0 / JPEG_BLOCK) * JPEG_BLOCK];
          [x1, y1] = [Math.ceil(x1 / JPEG_BLOCK) * JPEG_BLOCK, Math.ceil(y1 / JPEG_BLOCK) * JPEG_BLOCK];
        }
        const left = Math.max(0, Math.floor((x0 - clip.x * k) * sx) - OUTPUT_PAD);
        const top = Math.max(0, Math.floor((y0 - clip.y * k) * sy) - OUTPUT_PAD);
        const right = Math.min(out.width, Math.ceil((x1 - clip.x * k) * sx) + OUTPUT_PAD);
        const bottom = Math.min(out.height, Math.ceil((y1 - clip.y * k) * sy) + OUTPUT_PAD);
        if (right <= left || bottom <= top) continue;
        // The same box measured before and after the frame: fill it once.
        const rect = { x: left, y: top, width: right - left, height: bottom - top };
        if (!rects.some((r) => r.x === rect.x && r.y === rect.y && r.width === rect.width && r.height === rect.height)) rects.push(rect);
        const seen = intersect(place, clip);
        if (seen.width <= 0 || seen.height <= 0) continue;
        const box = { x: seen.x - clip.x, y: seen.y - clip.y, width: seen.width, height: seen.height };
        const key = `${blocked.rule}\n${blocked.origin}\n${JSON.stringify(blocked.box)}`;
        const before = named.get(key);
        named.set(key, { rule: blocked.rule, origin: blocked.origin, box: before === undefined ? box : union(before.box, box) });
      }
    }
  }
  return { rects, masked: [...named.values()].map((area) => ({ ...area, box: wholePixels(area.box) })) };
}

/** The smallest whole-CSS-pixel box around `box` (what the agent reads). */
function wholePixels(box: Rect): Rect {
  const x = Math.floor(box.x);
  const y = Math.floor(box.y);
  return { x, y, width: Math.ceil(box.x + box.width) - x, height: Math.ceil(box.y + box.height) - y };
}

/** The canvas calls painting needs (an OffscreenCanvas 2d context in the worker; a fake in tests). */
export type FillContext = Pick<OffscreenCanvasRenderingContext2D, 'fillRect' | 'fillStyle' | 'globalAlpha' | 'globalCompositeOperation'>;

/** Fill each rectangle opaquely: full alpha, plain source-over, so no original pixel shows through. */
export function paintMasks(context: FillContext, rects: readonly Rect[]): void {
  context.globalAlpha = 1;
  context.globalCompositeOperation = 'source-over';
  context.fillStyle = MASK_FILL;
  for (const rect of rects) context.fillRect(rect.x, rect.y, rect.width, rect.height);
}
