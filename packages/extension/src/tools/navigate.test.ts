import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { SESSION_KEYS } from '../state/storage.js';
import { createFakeEnvironment, type FakeEnvironment } from '../testing/fakeChrome.js';
import { navigateTool, openableUrl } from './navigate.js';
import { runTool } from '../testing/toolContext.js';

async function rejection(promise: Promise<unknown>): Promise<RelayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

/** A page that commits loader L1 for `url` and then fires the given lifecycle events for it. */
function scriptPage(env: FakeEnvironment, url: string, options: { events?: string[]; early?: boolean; title?: string; responses?: [string, number][] } = {}): void {
  const events = options.events ?? ['DOMContentLoaded', 'load'];
  env.debugger.handle('Page.navigate', (_params, tabId) => {
    for (const [loaderId, status] of options.responses ?? []) env.debugger.emit(tabId, 'Network.responseReceived', { loaderId, type: 'Document', response: { status, url } });
    // The about:blank placeholder finishing late must never count as our document.
    env.debugger.emit(tabId, 'Page.lifecycleEvent', { frameId: 'F', loaderId: 'BLANK', name: 'load', timestamp: 1 });
    env.debugger.emit(tabId, 'Page.frameNavigated', { frame: { id: 'F', loaderId: 'L1', url }, type: 'Navigation' });
    const fire = () => {
      for (const name of events) env.debugger.emit(tabId, 'Page.lifecycleEvent', { frameId: 'F', loaderId: 'L1', name, timestamp: 2 });
    };
    if (options.early) fire();
    else setTimeout(fire, 5);
    return { frameId: 'F', loaderId: 'L1' };
  });
  env.debugger.handle('Page.getNavigationHistory', () => ({
    currentIndex: 1,
    entries: [
      { id: 1, url: 'about:blank', userTypedURL: '', title: '', transitionType: 'typed' },
      { id: 2, url, userTypedURL: url, title: options.title ?? 'Example', transitionType: 'typed' },
    ],
  }));
}

describe('openableUrl (the URL gate, as navigate applies it)', () => {
  it.each([
    ['https://example.com', 'debugger'],
    ['http://localhost:3000/x?y#z', 'debugger'],
    ['file:///tmp/a.html', 'debugger'],
    ['about:blank', 'tabs'],
    ['about:blank#x', 'tabs'],
    ['ABOUT:BLANK?y', 'tabs'],
    ['data:text/html,<p>hi', 'tabs'],
  ])('opens %s (with %s)', (url, openWith) => {
    expect(openableUrl(url).openWith).toBe(openWith);
  });

  function refusal(url: string): unknown {
    try {
      openableUrl(url);
    } catch (error) {
      return error;
    }
    throw new Error(`${url} was not refused`);
  }

  it.each(['example.com', 'localhost:3000', '/relative/path', 'javascript:alert(1)', 'ftp://host/file', 'blob:https://a.test/x', 'filesystem:https://a.test/temporary/x', 'ws://a.test/', ''])(
    'refuses %s as invalid_arguments on field url',
    (url) => {
      const caught = refusal(url);
      expect(caught).toBeInstanceOf(RelayError);
      expect(caught).toMatchObject({ code: 'invalid_arguments', details: { field: 'url' } });
    },
  );

  it.each(['about:version', 'about:settings', 'chrome://version', 'CHROME://settings/passwords', 'chrome://quit', 'devtools://devtools/bundled/inspector.html', 'view-source:https://a.test/', 'chrome-untrusted://terminal/', 'edge://settings', 'about:srcdoc'])(
    "refuses %s as one of the browser's own pages",
    (url) => {
      expect(refusal(url)).toMatchObject({ code: 'target_conflict', details: { reason: 'browser_page' } });
    },
  );

  it('refuses an extension page as the person\'s', () => {
    expect(refusal('chrome-extension://abc/page.html')).toMatchObject({ code: 'target_conflict', details: { reason: 'person_page' } });
  });
});

describe('navigate: what its result proves for the snapshot after it', () => {
  it('a document ready at DOMContentLoaded or load was parsed; one ready at commit, or not ready, maybe not', () => {
    const result = (ready: boolean) => ({ tabId: 1, url: 'https://a.test/', title: 'A', ready, newTab: false });
    const parsed = (wait: 'commit' | 'domcontentloaded' | 'load' | 'none' | undefined, ready: boolean) =>
      navigateTool.leavesParsed?.({ url: 'https://a.test/', ...(wait === undefined ? {} : { wait }) }, result(ready));
    expect([parsed(undefined, true), parsed('load', true), parsed('domcontentloaded', true)]).toEqual([true, true, true]);
    expect([parsed('commit', true), parsed('none', false), parsed('load', false), parsed(undefined, false)]).toEqual([false, false, false, false]);
  });
});

