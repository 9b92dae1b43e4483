import { describe, expect, it } from 'vitest';
import { createFakeEnvironment, type FakeEnvironment } from '../testing/fakeChrome.js';
import { CommitWatcher, runNavigation } from './readiness.js';

function history(env: FakeEnvironment, url: string, title: string): void {
  env.debugger.handle('Page.getNavigationHistory', () => ({ currentIndex: 0, entries: [{ id: 1, url, userTypedURL: url, title, transitionType: 'typed' }] }));
  env.debugger.handle('Page.getFrameTree', () => ({ frameTree: { frame: { id: 'MAIN', loaderId: 'OLD', url, securityOrigin: '', mimeType: 'text/html' } } }));
}

describe('CommitWatcher', () => {
  it('takes the first main-frame commit and ignores subframes and child sessions', () => {
    const watcher = new CommitWatcher(1, 'MAIN');
    watcher.observe({ tabId: 1, method: 'Page.frameNavigated', params: { frame: { id: 'SUB', parentId: 'MAIN', loaderId: 'S' }, type: 'Navigation' } });
    watcher.observe({ tabId: 1, sessionId: 'X', method: 'Page.frameNavigated', params: { frame: { id: 'O', loaderId: 'O' }, type: 'Navigation' } });
    expect(watcher.commit).toBeUndefined();
    watcher.observe({ tabId: 1, method: 'Page.frameNavigated', params: { frame: { id: 'MAIN', loaderId: 'NEW' }, type: 'Navigation' } });
    expect(watcher.commit).toEqual({ kind: 'document', loaderId: 'NEW' });
  });

  it('recognises back/forward-cache restores and same-document moves', () => {
    const restored = new CommitWatcher(1, 'MAIN');
    restored.observe({ tabId: 1, method: 'Page.frameNavigated', params: { frame: { id: 'MAIN', loaderId: 'L' }, type: 'BackForwardCacheRestore' } });
    expect(restored.commit).toEqual({ kind: 'restored' });
    const same = new CommitWatcher(1, 'MAIN');
    same.observe({ tabId: 1, method: 'Page.navigatedWithinDocument', params: { frameId: 'MAIN', url: 'https://a.test/#x' } });
    expect(same.commit).toEqual({ kind: 'sameDocument', url: 'https://a.test/#x' });
  });
});

describe('runNavigation', () => {
  it('waits for the load of the document the command committed, not an earlier one', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    history(env, 'https://a.test/', 'A');
    env.debugger.handle('Page.reload', (_params, tabId) => {
      env.debugger.emit(tabId, 'Page.lifecycleEvent', { frameId: 'MAIN', loaderId: 'OLD', name: 'load', timestamp: 1 });
      env.debugger.emit(tabId, 'Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'NEW', url: 'https://a.test/' }, type: 'Navigation' });
      setTimeout(() => env.debugger.emit(tabId, 'Page.lifecycleEvent', { frameId: 'MAIN', loaderId: 'NEW', name: 'load', timestamp: 2 }), 20);
      return {};
    });
    const started = Date.now();
    const state = await runNavigation(env.ctx, tab, () => env.cdp.send(tab, 'Page.reload', {}), 'load', Date.now() + 2_000);
    expect(state).toEqual({ ready: true, url: 'https://a.test/', title: 'A' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('answers ready:false at the deadline, and reports a dialog at once', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    history(env, 'https://a.test/', 'A');
    env.debugger.handle('Page.reload', () => ({}));
    expect(await runNavigation(env.ctx, tab, () => env.cdp.send(tab, 'Page.reload', {}), 'load', Date.now() + 50)).toMatchObject({ ready: false });

    env.debugger.handle('Page.reload', (_params, tabId) => {
      env.debugger.emit(tabId, 'Page.javascriptDialogOpening', { type: 'beforeunload', message: '', url: 'https://a.test/' });
      return new Promise(() => undefined);
    });
    const state = await runNavigation(env.ctx, tab, () => env.cdp.send(tab, 'Page.reload', {}), 'load', Date.now() + 5_000);
    expect(state).toEqual({ ready: false, url: 'https://a.test/', title: 'A', dialog: { type: 'beforeunload', message: '', url: 'https://a.test/' } });
  });
});
