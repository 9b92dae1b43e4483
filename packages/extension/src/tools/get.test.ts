import { beforeAll, describe, expect, it } from 'vitest';
import type { ReadResult } from '../injected/reads.js';
import { createFakeEnvironment, type FakeEnvironment } from '../testing/fakeChrome.js';
import { FakePages } from '../testing/fakePage.js';
import { getTool } from './get.js';
import { runTool } from '../testing/toolContext.js';

beforeAll(() => {
  (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
});

/** A page whose element reads (the page API's readElement) answer `read`; records the arguments it was called with. */
function page(env: FakeEnvironment, tab: number, read: ReadResult): unknown[] {
  const calls: unknown[] = [];
  const fake = new FakePages(env.debugger).open(tab, {
    readElement: (args) => {
      calls.push(args);
      return read;
    },
  });
  fake.installed = true;
  env.debugger.handle('Page.getNavigationHistory', () => ({ currentIndex: 0, entries: [{ id: 1, url: 'https://a.test/x', userTypedURL: '', title: 'Title A', transitionType: 'typed' }] }));
  return calls;
}

describe('get', () => {
  it('reads title and url from the history entry, without touching the page', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    const calls = page(env, tab, { status: 'ok', value: 'unused' });
    expect(await runTool(getTool, { what: 'title', tab }, env.ctx)).toEqual({ tabId: tab, what: 'title', value: 'Title A' });
    expect(await runTool(getTool, { what: 'url', tab }, env.ctx)).toEqual({ tabId: tab, what: 'url', value: 'https://a.test/x' });
    expect(calls).toEqual([]);
  });

  it('reads elements through the page API in our isolated world, passing selector and attribute name', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    const calls = page(env, tab, { status: 'ok', value: '/next' });
    expect(await runTool(getTool, { what: 'attr', selector: 'a', name: 'href', tab }, env.ctx)).toEqual({ tabId: tab, what: 'attr', value: '/next' });
    expect(calls).toEqual([{ what: 'attr', selector: 'a', name: 'href' }]);
  });

  it.each([
    [{ status: 'none' } as ReadResult, 'element_not_found', undefined],
    [{ status: 'many', count: 3 } as ReadResult, 'invalid_arguments', 'selector'],
    [{ status: 'bad_selector', message: 'not valid' } as ReadResult, 'invalid_arguments', 'selector'],
    [{ status: 'no_value', tag: 'div' } as ReadResult, 'invalid_arguments', 'selector'],
  ])('maps %j to %s', async (read, code, field) => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    page(env, tab, read);
    const error = await runTool(getTool, { what: 'text', selector: '.x', tab }, env.ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code });
    if (field) expect(error).toMatchObject({ details: { field } });
  });
});
