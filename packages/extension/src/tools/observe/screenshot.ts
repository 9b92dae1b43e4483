/**
 * `screenshot`: viewport, full page, or one element (by CSS selector), as PNG or JPEG — the tab is
 * never activated and its window never raised.
 *
 * Pixels come from ONE screencast frame, not Page.captureScreenshot: on a hidden background tab in
 * a headful browser captureScreenshot waits for a compositor frame that never comes (observed in
 * Chromium 156 under Xvfb: it hung on the first capture of a background tab, with or without clip,
 * and after a metrics override), while a screencast delivers a frame in ~25 ms every time, hidden
 * or not. So: element → scrolled into view, frame, cropped to its box; full page → the viewport is
 * temporarily sized to the content (Emulation.setDeviceMetricsOverride), frame, override cleared.
 * Cropping, --max-edge scaling and painting over the frames that show a site the person blocked happen in the
 * worker (OffscreenCanvas, frameImage.ts), in one pass. Those areas (page/blockedBoxes.ts) are measured just before
 * and just after the frame is taken, and only when the person blocks any site: without rules nothing is asked.
 * The result names each area painted over (`masked`); one that cannot be painted fails the capture (site_blocked).
 *
 * While the tab is being recorded (`record start`) its screencast is already running, and a tab has only
 * one: starting another fails, and stopping ours afterwards would end the recording. So the pixels are the
 * recording's newest frame (current: Chrome sends one on every repaint) — for an element, the newest drawn at
 * the scroll its box was measured at — re-encoded to the format asked for, at the recording's resolution (its
 * --max-edge). `--full` would resize the viewport inside the
 * recording, so it is refused (target_conflict, reason recording) with the move.
 */
