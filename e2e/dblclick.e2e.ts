/**
 * `dblclick @ref`: a pointer tool added on the one pointer-action path (two hand-edited files: its entry and its
 * handler), so it is aimed, proven and refused like a click: the element itself hears both clicks and the dblclick,
 * a covered element is refused before anything is sent, and a second press that something else would take (a box the
 * first click opened over the row) is cancelled and reported — the box hears nothing of it.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type Relay } from './harness.js';
import { open, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

interface PageRecord {
  clicks: Record<string, number>;
  dblclicks: Record<string, number>;
  editing: string | null;
  veil: string[];
  pop: string[];
  trusted: boolean[];
}

async function fixture(): Promise<{ tabId: number; page: Page; refs: { plain: string; covered: string; popping: string } }> {
  const tab = await open(relay, '/dblclick.html');
  const text = await snapshot(relay, tab.tabId);
  const refs = { plain: refFor(text, /button "report\.pdf"/), covered: refFor(text, /button "notes\.txt"/), popping: refFor(text, /button "draft\.doc"/) };
  return { tabId: tab.tabId, page: await relay.page(tab.path), refs };
}

describe('dblclick @ref', () => {
  it('double-clicks the element: it hears both clicks and the dblclick, all trusted', async () => {
    const { page, refs } = await fixture();
    const result = await relay.cli('dblclick', refs.plain, '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({ ref: refs.plain.slice(1) });
    const record = await read<PageRecord>(page, 'window.record');
    expect(record).toMatchObject({ clicks: { plain: 2 }, dblclicks: { plain: 1 }, editing: 'plain' });
    expect(record.trusted).toEqual([true, true, true]);
  });

  it('a covered element is click_intercepted naming the cover, before anything is sent: the cover hears nothing', async () => {
    const { page, refs } = await fixture();
    await page.evaluate('window.veil(true)');
    const result = await relay.cli('dblclick', refs.covered);
    expect(result.code, result.stdout).toBe(1);
    expect(result.error?.code, result.stderr).toBe('click_intercepted');
    expect(result.error?.details).toMatchObject({ when: 'before_pointer' });
    expect(result.error?.message).toMatch(/^Double-click on @e\d+ was not delivered/);
    expect(await read<PageRecord>(page, 'window.record')).toMatchObject({ clicks: {}, dblclicks: {}, editing: null, veil: [] });
  });

  it('a second press that a box the first click opened would take is cancelled: no dblclick, never a success, the box hears nothing', async () => {
    const { page, refs } = await fixture();
    const result = await relay.cli('dblclick', refs.popping);
    expect(result.code, result.stdout).toBe(1);
    expect(result.error?.code, result.stderr).toBe('click_intercepted');
    const record = await read<PageRecord>(page, 'window.record');
    expect(record.dblclicks).toEqual({});
    expect(record.editing).toBeNull();
    expect(record.pop).toEqual([]);
  });
});
