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
import { selectorRefused } from '../../page/selectorRefused.js';
import { callTab } from '../../context/call.js';
import { reasonedError, RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { mainFrameDocument } from '../../page/worlds.js';
import { callRead } from '../../page/pageCall.js';
import { notVisibleError, openRef, readRef } from '../../actions/refAction.js';
import { defineTool } from '../defineTool.js';
import { REF_SERVICES, type ToolContext } from '../../actions/toolContext.js';
import type { Rect } from '../../page/blockedBoxes.js';
import { captureMasked, type Scroll, type Viewport } from '../../capture/screenshot.js';

/** The services this tool uses (tools/defineTool.ts). */
const USES = [...REF_SERVICES, 'recorder', 'drawing', 'render', 'imageSize'] as const;
type UsedContext = ToolContext<(typeof USES)[number]>;

type Clip = Rect;

function invalid(field: string, message: string): RelayError {
  return new RelayError('invalid_arguments', `Invalid arguments for screenshot: ${message}`, { phase: 'validate', details: { field } });
}

/** A ref's element box: the same resolve/heal/navigation checks as every ref action, then its viewport rect. */
async function refClip(ctx: UsedContext, ref: string): Promise<{ tabId: number; clip: Clip; scroll: Scroll }> {
  const site = await openRef(ctx, ref);
  if (site.world.frameId !== (await mainFrameDocument(ctx, site.tabId)).frameId) {
    throw invalid('ref', `@${ref} is inside an iframe; element screenshots of framed elements are not supported yet — capture the viewport, or use --selector on the iframe.`);
  }
  const outcome = await readRef(ctx, site, 'screenshot', 'box', { ref });
  if (outcome.status === 'not_visible') throw notVisibleError('screenshot', ref, site.tabId);
  return { tabId: site.tabId, clip: { x: outcome.x, y: outcome.y, width: outcome.width, height: outcome.height }, scroll: { x: outcome.scrollX, y: outcome.scrollY } };
}

async function elementClip(ctx: UsedContext, tabId: number, selector: string): Promise<{ clip: Clip; scroll: Scroll }> {
  const box = await callRead(ctx, tabId, 'elementBox', { selector });
  if ('status' in box) throw selectorRefused('screenshot', 'selector', selector, box, { tab: tabId });
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

async function viewportOf(ctx: UsedContext, tabId: number): Promise<Viewport & { contentHeight: number }> {
  const metrics = await ctx.cdp.send(tabId, 'Page.getLayoutMetrics');
  return { width: metrics.cssLayoutViewport.clientWidth, height: metrics.cssLayoutViewport.clientHeight, contentHeight: metrics.cssContentSize.height };
}

/** Tallest full-page capture we render; beyond it the image would exceed what canvases and agents handle. */
const MAX_FULL_HEIGHT = 16_384;

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

export const screenshotTool = defineTool({
  name: 'screenshot',
  uses: USES,
  async handle(params: ToolParams<'screenshot'>, ctx): Promise<ToolResult<'screenshot'>> {
    const format = params.format ?? 'png';
    if (params.quality !== undefined && format !== 'jpeg') throw invalid('quality', '--quality only applies to --format jpeg.');
    if (params.full && (params.selector !== undefined || params.ref !== undefined)) throw invalid('full', 'give --full or an element, not both.');
    if (params.ref !== undefined && params.selector !== undefined) throw invalid('selector', 'give a ref or --selector, not both.');
    let tabId: number;
    let element: Clip | undefined;
    let scroll: Scroll | undefined;
    if (params.ref !== undefined) {
      ({ tabId, clip: element, scroll } = await refClip(ctx, params.ref));
    } else {
      tabId = callTab(ctx);
      if (params.selector !== undefined) ({ clip: element, scroll } = await elementClip(ctx, tabId, params.selector));
    }
    const recording = ctx.recorder.isRecording(tabId);
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
      const { data, masked: areas } = await captureMasked(ctx, tabId, { clip, scale, format, quality: params.quality, viewport, scroll, recording });
      const masked = areas.length === 0 ? {} : { masked: areas };
      return { tabId, format, width: Math.round(clip.width), height: Math.round(clip.height), scale, data, ...masked };
    } finally {
      if (overridden) await ctx.cdp.send(tabId, 'Emulation.clearDeviceMetricsOverride').catch(() => undefined);
    }
  },
});