import { reasonedError, RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { mainFrameDocument, worlds } from '../../page/worlds.js';
import { callInPage } from '../../pageState/isolatedWorld.js';
import { refRegistry } from '../../refs/index.js';
import { resolveTab } from '../../targets.js';
import { callSite, notVisibleError, openRef, unlessStale } from '../refAction.js';
import { defineTool, type ToolContext } from '../defineTool.js';
import { recorder as defaultRecorder, type Recorder } from './record.js';
import { blockedLayout, type BlockedFrames, type Rect } from '../../page/blockedBoxes.js';
import { frameSessions } from '../../page/frames.js';
import { blockedFrameError } from '../../policy/policy.js';
import { outputSize, planMasks, type MaskedArea } from './captureMask.js';
import { imageSize, offscreenRender, type Frame, type Render, type RenderFrame } from './frameImage.js';

type Clip = Rect;

/** The page's scroll (CSS px) an element's box was measured at. */
interface Scroll {
  x: number;
  y: number;
}

type ElementBox = { found: false } | { found: true; x: number; y: number; width: number; height: number; scrollX: number; scrollY: number };

function invalid(field: string, message: string): RelayError {
  return new RelayError('invalid_arguments', `Invalid arguments for screenshot: ${message}`, { phase: 'validate', details: { field } });
}

/**
 * Runs in the page, in chrome-relay's reads world (isolated: the page cannot patch querySelector or
 * getBoundingClientRect for it, nor see it run): scroll the element into view and return its box in viewport
 * coordinates. Self-contained (serialised with toString).
 */
export function elementBox(selector: string): ElementBox | { invalid: string } {
  let el: Element | null;
  try {
    el = document.querySelector(selector);
  } catch (error) {
    return { invalid: error instanceof Error ? error.message : String(error) };
  }
  if (!el) return { found: false };
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = el.getBoundingClientRect();
  // Viewport coordinates: the frame is of the viewport, after the scroll above.
  return { found: true, x: r.left, y: r.top, width: r.width, height: r.height, scrollX: window.scrollX, scrollY: window.scrollY };
}

/** A ref's element box: the same resolve/heal/navigation checks as every ref action, then its viewport rect. */
async function refClip(ctx: ToolContext, ref: string, requestedTab: number | undefined): Promise<{ tabId: number; clip: Clip; scroll: Scroll }> {
  const deps = { registry: refRegistry, worlds };
  const site = await openRef(ctx, deps, ref, requestedTab);
  if (site.world.frameId !== (await mainFrameDocument(ctx, site.tabId)).frameId) {
    throw invalid('ref', `@${ref} is inside an iframe; element screenshots of framed elements are not supported yet — capture the viewport, or use --selector on the iframe.`);
  }
  const outcome = unlessStale(site, await callSite(ctx, deps, site, 'box', { ref }));
  if (outcome.status === 'not_visible') throw notVisibleError('screenshot', ref, site.tabId);
  return { tabId: site.tabId, clip: { x: outcome.x, y: outcome.y, width: outcome.width, height: outcome.height }, scroll: { x: outcome.scrollX, y: outcome.scrollY } };
}

async function elementClip(ctx: ToolContext, tabId: number, selector: string): Promise<{ clip: Clip; scroll: Scroll }> {
  const box = await callInPage(ctx, tabId, elementBox, selector);
  if ('invalid' in box) throw invalid('selector', `"${selector}" is not a valid CSS selector (${box.invalid}).`);
  if (!box.found) {
    throw reasonedError('element_not_found', 'no_match', `No element matches "${selector}" in tab ${tabId}; check it against a fresh \`chrome-relay snapshot\`, or \`chrome-relay wait --selector\` for it.`, {
      phase: 'resolve',
      details: { selector, tab: tabId },
    });
  }
  if (box.width < 1 || box.height < 1) {
    throw reasonedError('element_not_found', 'not_visible', `The element "${selector}" has no visible size (${box.width}×${box.height}), so there is nothing to capture; reveal it first (scroll, expand) or \`chrome-relay wait --selector\` for it.`, {
      phase: 'resolve',
      details: { selector, tab: tabId },
    });
  }
  return { clip: { x: box.x, y: box.y, width: box.width, height: box.height }, scroll: { x: box.scrollX, y: box.scrollY } };
}

interface Viewport {
  width: number;
  height: number;
}

async function viewportOf(ctx: ToolContext, tabId: number): Promise<Viewport & { contentHeight: number }> {
  const metrics = await ctx.cdp.send(tabId, 'Page.getLayoutMetrics');
  return { width: metrics.cssLayoutViewport.clientWidth, height: metrics.cssLayoutViewport.clientHeight, contentHeight: metrics.cssContentSize.height };
}

/** Tallest full-page capture we render; beyond it the image would exceed what canvases and agents handle. */
const MAX_FULL_HEIGHT = 16_384;
/** Large enough that Chrome never downscales the frame below the viewport's device pixels. */
const MAX_FRAME_EDGE = 16_384;

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
async function screencastFrame(ctx: ToolContext, sizeOf: SizeOf, tabId: number, format: 'png' | 'jpeg', quality: number | undefined, viewport: Viewport, scroll?: Scroll): Promise<Frame> {
  let unsubscribe: () => void = () => undefined;
  let earlier = 0;
  const frame = new Promise<{ data: string; width: number; scroll?: Scroll }>((resolve) => {
    unsubscribe = ctx.cdp.on((event) => {
      if (event.tabId !== tabId || event.sessionId !== undefined || event.method !== 'Page.screencastFrame') return;
      const params = event.params as { data: string; sessionId: number; metadata: { deviceWidth: number; scrollOffsetX?: number; scrollOffsetY?: number } };
      void ctx.cdp.send(tabId, 'Page.screencastFrameAck', { sessionId: params.sessionId }).catch(() => undefined);
      const { scrollOffsetX: x, scrollOffsetY: y } = params.metadata;
      if (drawnAtScroll(params.metadata, scroll)) resolve({ data: params.data, width: params.metadata.deviceWidth, ...(x === undefined || y === undefined ? {} : { scroll: { x, y } }) });
      else earlier++;
    });
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(noFrameError(tabId, earlier, false)), Math.max(0, ctx.deadline - Date.now()));
  });
  try {
    await ctx.cdp.send(tabId, 'Page.startScreencast', {
      format,
      ...(quality === undefined ? {} : { quality }),
      maxWidth: MAX_FRAME_EDGE,
      maxHeight: MAX_FRAME_EDGE,
      everyNthFrame: 1,
    });
    const got = await Promise.race([frame, deadline]);
    // metadata.deviceWidth is the frame's width in CSS px, scrollbar included (clientWidth is not).
    const image = await sizeOf(got.data, format);
    return { data: got.data, format, cssToFrame: image.width / Math.max(1, got.width || viewport.width), ...(got.scroll === undefined ? {} : { scroll: got.scroll }) };
  } finally {
    clearTimeout(timer);
    unsubscribe();
    await ctx.cdp.send(tabId, 'Page.stopScreencast').catch(() => undefined);
  }
}

/** The part of `clip` inside the viewport (an element larger than the viewport is cut at its edges). */
function clampToViewport(clip: Clip, viewport: Viewport): Clip {
  const x = Math.max(0, clip.x);
  const y = Math.max(0, clip.y);
  return { x, y, width: Math.min(viewport.width, clip.x + clip.width) - x, height: Math.min(viewport.height, clip.y + clip.height) - y };
}

export function screenshotScale(clip: Clip, maxEdge: number | undefined): number {
  if (maxEdge === undefined) return 1;
  return Math.min(1, maxEdge / Math.max(clip.width, clip.height));
}

