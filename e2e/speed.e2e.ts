/**
 * Issue 13: actions pay only for what they do. Navigation is detected from what the click set going
 * (its events, the requests its handler awaited, one turn of the page after them) instead of a fixed
 * sleep; the page's own state says what happened. (That a click which starts nothing settles without
 * any timer is pinned by the unit tests of page/navigation.ts: timing is never asserted here.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, until, type Relay } from './harness.js';
import { open, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

interface ClickResult {
  tabId: number;
  navigated: boolean;
  url: string;
}

describe('click: navigation detected from the click’s own handling', () => {
  it('a handler that awaits a fetch and then sets location.href is reported as navigated, and the old refs die', async () => {
    const tab = await open(relay, '/nav-async.html');
    const text = await snapshot(relay, tab.tabId);
    const click = await relay.cli('click', refFor(text, /button "Fetch then go"/));
    expect(click.code, click.stderr).toBe(0);
    // The fetch answers after 300 ms: a fixed 100 ms settle reported navigated: false here.
    expect(click.json).toMatchObject({ tabId: tab.tabId, navigated: true });
    expect((click.json as ClickResult).url).toContain('/nav-b.html');
    const stay = await relay.cli('click', refFor(text, /button "Stay"/));
    expect(stay.error).toMatchObject({ code: 'stale_ref', details: { reason: 'navigated' } });
  });

  it('a navigation that starts after the click’s handling is not reported, but still kills the refs', async () => {
    const tab = await open(relay, '/nav-async.html');
    const text = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    const click = await relay.cli('click', refFor(text, /button "Go later"/));
    expect(click.code, click.stderr).toBe(0);
    expect(click.json).toMatchObject({ navigated: false });
    expect(await read<string>(page, 'window.clicked')).toBe('later');
    await until(async () => page.url().includes('/nav-b.html') && (await read<string>(page, 'document.readyState')) === 'complete', 10_000, 'the late navigation');
    const stay = await relay.cli('click', refFor(text, /button "Stay"/));
    expect(stay.error).toMatchObject({ code: 'stale_ref', details: { reason: 'navigated' } });
    // The look-alike page got nothing.
    expect(await read<number | undefined>(page, 'window.pressed')).toBeUndefined();
  });

  it('a click that does not navigate is reported so, and did what it does', async () => {
    const tab = await open(relay, '/nav-async.html');
    const click = await relay.cli('click', refFor(await snapshot(relay, tab.tabId), /button "Stay"/));
    expect(click.code, click.stderr).toBe(0);
    expect(click.json).toMatchObject({ navigated: false });
    expect((click.json as ClickResult).url).toContain('/nav-async.html');
    expect(await read<number>(await relay.page(tab.path), 'window.stays')).toBe(1);
  });
});
