import { beforeAll, describe, expect, it } from 'vitest';
import { FakePages } from '../testing/fakePage.js';
import { createFakeEnvironment, type FakeEnvironment } from '../testing/fakeChrome.js';
import { WAIT_REPORT_MS } from '@chrome-relay/protocol';
import { DEADLINE_MARGIN_MS } from '../dispatcher.js';
import { DIAGNOSTICS_RESERVE_MS, waitTool } from './wait.js';
import { runTool } from '../testing/toolContext.js';

beforeAll(() => {
  (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
});

/** The tab's history entry at `url()`, and a page whose document has loaded. */
function history(env: FakeEnvironment, tab: number, url: () => string): void {
  const page = new FakePages(env.debugger).open(tab, { readyState: () => 'complete' });
  page.installed = true;
  env.debugger.handle('Page.getNavigationHistory', () => ({ currentIndex: 0, entries: [{ id: 1, url: url(), userTypedURL: '', title: 'T', transitionType: 'typed' }] }));
}

describe('wait', () => {
  it('fits inside the room the CLI leaves around --timeout, so the wait gets its whole budget', () => {
    // CLI: call deadline = budget + WAIT_REPORT_MS; dispatcher keeps DEADLINE_MARGIN_MS; wait keeps DIAGNOSTICS_RESERVE_MS.
    expect(DEADLINE_MARGIN_MS + DIAGNOSTICS_RESERVE_MS).toBeLessThan(WAIT_REPORT_MS - 200);
  });

  it('returns once the URL matches the glob', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    let url = 'https://shop.test/cart';
    history(env, tab, () => url);
    setTimeout(() => {
      url = 'https://shop.test/checkout/done';
    }, 150);
    const result = await runTool(waitTool, { url: '**/checkout/done', tab }, env.ctx);
    expect(result).toMatchObject({ tabId: tab, condition: 'url', url: 'https://shop.test/checkout/done' });
    expect(result.elapsedMs).toBeGreaterThanOrEqual(100);
  });

  it('times out with the page state, capped below the call deadline', async () => {
    const env = createFakeEnvironment({ deadlineMs: DIAGNOSTICS_RESERVE_MS + 300 });
    const tab = env.browser.addTab().id ?? 0;
    history(env, tab, () => 'https://shop.test/cart');
    const started = Date.now();
    const error = await runTool(waitTool, { url: '**/never', tab, timeoutMs: 60_000 }, env.ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'timeout', details: { tab, condition: 'url', url: 'https://shop.test/cart', readyState: 'complete' } });
    expect(String((error as Error).message)).toContain('raise --timeout');
    expect(Date.now() - started).toBeLessThan(DIAGNOSTICS_RESERVE_MS + 300);
  });

  it('fails at once when the page opens a dialog while waiting', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    history(env, tab, () => 'https://shop.test/cart');
    await env.cdp.attach(tab);
    setTimeout(() => env.debugger.emit(tab, 'Page.javascriptDialogOpening', { type: 'alert', message: 'Boo', url: 'https://shop.test/cart' }), 120);
    const started = Date.now();
    const error = await runTool(waitTool, { url: '**/never', tab, timeoutMs: 3_000 }, env.ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'target_conflict', details: { dialog: { type: 'alert', message: 'Boo' } } });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('evaluates --fn in the main world and ends on a truthy value', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    history(env, tab, () => 'https://a.test/');
    let calls = 0;
    env.debugger.handle('Runtime.evaluate', () => {
      calls++;
      return { result: { type: 'number', deepSerializedValue: { type: 'number', value: calls >= 3 ? 1 : 0 } } };
    });
    expect(await runTool(waitTool, { fn: 'window.count', tab }, env.ctx)).toMatchObject({ condition: 'fn' });
    expect(calls).toBe(3);
  });
});