/**
 * The recording's newest frame as a screenshot frame — with `scroll`, the newest drawn at that scroll (as
 * screencastFrame); timeout when the recording has shown no such frame by the deadline.
 */
async function recordedFrame(ctx: ToolContext, sizeOf: SizeOf, recordings: Recorder, tabId: number, viewport: Viewport, scroll: Scroll | undefined): Promise<Frame> {
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

/** A frame's size in its own pixels (decoded in the worker; a test's frames are not images). */
type SizeOf = typeof imageSize;

export function createScreenshotTool(render: RenderFrame, recordings: Recorder = defaultRecorder, frames: BlockedFrames = frameSessions, sizeOf: SizeOf = imageSize) {
  return defineTool({
    name: 'screenshot',
    async handle(params: ToolParams<'screenshot'>, ctx): Promise<ToolResult<'screenshot'>> {
      const format = params.format ?? 'png';
      if (params.quality !== undefined && format !== 'jpeg') throw invalid('quality', '--quality only applies to --format jpeg.');
      if (params.full && (params.selector !== undefined || params.ref !== undefined)) throw invalid('full', 'give --full or an element, not both.');
      if (params.ref !== undefined && params.selector !== undefined) throw invalid('selector', 'give a ref or --selector, not both.');
      let tabId: number;
      let element: Clip | undefined;
      let scroll: Scroll | undefined;
      if (params.ref !== undefined) {
        ({ tabId, clip: element, scroll } = await refClip(ctx, params.ref, params.tab));
      } else {
        tabId = await resolveTab(params.tab, ctx);
        if (params.selector !== undefined) ({ clip: element, scroll } = await elementClip(ctx, tabId, params.selector));
      }
      const recording = recordings.isRecording(tabId);
      if (recording && params.full) {
        throw reasonedError('target_conflict', 'recording', `Tab ${tabId} is being recorded, and a --full screenshot resizes its viewport, which would show in the recording. Take the screenshot without --full (it comes from the recording), or run \`chrome-relay record stop --tab ${tabId} --out DIR\` first.`, {
          phase: 'validate',
          details: { tab: tabId, field: 'full' },
        });
      }
      let viewport: Viewport & { contentHeight: number } = await viewportOf(ctx, tabId);
      let overridden = false;
      if (params.full) {
        const height = Math.min(MAX_FULL_HEIGHT, Math.ceil(viewport.contentHeight));
        await ctx.cdp.send(tabId, 'Emulation.setDeviceMetricsOverride', { width: Math.round(viewport.width), height, deviceScaleFactor: 0, mobile: false });
        overridden = true;
        viewport = { ...viewport, height };
      }
      try {
        const clip = element ? clampToViewport(element, viewport) : { x: 0, y: 0, width: viewport.width, height: viewport.height };
        if (clip.width < 1 || clip.height < 1) {
          throw new RelayError('cdp_error', `Tab ${tabId} reports an empty area to capture (${clip.width}×${clip.height}); is it still loading?`, {
            phase: 'act',
            details: { method: 'Page.getLayoutMetrics', tab: tabId },
          });
        }
        const scale = screenshotScale(clip, params.maxEdge);
        // Blocked areas measured before and after the frame is drawn (undefined, and nothing asked, without rules).
        const before = await blockedLayout(ctx, frames, tabId);
        const frame = recording ? await recordedFrame(ctx, sizeOf, recordings, tabId, viewport, scroll) : await screencastFrame(ctx, sizeOf, tabId, format, params.quality, viewport, scroll);
        const after = before === undefined ? undefined : await blockedLayout(ctx, frames, tabId);
        const k = frame.cssToFrame;
        const size = outputSize(clip, k, scale);
        const plan = planMasks([before, after], { cssToFrame: k, jpeg: frame.format === 'jpeg', ...(frame.scroll === undefined ? {} : { scroll: frame.scroll }) }, clip, size);
        const whole = clip.x === 0 && clip.y === 0 && clip.width === viewport.width && clip.height === viewport.height;
        const asIs = whole && scale === 1 && Math.abs(k - 1) < 0.01 && frame.format === format && plan.rects.length === 0;
        const out: Render = { format, quality: params.quality, source: { x: clip.x * k, y: clip.y * k, width: clip.width * k, height: clip.height * k }, ...size, masks: plan.rects };
        const data = asIs ? frame.data : await renderMasked(render, frame, out, tabId, plan.masked);
        const masked = plan.masked.length === 0 ? {} : { masked: plan.masked };
        return { tabId, format, width: Math.round(clip.width), height: Math.round(clip.height), scale, data, ...masked };
      } finally {
        if (overridden) await ctx.cdp.send(tabId, 'Emulation.clearDeviceMetricsOverride').catch(() => undefined);
      }
    },
  });
}

export const screenshotTool = createScreenshotTool(offscreenRender);
