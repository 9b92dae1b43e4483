import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { followEvent, MainFrames } from './mainFrames.js';

const known = { frameId: 'MAIN', loaderId: 'L1', url: 'https://x.test/a' };
const event = (method: string, params: unknown, sessionId?: string) => ({ tabId: 7, method, params, ...(sessionId === undefined ? {} : { sessionId }) });

describe('followEvent', () => {
  it('takes a new document of the main frame, with its fragment', () => {
    expect(followEvent(known, event('Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'L2', url: 'https://x.test/b', urlFragment: '#top' } }))).toEqual({
      frameId: 'MAIN',
      loaderId: 'L2',
      url: 'https://x.test/b#top',
    });
  });

  it('takes a new URL within the document (pushState, hash)', () => {
    expect(followEvent(known, event('Page.navigatedWithinDocument', { frameId: 'MAIN', url: 'https://x.test/a#2' }))).toEqual({ ...known, url: 'https://x.test/a#2' });
  });

  it('ignores child frames, child sessions and other events', () => {
    expect(followEvent(known, event('Page.frameNavigated', { frame: { id: 'C', parentId: 'MAIN', loaderId: 'L9', url: 'https://y.test/' } }))).toBe(known);
    expect(followEvent(known, event('Page.navigatedWithinDocument', { frameId: 'C', url: 'https://y.test/#x' }))).toBe(known);
    expect(followEvent(known, event('Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'L9', url: 'https://y.test/' } }, 'OOPIF'))).toBe(known);
    expect(followEvent(known, event('Page.loadEventFired', { timestamp: 1 }))).toBe(known);
  });
});

describe('MainFrames', () => {
  function setup() {
    const env = createFakeEnvironment();
    const tabId = env.browser.addTab().id ?? 0;
    const page = { loaderId: 'L1', url: 'https://x.test/a', reads: 0 };
    env.debugger.handle('Page.getFrameTree', () => (page.reads++, { frameTree: { frame: { id: 'MAIN', loaderId: page.loaderId, url: page.url } } }));
    env.debugger.handle('Page.enable', () => ({}));
    return { ...env, tabId, page, frames: new MainFrames(env.cdp) };
  }

  it('reads once while events flow, then follows them', async () => {
    const { ctx, tabId, page, frames, debugger: fake } = setup();
    await ctx.cdp.send(tabId, 'Page.enable');
    expect(await frames.current(ctx, tabId, true)).toEqual({ frameId: 'MAIN', loaderId: 'L1', url: 'https://x.test/a' });
    fake.emit(tabId, 'Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'L2', url: 'https://x.test/b' } });
    expect(await frames.current(ctx, tabId, true)).toEqual({ frameId: 'MAIN', loaderId: 'L2', url: 'https://x.test/b' });
    expect(page.reads).toBe(1);
  });

  it('reads every time without events, and again after the session ended', async () => {
    const { ctx, tabId, page, frames } = setup();
    await frames.current(ctx, tabId, false);
    await frames.current(ctx, tabId, false);
    expect(page.reads).toBe(2);
    await frames.current(ctx, tabId, true);
    ctx.cdp.forgetTab(tabId);
    page.loaderId = 'L3';
    expect((await frames.current(ctx, tabId, true)).loaderId).toBe('L3');
    expect(page.reads).toBe(4);
  });
});
