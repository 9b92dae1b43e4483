import { describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { FakeBrowser } from '../testing/fakeBrowser.js';
import { staleRefError, tabClosedError, withWhereNavigated } from './refTarget.js';

describe('why a ref cannot be used', () => {
  it('an unknown ref is stale_ref telling the agent to snapshot again; a closed tab is target_not_found naming it', () => {
    const unknown = staleRefError('e999', 'unknown_ref');
    expect(unknown.code).toBe('stale_ref');
    expect(unknown.details).toEqual({ ref: 'e999', reason: 'unknown_ref' });
    expect(unknown.message).toContain('chrome-relay snapshot');
    const closed = tabClosedError('e7', 4);
    expect(closed).toMatchObject({ code: 'target_not_found', details: { ref: 'e7', tab: 4 } });
  });

  it('withWhereNavigated tells where a navigated ref’s tab is now; other errors, and a tab gone, pass as they came', async () => {
    const browser = new FakeBrowser();
    browser.addWindow({ focused: true });
    const tabA = browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    const stale = staleRefError('e7', 'navigated', tabA);
    const told = await withWhereNavigated(stale, browser);
    expect(told).toBeInstanceOf(RelayError);
    expect(told).toMatchObject({ code: 'stale_ref', details: { ref: 'e7', reason: 'navigated', tab: tabA, url: 'https://a.test/' } });
    expect((told as RelayError).message).toMatch(/^Ref @e7 is stale: its tab \(or the frame it is in\) navigated since the snapshot that issued it; tab \d+ now shows "https:\/\/a\.test\/"\. /);
    const other = new RelayError('timeout', 'x', { details: { reason: 'busy' } });
    expect(await withWhereNavigated(other, browser)).toBe(other);
    await browser.removeTab(tabA);
    expect(await withWhereNavigated(stale, browser)).toBe(stale);
  });
});
