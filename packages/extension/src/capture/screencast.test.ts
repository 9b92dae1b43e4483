import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { endScreencast, startedFrames, TabDrawing, waitForDraw } from './screencast.js';

/** A fake tab whose screencast sends one frame after it starts (as Chrome: the answer, then the frame). */
function tab() {
  const env = createFakeEnvironment();
  const drawing = new TabDrawing();
  env.debugger.handle('Page.startScreencast', (params, tabId) => {
    const label = (params as { maxWidth?: number }).maxWidth === 16 ? 'tiny' : 'full';
    setTimeout(() => env.debugger.emit(tabId, 'Page.screencastFrame', { data: label, sessionId: 1, metadata: {} }), 1);
    return {};
  });
  const screencasts = () => env.debugger.methods().filter((method) => method === 'Page.startScreencast' || method === 'Page.stopScreencast');
  return { ...env, drawing, ctx: { cdp: env.cdp, drawing }, screencasts };
}

describe('TabDrawing: a tab agents work in keeps drawing', () => {
  it('a session preparer starts the screencast that keeps it drawing; a user ends theirs back into it, then the session ends', async () => {
    const { drawing, ctx, debugger: chrome, screencasts } = tab();
    await drawing.keep(3, (method, params) => chrome.sendCommand({ tabId: 3 }, method, params));
    expect(drawing.kept(3)).toBe(true);
    expect(await waitForDraw(ctx, 3)).toBe(true);
    // Chrome refuses a second screencast: the one keeping the tab drawing stops first, and comes back after.
    expect(screencasts()).toEqual(['Page.startScreencast', 'Page.stopScreencast', 'Page.startScreencast', 'Page.startScreencast']);
    drawing.ended(3);
    await endScreencast(ctx, 3);
    expect(screencasts().at(-1)).toBe('Page.stopScreencast');
  });

  it('a tab no session keeps drawing is simply started and stopped', async () => {
    const { ctx, screencasts } = tab();
    expect(await waitForDraw(ctx, 4)).toBe(true);
    expect(screencasts()).toEqual(['Page.startScreencast', 'Page.stopScreencast']);
  });

  it('a user takes only its own frames: one still on its way from the screencast keeping the tab drawing is not', async () => {
    const { drawing, ctx, debugger: chrome } = tab();
    await drawing.keep(3, (method, params) => chrome.sendCommand({ tabId: 3 }, method, params));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // A frame of the screencast that kept the tab drawing arrives late, while the user's start is on its way.
    chrome.handle('Page.stopScreencast', (_params, tabId) => {
      chrome.emit(tabId, 'Page.screencastFrame', { data: 'stale', sessionId: 9, metadata: {} });
      return {};
    });
    const seen: string[] = [];
    const stop = await startedFrames(ctx, 3, { format: 'png', maxWidth: 800 }, (frame) => void seen.push(frame.data));
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop();
    expect(seen).toEqual(['full']);
  });

  it('a frame of its own that comes before its start is answered is kept (a static page may send no other)', async () => {
    const { drawing, ctx, debugger: chrome } = tab();
    await drawing.keep(3, (method, params) => chrome.sendCommand({ tabId: 3 }, method, params));
    await new Promise((resolve) => setTimeout(resolve, 10));
    chrome.handle('Page.startScreencast', (_params, tabId) => {
      chrome.emit(tabId, 'Page.screencastFrame', { data: 'first', sessionId: 2, metadata: {} });
      return {};
    });
    const seen: string[] = [];
    const stop = await startedFrames(ctx, 3, { format: 'png', maxWidth: 800 }, (frame) => void seen.push(frame.data));
    stop();
    expect(seen).toEqual(['first']);
  });
});
