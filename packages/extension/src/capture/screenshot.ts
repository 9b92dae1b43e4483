/**
 * A screenshot's pixels, masked: one frame of the tab (its own screencast's first, or the recording's newest while it
 * is recorded), cropped, scaled and painted over where it shows a site the person blocked, in one pass (frameImage.ts).
 * The blocked areas (page/blockedBoxes.ts) are measured just before and just after the frame is taken, and only when
 * the person blocks any site: without rules nothing is asked. An area that cannot be painted fails the capture
 * (site_blocked): never its pixels.
 */
import { reasonedError, type RelayError } from '@chrome-relay/protocol';
import type Protocol from 'devtools-protocol';
import type { CallContext } from '../context/call.js';
import { blockedLayout, type BlockedFrames, type Rect } from '../page/blockedBoxes.js';
import { blockedFrameError } from '../policy/policy.js';
import { outputSize, planMasks, type MaskedArea } from './captureMask.js';
import type { Frame, imageSize, Render, RenderFrame } from './frameImage.js';
import type { Recorder } from './recorder.js';
import { endScreencast, startedFrames, type TabDrawing } from './screencast.js';

/** What a capture needs of a call's context: the tab's frames (the person's blocks), its recording, the drawing. */
type CaptureContext = CallContext & { readonly frames: BlockedFrames; readonly recorder: Recorder; readonly drawing: TabDrawing; readonly render: RenderFrame; readonly imageSize: SizeOf };

/** The page's scroll (CSS px) an element's box was measured at. */
export interface Scroll {
  x: number;
  y: number;
}

export interface Viewport {
  width: number;
  height: number;
}

/** A frame's size in its own pixels (decoded in the worker; a test's frames are not images). */
type SizeOf = typeof imageSize;

/** Large enough that Chrome never downscales the frame below the viewport's device pixels. */
const MAX_FRAME_EDGE = 16_384;

/** What to capture: `clip` (CSS px of the viewport) at `scale`, as `format`. */
export interface CaptureRequest {
  clip: Rect;
  scale: number;
  format: 'png' | 'jpeg';
  quality: number | undefined;
  viewport: Viewport;
  /** The scroll an element's box was measured at: only a frame drawn there is taken. */
  scroll: Scroll | undefined;
  /** The tab is being recorded: its recording's frames are taken (a tab has one screencast). */
  recording: boolean;
}

export async function captureMasked(ctx: CaptureContext, tabId: number, request: CaptureRequest): Promise<{ data: string; masked: MaskedArea[] }> {
  const { clip, scale, format, viewport, scroll, recording } = request;
  // Blocked areas measured before and after the frame is drawn (undefined, and nothing asked, without rules).
  const before = await blockedLayout(ctx, ctx.frames, tabId);
  const frame = recording ? await recordedFrame(ctx, ctx.imageSize, ctx.recorder, tabId, viewport, scroll) : await screencastFrame(ctx, ctx.imageSize, tabId, format, request.quality, viewport, scroll);
  const after = before === undefined ? undefined : await blockedLayout(ctx, ctx.frames, tabId);
  const k = frame.cssToFrame;
  const size = outputSize(clip, k, scale);
  const plan = planMasks([before, after], { cssToFrame: k, jpeg: frame.format === 'jpeg', ...(frame.scroll === undefined ? {} : { scroll: frame.scroll }) }, clip, size);
  const whole = clip.x === 0 && clip.y === 0 && clip.width === viewport.width && clip.height === viewport.height;
  const asIs = whole && scale === 1 && Math.abs(k - 1) < 0.01 && frame.format === format && plan.rects.length === 0;
  const out: Render = { format, quality: request.quality, source: { x: clip.x * k, y: clip.y * k, width: clip.width * k, height: clip.height * k }, ...size, masks: plan.rects };
  const data = asIs ? frame.data : await renderMasked(ctx.render, frame, out, tabId, plan.masked);
  return { data, masked: plan.masked };
}

/**
 * Pure: whether a screencast frame was drawn at `scroll` (within a pixel). An element's box is measured right
 * after scrolling it into view, and the first frame can still be one drawn before that scroll reached the
 * compositor: cropped at the new box, it would show another part of the page.
 */
export function drawnAtScroll(metadata: { scrollOffsetX?: number; scrollOffsetY?: number }, scroll: Scroll | undefined): boolean {
  if (scroll === undefined || metadata.scrollOffsetX === undefined || metadata.scrollOffsetY === undefined) return true;
  return Math.abs(metadata.scrollOffsetX - scroll.x) <= 1 && Math.abs(metadata.scrollOffsetY - scroll.y) <= 1;
}

/**
 * Pure: whether a frame `imageWidth` device px wide, of a page `deviceWidth` CSS px wide, was scaled down — eight
 * times or more, beyond any zoom out (25 % at the least): then it was encoded for a screencast that asked for a small
 * frame, never for a screenshot's, which asks for every device pixel.
 */
export function downscaledFrame(imageWidth: number, deviceWidth: number): boolean {
  return deviceWidth > 0 && imageWidth * 8 <= deviceWidth;
}

