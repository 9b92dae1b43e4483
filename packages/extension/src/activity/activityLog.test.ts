import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../testing/fakeBrowser.js';
import { settle } from '../testing/fakeClock.js';
import { ACTIVITY_KEY, ActivityLog, RECENT_LIMIT, type ActivityEntry } from './activityLog.js';

const entry = (i: number, tab: number | null = 1): ActivityEntry => ({ at: 1000 + i, ms: 5, agent: 'claude', tool: 'click', tab, outcome: 'ok' });

describe('ActivityLog', () => {
  it('keeps the last 50 calls newest first, and the last call per tab', async () => {
    const log = new ActivityLog(new FakeBrowser());
    for (let i = 0; i < RECENT_LIMIT + 5; i++) await log.finish(log.start({ at: 0, agent: null, tool: 'x', tab: null }), entry(i, i % 2 === 0 ? 1 : 2));
    const recent = await log.recent();
    expect(recent).toHaveLength(RECENT_LIMIT);
    expect(recent[0]?.at).toBe(1000 + RECENT_LIMIT + 4);
    const last = await log.lastByTab();
    expect(last.get(1)?.at).toBe(1000 + RECENT_LIMIT + 4);
    expect(last.get(2)?.at).toBe(1000 + RECENT_LIMIT + 3);
    expect(log.lastActivityAt()).toBe(1000 + RECENT_LIMIT + 4 + 5);
  });

  it('lists running calls until they finish', async () => {
    const log = new ActivityLog(new FakeBrowser());
    const id = log.start({ at: 5, agent: 'a', tool: 'wait', tab: 3 });
    expect(log.running()).toEqual([{ id, at: 5, agent: 'a', tool: 'wait', tab: 3 }]);
    await log.finish(id, entry(1, 3));
    expect(log.running()).toEqual([]);
  });

  it('survives a worker restart through session storage, dropping malformed entries', async () => {
    const browser = new FakeBrowser();
    const log = new ActivityLog(browser);
    await log.finish(log.start({ at: 0, agent: null, tool: 'x', tab: 1 }), entry(1));
    await settle();
    const stored = browser.session.get(ACTIVITY_KEY) as { recent: unknown[] };
    browser.session.set(ACTIVITY_KEY, { ...stored, recent: [...stored.recent, { at: 'yesterday' }] });
    const restarted = new ActivityLog(browser);
    expect(await restarted.recent()).toEqual([entry(1)]);
    await restarted.forgetTab(1);
    expect((await restarted.lastByTab()).size).toBe(0);
  });
});
