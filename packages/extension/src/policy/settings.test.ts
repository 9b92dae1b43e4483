import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../testing/fakeBrowser.js';
import { checkSettings, DEFAULT_SETTINGS, SETTINGS_KEY, SettingsStore } from './settings.js';
import { PAUSE_KEY, PauseStore } from './pause.js';

describe('settings', () => {
  it('accepts valid settings, dropping blank and comment lines', () => {
    expect(checkSettings({ blockedSites: ['# note', 'bank.test', ''], agentTabsOnly: true, idleDetachSeconds: 30, remoteAgents: true })).toEqual({
      ok: true,
      settings: { blockedSites: ['bank.test'], agentTabsOnly: true, idleDetachSeconds: 30, remoteAgents: true, agentFiles: false, agentJs: true },
    });
  });

  it('reads settings an older build saved (no file or JavaScript switch) with those switches at their defaults', () => {
    expect(checkSettings({ blockedSites: [], agentTabsOnly: false, idleDetachSeconds: 15 })).toEqual({
      ok: true,
      settings: { blockedSites: [], agentTabsOnly: false, idleDetachSeconds: 15, remoteAgents: true, agentFiles: false, agentJs: true },
    });
    expect(checkSettings({ blockedSites: [], agentTabsOnly: false, idleDetachSeconds: 15, agentFiles: 'yes' })).toMatchObject({ ok: false, field: 'agentFiles' });
    expect(checkSettings({ blockedSites: [], agentTabsOnly: false, idleDetachSeconds: 15, agentJs: 1 })).toMatchObject({ ok: false, field: 'agentJs' });
  });

  it('rejects bad patterns (naming each line) and an idle time out of range', () => {
    const bad = checkSettings({ blockedSites: ['ok.test', 'not a host'], agentTabsOnly: false, idleDetachSeconds: 15, remoteAgents: true });
    expect(bad).toMatchObject({ ok: false, field: 'blockedSites', problems: [{ line: 'not a host' }] });
    expect(checkSettings({ blockedSites: [], agentTabsOnly: false, idleDetachSeconds: -1, remoteAgents: true })).toMatchObject({ ok: false, field: 'idleDetachSeconds' });
    expect(checkSettings({ blockedSites: [], agentTabsOnly: false, idleDetachSeconds: 1.5, remoteAgents: true })).toMatchObject({ ok: false, field: 'idleDetachSeconds' });
    expect(checkSettings({ blockedSites: [], agentTabsOnly: 'yes', idleDetachSeconds: 15, remoteAgents: true })).toMatchObject({ ok: false, field: 'agentTabsOnly' });
    expect(checkSettings(null)).toMatchObject({ ok: false });
  });

  it('agents on other machines: on unless the person turned them off; settings stored before the switch read as on', () => {
    expect(DEFAULT_SETTINGS.remoteAgents).toBe(true);
    expect(checkSettings({ blockedSites: [], agentTabsOnly: true, idleDetachSeconds: 15 })).toMatchObject({ ok: true, settings: { remoteAgents: true } });
    expect(checkSettings({ blockedSites: [], agentTabsOnly: true, idleDetachSeconds: 15, remoteAgents: false })).toMatchObject({ ok: true, settings: { remoteAgents: false } });
    expect(checkSettings({ blockedSites: [], agentTabsOnly: true, idleDetachSeconds: 15, remoteAgents: 'no' })).toMatchObject({ ok: false, field: 'remoteAgents' });
  });

  it('the store reads defaults from empty or foreign storage, saves, and tells listeners', async () => {
    const browser = new FakeBrowser();
    browser.local.set(SETTINGS_KEY, { blockedSites: 'not a list' });
    const store = new SettingsStore(browser);
    const seen: unknown[] = [];
    store.onChange((s) => seen.push(s));
    expect(await store.get()).toEqual(DEFAULT_SETTINGS);
    const saved = { ...DEFAULT_SETTINGS, blockedSites: ['bank.test'], agentTabsOnly: false, idleDetachSeconds: 5 };
    await store.save(saved);
    expect((await store.rules()).map((r) => r.text)).toEqual(['bank.test']);
    expect(await new SettingsStore(browser).get()).toEqual(saved);
    expect(seen).toHaveLength(2);
  });
});

describe('pause', () => {
  it('lasts across worker restarts until Resume, keeping when it began', async () => {
    const browser = new FakeBrowser();
    let now = 5_000;
    const store = new PauseStore(browser, () => now);
    expect(await store.get()).toEqual({ paused: false, since: null });
    await store.set(true);
    now = 9_000;
    await store.set(true);
    expect(await new PauseStore(browser).get()).toEqual({ paused: true, since: 5_000 });
    await store.set(false);
    expect(browser.local.get(PAUSE_KEY)).toEqual({ paused: false, since: null });
  });
});
