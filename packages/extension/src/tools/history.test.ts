import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { createFakeEnvironment, type FakeEnvironment } from '../testing/fakeChrome.js';
import { backTool, forwardTool } from './history.js';
import { runTool } from '../testing/toolContext.js';

const entries = [
  { id: 1, url: 'about:blank', userTypedURL: '', title: '', transitionType: 'typed' },
  { id: 2, url: 'https://a.test/', userTypedURL: '', title: 'A', transitionType: 'typed' },
  { id: 3, url: 'https://b.test/', userTypedURL: '', title: 'B', transitionType: 'typed' },
];

function scripted(env: FakeEnvironment, currentIndex: number): { sent: number[] } {
  let index = currentIndex;
  const sent: number[] = [];
  env.debugger.handle('Page.getNavigationHistory', () => ({ currentIndex: index, entries }));
  env.debugger.handle('Page.getFrameTree', () => ({ frameTree: { frame: { id: 'MAIN', loaderId: 'L0', url: '', securityOrigin: '', mimeType: 'text/html' } } }));
  env.debugger.handle('Page.navigateToHistoryEntry', (params, tabId) => {
    const entryId = (params as { entryId: number }).entryId;
    sent.push(entryId);
    index = entries.findIndex((e) => e.id === entryId);
    env.debugger.emit(tabId, 'Page.frameNavigated', { frame: { id: 'MAIN', loaderId: `L${entryId}` }, type: 'BackForwardCacheRestore' });
    return {};
  });
  return { sent };
}

describe('back / forward', () => {
  it('goes to the neighbouring entry and reports the document it restored', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    const { sent } = scripted(env, 2);
    expect(await runTool(backTool, { tab }, env.ctx)).toEqual({ tabId: tab, url: 'https://a.test/', title: 'A', ready: true });
    expect(await runTool(forwardTool, { tab }, env.ctx)).toEqual({ tabId: tab, url: 'https://b.test/', title: 'B', ready: true });
    expect(sent).toEqual([2, 3]);
  });

  it('fails with target_not_found, and sends nothing, at either end of the history', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    const { sent } = scripted(env, 2);
    const error = await runTool(forwardTool, { tab }, env.ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ code: 'target_not_found', details: { tab, historyIndex: 2, historyLength: 3 } });
    expect(sent).toEqual([]);
  });
});
