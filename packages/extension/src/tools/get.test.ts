import { describe, expect, it } from 'vitest';
import { createFakeEnvironment, type FakeEnvironment } from '../testing/fakeChrome.js';
import { getTool, type ReadResult } from './get.js';

/** A page whose isolated-world reads answer `read`; records the arguments it was called with. */
function page(env: FakeEnvironment, read: ReadResult): unknown[][] {
  const calls: unknown[][] = [];
  env.debugger.handle('Page.getFrameTree', () => ({ frameTree: { frame: { id: 'MAIN', loaderId: 'L', url: '', securityOrigin: '', mimeType: 'text/html' } } }));
  env.debugger.handle('Page.createIsolatedWorld', () => ({ executionContextId: 9 }));
  env.debugger.handle('Runtime.callFunctionOn', (params) => {
    const p = params as { executionContextId: number; arguments: { value: unknown }[] };
    expect(p.executionContextId).toBe(9);
    calls.push(p.arguments.map((a) => a.value));
    return { result: { type: 'object', value: read } };
  });
  env.debugger.handle('Page.getNavigationHistory', () => ({ currentIndex: 0, entries: [{ id: 1, url: 'https://a.test/x', userTypedURL: '', title: 'Title A', transitionType: 'typed' }] }));
  return calls;
}

describe('get', () => {
  it('reads title and url from the history entry, without touching the page', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    const calls = page(env, { status: 'ok', value: 'unused' });
    expect(await getTool.handle({ what: 'title', tab }, env.ctx)).toEqual({ tabId: tab, what: 'title', value: 'Title A' });
    expect(await getTool.handle({ what: 'url', tab }, env.ctx)).toEqual({ tabId: tab, what: 'url', value: 'https://a.test/x' });
    expect(calls).toEqual([]);
  });

  it('reads elements in the isolated world and passes selector and attribute name', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    const calls = page(env, { status: 'ok', value: '/next' });
    expect(await getTool.handle({ what: 'attr', selector: 'a', name: 'href', tab }, env.ctx)).toEqual({ tabId: tab, what: 'attr', value: '/next' });
    expect(calls).toEqual([['attr', 'a', 'href']]);
  });

  it.each([
    [{ status: 'none' } as ReadResult, 'element_not_found', undefined],
    [{ status: 'many', count: 3 } as ReadResult, 'invalid_arguments', 'selector'],
    [{ status: 'bad_selector', message: 'not valid' } as ReadResult, 'invalid_arguments', 'selector'],
    [{ status: 'no_value', tag: 'div' } as ReadResult, 'invalid_arguments', 'selector'],
  ])('maps %j to %s', async (read, code, field) => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    page(env, read);
    const error = await getTool.handle({ what: 'text', selector: '.x', tab }, env.ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code });
    if (field) expect(error).toMatchObject({ details: { field } });
  });
});
