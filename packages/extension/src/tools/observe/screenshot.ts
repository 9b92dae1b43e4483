/**
 * `screenshot`: viewport, full page, or one element (by CSS selector), as PNG or JPEG, from the
 * tab's compositor surface — the tab is never activated and its window never raised. The clip is
 * always given in document CSS pixels (with captureBeyondViewport for full pages and elements), so
 * an element below the fold is captured where it is, after being scrolled into view.
 *
 * --max-edge is applied AFTER capture, in the worker (OffscreenCanvas), not through CDP's clip.scale:
 * on a hidden background tab in a headful browser, captureScreenshot with a clip scale below ~0.4
 * never answers (observed in Chromium 156 under Xvfb, viewport and full page alike), while scale 1
 * always does.
 */
import { RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { resolveTab } from '../../targets.js';
import { defineTool, type ToolContext } from '../defineTool.js';

interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

type ElementBox = { found: false } | { found: true; x: number; y: number; width: number; height: number };

function invalid(field: string, message: string): RelayError {
  return new RelayError('invalid_arguments', `Invalid arguments for screenshot: ${message}`, { phase: 'validate', details: { field } });
}

/** Runs in the page: scroll the element into view and return its box in document coordinates. */
function elementBoxExpression(selector: string): string {
  return `(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) return { found: false };
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    const r = el.getBoundingClientRect();
    return { found: true, x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
  })()`;
}

async function elementClip(ctx: ToolContext, tabId: number, selector: string): Promise<Clip> {
  const evaluated = await ctx.cdp.send(tabId, 'Runtime.evaluate', { expression: elementBoxExpression(selector), returnByValue: true });
  if (evaluated.exceptionDetails) {
    throw invalid('selector', `"${selector}" is not a valid CSS selector (${evaluated.exceptionDetails.exception?.description ?? evaluated.exceptionDetails.text}).`);
  }
  const box = evaluated.result.value as ElementBox;
  if (!box.found) {
    throw new RelayError('element_not_found', `No element matches "${selector}" in tab ${tabId}; check it against a fresh \`chrome-relay snapshot\`.`, {
      phase: 'resolve',
      details: { selector, tab: tabId },
    });
  }
  if (box.width < 1 || box.height < 1) {
    throw new RelayError('element_not_found', `The element "${selector}" has no visible size (${box.width}×${box.height}); nothing to capture.`, {
      phase: 'resolve',
      details: { selector, tab: tabId, reason: 'not_visible' },
    });
  }
  return { x: box.x, y: box.y, width: box.width, height: box.height };
}

async function pageClip(ctx: ToolContext, tabId: number, full: boolean): Promise<Clip> {
  const metrics = await ctx.cdp.send(tabId, 'Page.getLayoutMetrics');
  if (full) return { x: 0, y: 0, width: metrics.cssContentSize.width, height: metrics.cssContentSize.height };
  const view = metrics.cssVisualViewport;
  return { x: view.pageX, y: view.pageY, width: view.clientWidth, height: view.clientHeight };
}

/** Downscale base64 image bytes so they are `scale` times their size; keeps the format. */
export type Resize = (data: string, format: 'png' | 'jpeg', scale: number, quality: number | undefined) => Promise<string>;

export const offscreenResize: Resize = async (data, format, scale, quality) => {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: `image/${format}` }));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new RelayError('internal_error', 'OffscreenCanvas 2d context is unavailable in the service worker.', { phase: 'act' });
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const blob = await canvas.convertToBlob({ type: `image/${format}`, ...(quality === undefined ? {} : { quality: quality / 100 }) });
  const out = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < out.length; i += 0x8000) binary += String.fromCharCode(...out.subarray(i, i + 0x8000));
  return btoa(binary);
};

export function screenshotScale(clip: Clip, maxEdge: number | undefined): number {
  if (maxEdge === undefined) return 1;
  return Math.min(1, maxEdge / Math.max(clip.width, clip.height));
}

export function createScreenshotTool(resize: Resize) {
  return defineTool({
    name: 'screenshot',
    async handle(params: ToolParams<'screenshot'>, ctx): Promise<ToolResult<'screenshot'>> {
      const format = params.format ?? 'png';
      if (params.quality !== undefined && format !== 'jpeg') throw invalid('quality', '--quality only applies to --format jpeg.');
      if (params.full && params.selector !== undefined) throw invalid('full', 'give --full or an element, not both.');
      const tabId = await resolveTab(params.tab, ctx);
      const clip = params.selector === undefined ? await pageClip(ctx, tabId, params.full ?? false) : await elementClip(ctx, tabId, params.selector);
      if (clip.width < 1 || clip.height < 1) {
        throw new RelayError('cdp_error', `Tab ${tabId} reports an empty page area (${clip.width}×${clip.height}); is it still loading?`, {
          phase: 'act',
          details: { method: 'Page.getLayoutMetrics', tab: tabId },
        });
      }
      const scale = screenshotScale(clip, params.maxEdge);
      const shot = await ctx.cdp.send(tabId, 'Page.captureScreenshot', {
        format,
        ...(params.quality === undefined ? {} : { quality: params.quality }),
        clip: { ...clip, scale: 1 },
        captureBeyondViewport: params.full === true || params.selector !== undefined,
        fromSurface: true,
      });
      const data = scale < 1 ? await resize(shot.data, format, scale, params.quality) : shot.data;
      return { tabId, format, width: Math.round(clip.width), height: Math.round(clip.height), scale, data };
    },
  });
}

export const screenshotTool = createScreenshotTool(offscreenResize);
