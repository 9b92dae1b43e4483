import { describe, expect, it } from 'vitest';
import { ACTIVE_MS, Indicator, lookOf, type ActionLook } from './indicator.js';

describe('toolbar indicator', () => {
  it('grey when the host is not connected, normal when connected and idle', () => {
    expect(lookOf({ connected: false, paused: false, lastActivityAt: undefined, now: 0 })).toMatchObject({ icon: 'grey', badge: '' });
    expect(lookOf({ connected: true, paused: false, lastActivityAt: undefined, now: 0 })).toMatchObject({ icon: 'normal', badge: '' });
  });

  it('a badge while an agent acted in the last seconds, gone after', () => {
    expect(lookOf({ connected: true, paused: false, lastActivityAt: 1000, now: 1000 + ACTIVE_MS - 1 }).badge).toBe('ON');
    expect(lookOf({ connected: true, paused: false, lastActivityAt: 1000, now: 1000 + ACTIVE_MS }).badge).toBe('');
  });

  it('paused wins over activity and says so in the title', () => {
    const look = lookOf({ connected: true, paused: true, lastActivityAt: 1000, now: 1000 });
    expect(look.badge).toBe('||');
    expect(look.title).toContain('paused');
  });

  it('only talks to chrome.action when the look changes', async () => {
    const shown: ActionLook[] = [];
    const indicator = new Indicator({ show: async (look) => void shown.push(look) }, () => 0);
    indicator.update({ connected: true });
    indicator.update({ connected: true });
    indicator.update({ paused: true });
    expect(shown.map((l) => [l.icon, l.badge])).toEqual([['normal', ''], ['normal', '||']]);
  });
});
