import { describe, expect, it } from 'vitest';
import type { ToolParams } from '@chrome-relay/protocol';
import type { ToolContext } from '../../actions/toolContext.js';
import { BANK_RULE, blockedFramesTab } from '../../testing/blockedFrames.js';
import type { Render, RenderFrame } from '../../capture/frameImage.js';
import { Recorder } from '../../capture/recorder.js';
import { unmasked } from '../../capture/recordMask.js';
import { downscaledFrame, drawnAtScroll, noFrameError } from '../../capture/screenshot.js';
import { screenshotTool } from './screenshot.js';
import { runTool } from '../../testing/toolContext.js';

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

/** A tab whose screencast sends one 800×600 frame, whose blocked iframe (if any) has the content box 10,10 100×50. */
function capturedTab(rules?: string[]) {
  const tab = blockedFramesTab(rules === undefined ? {} : { rules });
  const chrome = tab.debugger;
  chrome.handle('Page.getLayoutMetrics', () => ({ cssLayoutViewport: { clientWidth: 800, clientHeight: 600 }, cssContentSize: { height: 600 }, cssVisualViewport: { pageX: 0, pageY: 0 } }));
  chrome.handle('DOM.getFrameOwner', () => ({ backendNodeId: 7 }));
  chrome.handle('DOM.getBoxModel', () => ({ model: { content: [10, 10, 110, 10, 110, 60, 10, 60] } }));
  chrome.handle('Page.startScreencast', () => {
    // As Chrome does: the answer first, then the frames of the screencast it started.
    setTimeout(() => chrome.emit(tab.tabId, 'Page.screencastFrame', { data: 'raw', sessionId: 1, metadata: { deviceWidth: 800 } }), 0);
    return {};
  });
  const frames = rules === undefined ? tab.frames : { ...tab.frames, blockList: () => Promise.resolve([]) };
  const tool = (render: RenderFrame) => ({
    handle: (params: ToolParams<'screenshot'>, ctx: ToolContext) => runTool(screenshotTool, params, { ...ctx, render, recorder: new Recorder(unmasked, ctx.drawing), frames }),
  });
  return { ...tab, tool };
}

describe('a screenshot of a page that shows a blocked site', () => {
  it('paints over the blocked frame\'s box and names it', async () => {
    const { ctx, tabId, tool } = capturedTab();
    const renders: Render[] = [];
    const result = await tool((_frame, render) => (renders.push(render), Promise.resolve('painted'))).handle({ tab: tabId }, ctx);
    expect(result).toMatchObject({ data: 'painted', masked: [{ rule: BANK_RULE, origin: 'https://bank.test', box: { x: 10, y: 10, width: 100, height: 50 } }] });
    expect(renders[0]?.masks).toEqual([{ x: 7, y: 7, width: 106, height: 56 }]);
  });

  it('without rules: the frame as it came, nothing named, and nothing more asked of the tab', async () => {
    const { ctx, tabId, tool, debugger: chrome } = capturedTab([]);
    const result = await tool(() => Promise.reject(new Error('not expected'))).handle({ tab: tabId }, ctx);
    expect(result).toEqual({ tabId, format: 'png', width: 800, height: 600, scale: 1, data: 'raw' });
    expect(chrome.methods(tabId).filter((m) => m.startsWith('DOM.') || m.startsWith('Target.') || m === 'Page.getFrameTree')).toEqual([]);
    expect(chrome.methods(tabId).filter((m) => m === 'Page.getLayoutMetrics')).toHaveLength(1);
  });

  it('fails site_blocked naming the rule when the area cannot be painted over: never the unpainted picture', async () => {
    const { ctx, tabId, tool } = capturedTab();
    const error = await tool(() => Promise.reject(new Error('no canvas'))).handle({ tab: tabId }, ctx).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'target_conflict', details: { reason: 'site_blocked', rule: BANK_RULE, origin: 'https://bank.test', frame: true } });
    expect(String((error as Error).message)).toMatch(/^The screenshot would show a frame of tab \d+'s page that shows https:\/\/bank\.test/);
  });
});

describe("a frame another screencast of the tab encoded is never the screenshot's", () => {
  it('a frame scaled down eight times or more is not ours (the keep-drawing one is 16 px); zoomed out or 1:1 is', () => {
    expect(downscaledFrame(16, 1280)).toBe(true);
    expect(downscaledFrame(160, 1280)).toBe(true);
    expect(downscaledFrame(320, 1280)).toBe(false);
    expect(downscaledFrame(1280, 1280)).toBe(false);
    expect(downscaledFrame(2560, 1280)).toBe(false);
    expect(downscaledFrame(16, 0)).toBe(false);
  });

  it("the keep-drawing screencast's last 16-px frame, arriving after ours started, is skipped: the picture is ours", async () => {
    const tab = blockedFramesTab({ rules: [] });
    const chrome = tab.debugger;
    chrome.handle('Page.getLayoutMetrics', () => ({ cssLayoutViewport: { clientWidth: 800, clientHeight: 600 }, cssContentSize: { height: 600 }, cssVisualViewport: { pageX: 0, pageY: 0 } }));
    chrome.handle('Page.startScreencast', () => {
      // Encoded for the screencast that kept the tab drawing, delivered after ours began; then our own frame.
      setTimeout(() => chrome.emit(tab.tabId, 'Page.screencastFrame', { data: 'keep', sessionId: 1, metadata: { deviceWidth: 800 } }), 0);
      setTimeout(() => chrome.emit(tab.tabId, 'Page.screencastFrame', { data: 'ours', sessionId: 2, metadata: { deviceWidth: 800 } }), 5);
      return {};
    });
    const sizes: Record<string, { width: number; height: number }> = { keep: { width: 16, height: 12 }, ours: { width: 800, height: 600 } };
    const frames = { ...tab.frames, blockList: () => Promise.resolve([]) };
    const ctx = { ...tab.ctx, imageSize: (data: string) => Promise.resolve(sizes[data] ?? { width: 0, height: 0 }) };
    const result = await runTool(screenshotTool, { tab: tab.tabId }, { ...ctx, render: () => Promise.reject(new Error('not expected')), recorder: new Recorder(unmasked, ctx.drawing), frames });
    expect(result).toMatchObject({ data: 'ours', width: 800, height: 600 });
  });
});