describe('navigate', () => {
  it('opens a background tab and waits for its own load, not the placeholder', async () => {
    const env = createFakeEnvironment();
    scriptPage(env, 'https://example.com/');
    const result = await runTool(navigateTool, { url: 'https://example.com' }, env.ctx);
    expect(result).toEqual({ tabId: result.tabId, url: 'https://example.com/', title: 'Example', ready: true, newTab: true });
    const tab = env.browser.tabs.get(result.tabId);
    expect(tab?.active).toBe(false);
    // A fresh session first gets focus emulation (cdpSession), then navigate's own commands.
    expect(env.debugger.methods(result.tabId).slice(0, 4)).toEqual(['Emulation.setFocusEmulationEnabled', 'Page.enable', 'Page.setLifecycleEventsEnabled', 'Page.navigate']);
  });

  it('counts lifecycle events that arrive before Page.navigate answers', async () => {
    const env = createFakeEnvironment();
    scriptPage(env, 'https://example.com/', { early: true });
    const result = await runTool(navigateTool, { url: 'https://example.com/', timeoutMs: 50 }, env.ctx);
    expect(result.ready).toBe(true);
  });

  it('returns ready:false at the deadline when only other documents load', async () => {
    const env = createFakeEnvironment();
    scriptPage(env, 'https://slow.test/', { events: ['DOMContentLoaded'] });
    const started = Date.now();
    const result = await runTool(navigateTool, { url: 'https://slow.test/', timeoutMs: 60 }, env.ctx);
    expect(result.ready).toBe(false);
    expect(result.url).toBe('https://slow.test/');
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('waits only for DOMContentLoaded when asked', async () => {
    const env = createFakeEnvironment();
    scriptPage(env, 'https://slow.test/', { events: ['DOMContentLoaded'] });
    const result = await runTool(navigateTool, { url: 'https://slow.test/', wait: 'domcontentloaded', timeoutMs: 1000 }, env.ctx);
    expect(result.ready).toBe(true);
  });

  it("returns at commit for wait 'commit'", async () => {
    const env = createFakeEnvironment();
    scriptPage(env, 'https://slow.test/', { events: [] });
    const result = await runTool(navigateTool, { url: 'https://slow.test/', wait: 'commit', timeoutMs: 1000 }, env.ctx);
    expect(result.ready).toBe(true);
  });

  it("does not wait at all for wait 'none'", async () => {
    const env = createFakeEnvironment();
    env.debugger.handle('Page.navigate', () => new Promise(() => undefined));
    const result = await runTool(navigateTool, { url: 'https://hang.test/', wait: 'none' }, env.ctx);
    expect(result).toMatchObject({ ready: false, newTab: true });
  });

  it('returns ready:false when Page.navigate itself outlives the deadline', async () => {
    const env = createFakeEnvironment();
    env.debugger.handle('Page.navigate', () => new Promise(() => undefined));
    const result = await runTool(navigateTool, { url: 'https://hang.test/', timeoutMs: 30 }, env.ctx);
    expect(result.ready).toBe(false);
    expect(env.browser.tabs.has(result.tabId)).toBe(true);
  });

  it('never waits past the call deadline even with a larger timeoutMs', async () => {
    const env = createFakeEnvironment({ deadlineMs: 40 });
    env.debugger.handle('Page.navigate', () => new Promise(() => undefined));
    const started = Date.now();
    const result = await runTool(navigateTool, { url: 'https://hang.test/', timeoutMs: 60_000 }, env.ctx);
    expect(result.ready).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reports a network failure as cdp_error naming it, and closes the tab it opened', async () => {
    const env = createFakeEnvironment();
    env.debugger.handle('Page.navigate', () => ({ frameId: 'F', loaderId: 'L1', errorText: 'net::ERR_CONNECTION_REFUSED' }));
    const before = env.browser.tabs.size;
    const error = await rejection(runTool(navigateTool, { url: 'http://localhost:1/' }, env.ctx));
    expect(error.code).toBe('cdp_error');
    expect(error.message).toContain('net::ERR_CONNECTION_REFUSED');
    expect(error.details).toMatchObject({ errorText: 'net::ERR_CONNECTION_REFUSED', url: 'http://localhost:1/' });
    expect(env.browser.tabs.size).toBe(before);
  });

  it('navigates an explicit tab in place (the dispatcher remembers it)', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://old.test/' });
    scriptPage(env, 'https://new.test/');
    const result = await runTool(navigateTool, { url: 'https://new.test/', tab: tab.id }, env.ctx);
    expect(result).toMatchObject({ tabId: tab.id, newTab: false, ready: true });
    expect(env.browser.calls).not.toContain('createTab');
  });

  it('rejects a missing explicit tab with target_not_found and opens nothing', async () => {
    const env = createFakeEnvironment();
    const error = await rejection(runTool(navigateTool, { url: 'https://a.test/', tab: 404 }, env.ctx));
    expect(error.code).toBe('target_not_found');
    expect(env.browser.calls).not.toContain('createTab');
  });

  it('fails with target_not_found when the tab closes while waiting', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({});
    const tabId = tab.id ?? 0;
    scriptPage(env, 'https://a.test/', { events: [] });
    const pending = runTool(navigateTool, { url: 'https://a.test/', tab: tabId, timeoutMs: 5000 }, env.ctx);
    await tick(10);
    env.debugger.detachByChrome(tabId, 'target_closed');
    const error = await rejection(pending);
    expect(error.code).toBe('target_not_found');
  });

  it('treats a same-document navigation (no loaderId) as ready once Chrome reports it, with its URL', async () => {
    const env = createFakeEnvironment();
    scriptPage(env, 'https://a.test/');
    env.debugger.handle('Page.navigate', (_params, tabId) => {
      setTimeout(() => env.debugger.emit(tabId, 'Page.navigatedWithinDocument', { frameId: 'F', url: 'https://a.test/#part', navigationType: 'fragment' }), 5);
      return { frameId: 'F' };
    });
    const result = await runTool(navigateTool, { url: 'https://a.test/#part', timeoutMs: 1000 }, env.ctx);
    expect(result).toMatchObject({ ready: true, url: 'https://a.test/#part', title: 'Example' });
  });

  it('opens data: URLs with chrome.tabs (CDP cannot) and waits on the tab status', async () => {
    const env = createFakeEnvironment();
    const url = 'data:text/html,<title>D</title>hi';
    const result = await runTool(navigateTool, { url }, env.ctx);
    expect(result).toMatchObject({ url, ready: true, newTab: true });
    expect(env.browser.tabs.get(result.tabId)?.active).toBe(false);
    expect(env.debugger.sent).toEqual([]);
  });

  it('navigates an explicit tab to about:blank with chrome.tabs.update, never Page.navigate (which crashed the browser)', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' });
    const result = await runTool(navigateTool, { url: 'about:blank?x', tab: tab.id }, env.ctx);
    expect(result).toMatchObject({ tabId: tab.id, url: 'about:blank?x', ready: true, newTab: false });
    // With a fragment, only in a new tab: chrome.tabs.update of a fresh tab to about:blank#x crashed the browser.
    expect(await rejection(runTool(navigateTool, { url: 'about:blank#x', tab: tab.id }, env.ctx))).toMatchObject({ code: 'invalid_arguments', details: { field: 'tab' } });
    expect(env.browser.calls).toContain('updateTab');
    expect(env.debugger.sent).toEqual([]);
  });

  it("sends nothing for one of the browser's own pages, new tab or given", async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' });
    for (const params of [{ url: 'about:version' }, { url: 'chrome://settings', tab: tab.id }]) {
      expect(await rejection(runTool(navigateTool, params, env.ctx))).toMatchObject({ code: 'target_conflict', details: { reason: 'browser_page' } });
    }
    expect(env.browser.calls.filter((call) => call === 'updateTab' || call === 'createTab')).toEqual([]);
    expect(env.debugger.sent).toEqual([]);
  });

  it('reports ready:false for a chrome.tabs navigation still loading at the deadline', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' });
    const tabId = tab.id ?? 0;
    const update = env.browser.updateTab.bind(env.browser);
    env.browser.updateTab = async (id, properties) => {
      const updated = await update(id, properties);
      const live = env.browser.tabs.get(id);
      if (live) live.status = 'loading';
      return updated;
    };
    const result = await runTool(navigateTool, { url: 'about:blank', tab: tabId, timeoutMs: 120 }, env.ctx);
    expect(result.ready).toBe(false);
  });

  it('refuses a data: URL for an existing tab (Chrome ignores it) with invalid_arguments on tab', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({});
    const error = await rejection(runTool(navigateTool, { url: 'data:text/html,x', tab: tab.id }, env.ctx));
    expect(error).toMatchObject({ code: 'invalid_arguments', details: { field: 'tab' } });
  });

  it('carries the HTTP status of its own document (a 404 loaded: it is a result, not an error); a redirect gives the last one', async () => {
    const env = createFakeEnvironment();
    scriptPage(env, 'https://a.test/missing', { responses: [['BLANK', 200], ['L1', 301], ['L1', 404]] });
    const result = await navigateTool.handle({ url: 'https://a.test/missing' }, env.ctx);
    expect(result).toMatchObject({ ready: true, status: 404 });
  });

  it('a data: URL opens a new tab when the call’s tab is only the remembered one', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({});
    const ctx = { ...env.ctx, target: { kind: 'tab' as const, tab: tab.id ?? 0, via: 'remembered' as const } };
    const result = await navigateTool.handle({ url: 'data:text/html,x', tab: tab.id }, ctx);
    expect(result).toMatchObject({ newTab: true });
    expect(result.tabId).not.toBe(tab.id);
  });
});
