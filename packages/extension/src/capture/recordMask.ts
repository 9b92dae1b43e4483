/**
 * A recording's frames painted over where the page shows a site the person blocked, as each frame arrives (the
 * recorder acknowledges a frame only after this, so Chrome sends the next one no faster than they are painted).
 * Each frame is covered at the blocked areas measured right after it arrived and right after the one before it
 * (captureMask.ts: an iframe that moved in between is covered at both places). A frame whose blocked area cannot be
 * measured or painted is withheld: never kept, never shown to a screenshot.
 */
import type { CdpSessions } from '../cdp/cdpSession.js';
import { blockedLayout, type BlockedFrames, type BlockedLayout } from '../page/blockedBoxes.js';
import { planMasks } from './captureMask.js';
import { imageSize, offscreenRender, type RenderFrame } from './frameImage.js';

/** A screencast frame as it arrived: JPEG, base64, the CSS width of the viewport it shows, and its scroll. */
export interface LiveFrame {
  data: string;
  cssWidth: number;
  scrollOffsetX?: number;
  scrollOffsetY?: number;
}

export interface SiteShown {
  rule: string;
  origin: string;
}

export type MaskedFrame = { data: string; masked: SiteShown[] } | { withheld: true };

/** Paints one frame; `previous` is the measurement the last frame left (the next call gets this one's). */
export type FrameMasker = (
  cdp: CdpSessions,
  tabId: number,
  frame: LiveFrame,
  quality: number,
  previous: BlockedLayout | undefined,
) => Promise<{ frame: MaskedFrame; layout: BlockedLayout | undefined }>;

/** Frames kept as they come: the person blocks nothing, or a test has no page. */
export const unmasked: FrameMasker = (_cdp, _tabId, frame) => Promise.resolve({ frame: { data: frame.data, masked: [] }, layout: undefined });

export function createFrameMasker(frames: BlockedFrames, render: RenderFrame = offscreenRender): FrameMasker {
  return async (cdp, tabId, frame, quality, previous) => {
    let layout: BlockedLayout | undefined;
    try {
      layout = await blockedLayout({ cdp }, frames, tabId);
    } catch (error) {
      console.warn('chrome-relay: a recorded frame was withheld (a blocked frame could not be measured)', error);
      return { frame: { withheld: true }, layout: previous };
    }
    const as = { frame: { data: frame.data, masked: [] }, layout };
    if (layout === undefined || (layout.boxes.length === 0 && (previous?.boxes.length ?? 0) === 0)) return as;
    try {
      const size = await imageSize(frame.data, 'jpeg');
      const k = size.width / Math.max(1, frame.cssWidth);
      const { scrollOffsetX: x, scrollOffsetY: y } = frame;
      const geometry = { cssToFrame: k, jpeg: true, ...(x === undefined || y === undefined ? {} : { scroll: { x, y } }) };
      const plan = planMasks([previous, layout], geometry, { x: 0, y: 0, width: size.width / k, height: size.height / k }, size);
      if (plan.rects.length === 0) return as;
      const data = await render({ data: frame.data, format: 'jpeg' }, { format: 'jpeg', quality, source: { x: 0, y: 0, ...size }, ...size, masks: plan.rects });
      return { frame: { data, masked: plan.masked.map(({ rule, origin }) => ({ rule, origin })) }, layout };
    } catch (error) {
      console.warn('chrome-relay: a recorded frame was withheld (a blocked frame could not be painted over)', error);
      return { frame: { withheld: true }, layout };
    }
  };
}
