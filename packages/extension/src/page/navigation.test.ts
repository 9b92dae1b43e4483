import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { classifyNavigationEvent, trackRequest, watchNavigation } from './navigation.js';

const before = { frameId: 'MAIN', loaderId: 'L1' };
const event = (method: string, params: unknown, tabId = 7) => ({ tabId, method, params });

describe('classifyNavigationEvent', () => {
  it('counts a renderer-requested navigation of the main frame in this tab', () => {
    expect(classifyNavigationEvent(event('Page.frameRequestedNavigation', { frameId: 'MAIN', disposition: 'currentTab' }), 7, before)).toBe('started');
  });

  it('ignores new-tab and download dispositions, child frames and other tabs', () => {
    expect(classifyNavigationEvent(event('Page.frameRequestedNavigation', { frameId: 'MAIN', disposition: 'newTab' }), 7, before)).toBeNull();
    expect(classifyNavigationEvent(event('Page.frameRequestedNavigation', { frameId: 'MAIN', disposition: 'download' }), 7, before)).toBeNull();
    expect(classifyNavigationEvent(event('Page.frameRequestedNavigation', { frameId: 'CHILD', disposition: 'currentTab' }), 7, before)).toBeNull();
    expect(classifyNavigationEvent(event('Page.frameRequestedNavigation', { frameId: 'MAIN', disposition: 'currentTab' }, 8), 7, before)).toBeNull();
  });

  it('counts cross-document starts only (hash and history-API changes keep the document)', () => {
    const started = (navigationType: string) =>
      classifyNavigationEvent(event('Page.frameStartedNavigating', { frameId: 'MAIN', navigationType, url: 'u', loaderId: 'L2' }), 7, before);
    expect(started('differentDocument')).toBe('started');
    expect(started('reload')).toBe('started');
    expect(started('historyDifferentDocument')).toBe('started');
    expect(started('sameDocument')).toBeNull();
    expect(started('historySameDocument')).toBeNull();
  });

  it('counts a commit of a new document in the main frame', () => {
    expect(classifyNavigationEvent(event('Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'L2' } }), 7, before)).toBe('committed');
    expect(classifyNavigationEvent(event('Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'L1' } }), 7, before)).toBeNull();
    expect(classifyNavigationEvent(event('Page.frameNavigated', { frame: { id: 'C', parentId: 'MAIN', loaderId: 'L9' } }), 7, before)).toBeNull();
    expect(classifyNavigationEvent(event('Page.navigatedWithinDocument', { frameId: 'MAIN' }), 7, before)).toBeNull();
  });
});

describe('trackRequest', () => {
  const pendingAfter = (...events: ReturnType<typeof event>[]) => {
    const pending = new Set<string>();
    for (const e of events) trackRequest(pending, e, 7);
    return [...pending];
  };

  it('follows the fetch and XHR requests of the tab until they finish or fail', () => {
    expect(pendingAfter(event('Network.requestWillBeSent', { requestId: 'r1', type: 'Fetch' }), event('Network.requestWillBeSent', { requestId: 'r2', type: 'XHR' }))).toEqual(['r1', 'r2']);
    expect(pendingAfter(event('Network.requestWillBeSent', { requestId: 'r1', type: 'Fetch' }), event('Network.loadingFinished', { requestId: 'r1' }))).toEqual([]);
    expect(pendingAfter(event('Network.requestWillBeSent', { requestId: 'r1', type: 'XHR' }), event('Network.loadingFailed', { requestId: 'r1' }))).toEqual([]);
  });

  it('ignores what no handler awaits (images, documents), other tabs and child sessions', () => {
    expect(pendingAfter(event('Network.requestWillBeSent', { requestId: 'r1', type: 'Image' }), event('Network.requestWillBeSent', { requestId: 'r2', type: 'Document' }))).toEqual([]);
    expect(pendingAfter(event('Network.requestWillBeSent', { requestId: 'r1', type: 'Fetch' }, 8))).toEqual([]);
    const pending = new Set<string>();
    trackRequest(pending, { ...event('Network.requestWillBeSent', { requestId: 'r1', type: 'Fetch' }), sessionId: 'S' }, 7);
    expect([...pending]).toEqual([]);
  });
});

describe('watchNavigation: settles on what the action set going, not on a timer', () => {
  const timing = { handlingMs: 1000, commitMs: 1000 };

  function setup() {
    const env = createFakeEnvironment({ deadlineMs: 60_000 });
    const tabId = env.browser.addTab({ url: 'https://x.test/a' }).id ?? 0;
    const page = { loaderId: 'L1', url: 'https://x.test/a', reads: 0 };
    env.debugger.handle('Page.getFrameTree', () => (page.reads++, { frameTree: { frame: { id: 'MAIN', loaderId: page.loaderId, url: page.url } } }));
    env.debugger.handle('Page.enable', () => ({}));
    const emit = (method: string, params: unknown) => env.debugger.emit(tabId, method, params);
    const navigate = (): void => {
      emit('Page.frameRequestedNavigation', { frameId: 'MAIN', disposition: 'currentTab', reason: 'scriptInitiated', url: 'https://x.test/b' });
      page.loaderId = 'L2';
      page.url = 'https://x.test/b';
      emit('Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'L2', url: 'https://x.test/b' } });
    };
    return { ...env, tabId, page, emit, navigate };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('an action that started nothing settles without waiting for any timer', async () => {
    const { ctx, tabId } = setup();
    vi.useFakeTimers();
    const started = Date.now();
    let turns = 0;
    const watch = watchNavigation(ctx, tabId, before, timing);
    // With fake timers nothing advances the clock: a settle that slept would never resolve.
    const outcome = await watch.settle({ turn: async () => void turns++, synced: true });
    expect(outcome).toEqual({ started: false, committed: false, url: 'https://x.test/a' });
    expect(Date.now()).toBe(started);
    expect(turns).toBe(0);
  });

  it('without a round trip after the input, it takes one turn to collect the input events', async () => {
    const { ctx, tabId, navigate } = setup();
    const watch = watchNavigation(ctx, tabId, before, timing);
    const outcome = await watch.settle({ turn: async () => navigate() });
    expect(outcome).toEqual({ started: true, committed: true, url: 'https://x.test/b' });
  });

  it('waits for the requests the action started, then gives the page a turn: a navigation there is the action’s', async () => {
    const { ctx, tabId, emit, navigate } = setup();
    const watch = watchNavigation(ctx, tabId, before, timing);
    emit('Network.requestWillBeSent', { requestId: 'r1', type: 'Fetch' });
    let turned = false;
    const settling = watch.settle({ turn: async () => ((turned = true), navigate()), synced: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(turned).toBe(false);
    emit('Network.loadingFinished', { requestId: 'r1' });
    expect(await settling).toEqual({ started: true, committed: true, url: 'https://x.test/b' });
    expect(turned).toBe(true);
  });

  it('a request that outlives handlingMs ends the wait; a later navigation is not reported', async () => {
    const { ctx, tabId, emit } = setup();
    vi.useFakeTimers();
    const watch = watchNavigation(ctx, tabId, before, timing);
    emit('Network.requestWillBeSent', { requestId: 'r1', type: 'XHR' });
    const settling = watch.settle({ turn: async () => undefined, synced: true });
    await vi.advanceTimersByTimeAsync(timing.handlingMs);
    expect(await settling).toEqual({ started: false, committed: false, url: 'https://x.test/a' });
  });

  it('a started navigation is waited for until it commits', async () => {
    const { ctx, tabId, emit } = setup();
    const watch = watchNavigation(ctx, tabId, before, timing);
    emit('Page.frameRequestedNavigation', { frameId: 'MAIN', disposition: 'currentTab', reason: 'anchorClick', url: 'https://x.test/b' });
    const settling = watch.settle({ synced: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    emit('Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'L2', url: 'https://x.test/b' } });
    expect((await settling).committed).toBe(true);
  });

  describe('the final read of the main frame', () => {
    const known = { ...before, url: 'https://x.test/a' };

    it('is skipped when nothing happened to the main frame on a session that stayed attached', async () => {
      const { ctx, tabId, page, emit } = setup();
      const watch = watchNavigation(ctx, tabId, known, timing);
      // Other frames' and other tabs' events say nothing about this main frame.
      emit('Page.frameNavigated', { frame: { id: 'CHILD', parentId: 'MAIN', loaderId: 'C2', url: 'https://x.test/c' } });
      expect(await watch.settle({ synced: true })).toEqual({ started: false, committed: false, url: 'https://x.test/a' });
      expect(page.reads).toBe(0);
    });

    it('is made after a same-document navigation (pushState, hash): the URL it reports is the new one', async () => {
      const { ctx, tabId, page, emit } = setup();
      const watch = watchNavigation(ctx, tabId, known, timing);
      page.url = 'https://x.test/a#two';
      emit('Page.navigatedWithinDocument', { frameId: 'MAIN', url: page.url, navigationType: 'fragment' });
      expect(await watch.settle({ synced: true })).toEqual({ started: false, committed: false, url: 'https://x.test/a#two' });
      expect(page.reads).toBe(1);
    });

    it('is made when the session detached meanwhile (its events are lost), and finds a commit it never heard of', async () => {
      const { ctx, tabId, page } = setup();
      await ctx.cdp.send(tabId, 'Page.enable');
      const watch = watchNavigation(ctx, tabId, known, timing);
      page.loaderId = 'L2';
      ctx.cdp.forgetTab(tabId);
      expect(await watch.settle({ synced: true })).toMatchObject({ started: true, committed: true });
      expect(page.reads).toBe(1);
    });

    it('is made when the caller does not know the URL it started from', async () => {
      const { ctx, tabId, page } = setup();
      const watch = watchNavigation(ctx, tabId, before, timing);
      await watch.settle({ synced: true });
      expect(page.reads).toBe(1);
    });
  });
});