/**
 * No frame to capture by the deadline: none at all, or only frames drawn at another scroll than the element's box
 * was measured at (`framesAtOtherScroll`), from our own screencast or from the tab's recording.
 */
export function noFrameError(tabId: number, framesAtOtherScroll: number, recording: boolean): RelayError {
  const tab = recording ? `Tab ${tabId} is being recorded but` : `Tab ${tabId}`;
  const message =
    framesAtOtherScroll > 0
      ? `${tab} drew no frame at the scroll the element was measured at before the deadline (the page keeps scrolling?), so its pixels cannot be captured exactly; retry once the page is still.`
      : recording
        ? `${tab} its screencast has shown no frame yet; retry, and if the tab is minimised or crashed bring it back first.`
        : `${tab} produced no frame to capture before the deadline; retry, and if the tab is minimised or crashed bring it back first.`;
  return reasonedError('timeout', 'no_frame', message, { phase: 'act', details: { tab: tabId, ...(recording ? { recording: true } : {}), framesAtOtherScroll } });
}

/**
 * Start a screencast, take its first frame (acked) — with `scroll`, the first drawn at that scroll — stop.
 * Bounded by the call's deadline.
 */
async function screencastFrame(ctx: CaptureContext, sizeOf: SizeOf, tabId: number, format: 'png' | 'jpeg', quality: number | undefined, viewport: Viewport, scroll?: Scroll): Promise<Frame> {
  let unsubscribe: () => void = () => undefined;
  let earlier = 0;
  let take: (params: Protocol.Page.ScreencastFrameEvent) => Promise<void> | void = () => undefined;
  const frame = new Promise<{ data: string; width: number; image: { width: number }; scroll?: Scroll }>((resolve) => {
    take = async (params) => {
      const { scrollOffsetX: x, scrollOffsetY: y } = params.metadata;
      if (!drawnAtScroll(params.metadata, scroll)) {
        earlier++;
        return;
      }
      const image = await sizeOf(params.data, format).catch(() => undefined);
      // A frame another screencast of the tab encoded before ours began can still arrive after it did: the one keeping
      // the tab drawing (16 px). Ours is never downscaled (MAX_FRAME_EDGE), so a downscaled frame is not ours.
      if (image === undefined || downscaledFrame(image.width, params.metadata.deviceWidth)) return;
      resolve({ data: params.data, width: params.metadata.deviceWidth, image, ...(x === undefined || y === undefined ? {} : { scroll: { x, y } }) });
    };
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(noFrameError(tabId, earlier, false)), Math.max(0, ctx.deadline - Date.now()));
  });
  try {
    const options = { format, ...(quality === undefined ? {} : { quality }), maxWidth: MAX_FRAME_EDGE, maxHeight: MAX_FRAME_EDGE, everyNthFrame: 1 };
    unsubscribe = await startedFrames(ctx, tabId, options, take);
    const got = await Promise.race([frame, deadline]);
    // metadata.deviceWidth is the frame's width in CSS px, scrollbar included (clientWidth is not).
    return { data: got.data, format, cssToFrame: got.image.width / Math.max(1, got.width || viewport.width), ...(got.scroll === undefined ? {} : { scroll: got.scroll }) };
  } finally {
    clearTimeout(timer);
    unsubscribe();
    await endScreencast(ctx, tabId);
  }
}

/**
 * The recording's newest frame as a screenshot frame — with `scroll`, the newest drawn at that scroll (as
 * screencastFrame); timeout when the recording has shown no such frame by the deadline.
 */
async function recordedFrame(ctx: CaptureContext, sizeOf: SizeOf, recordings: Recorder, tabId: number, viewport: Viewport, scroll: Scroll | undefined): Promise<Frame> {
  let earlier = 0;
  const live = await recordings.currentFrame(tabId, ctx.deadline, (frame) => {
    const atScroll = drawnAtScroll(frame, scroll);
    if (!atScroll) earlier++;
    return atScroll;
  });
  if (live === null) throw noFrameError(tabId, earlier, true);
  const image = await sizeOf(live.data, 'jpeg');
  const { scrollOffsetX: x, scrollOffsetY: y } = live;
  return { data: live.data, format: 'jpeg', cssToFrame: image.width / Math.max(1, live.cssWidth || viewport.width), ...(x === undefined || y === undefined ? {} : { scroll: { x, y } }) };
}

/** Paint over the blocked areas (or, when they cannot be painted, fail site_blocked naming the rule: never their pixels). */
async function renderMasked(render: RenderFrame, frame: Frame, out: Render, tabId: number, masked: readonly MaskedArea[]): Promise<string> {
  try {
    return await render(frame, out);
  } catch (error) {
    const first = masked[0];
    if (first === undefined || out.masks.length === 0) throw error;
    console.warn('chrome-relay: painting over a blocked frame failed', error);
    throw blockedFrameError(tabId, { rule: first.rule, url: first.origin }, { capture: 'screenshot' });
  }
}


