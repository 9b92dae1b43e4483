import type { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import type { CallTabs } from '../targeting/resolveCall.js';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { fakeOrganize } from '../testing/fakeOrganize.js';
import { AgentTabs } from './agentTabs.js';
import { PauseStore } from './pause.js';
import { AGENT_GROUP_TITLE, blockedFrameError, Policy } from './policy.js';
import { SettingsStore, type Settings } from './settings.js';

async function setup(settings: Partial<Settings> = {}) {
  const env = createFakeEnvironment();
  const organize = fakeOrganize(env.browser);
  const store = new SettingsStore(env.browser);
  const pause = new PauseStore(env.browser);
  const agentTabs = new AgentTabs(env.browser);
  const policy = new Policy({ browser: env.browser, organize, sessions: env.cdp, settings: store, pause, agentTabs });
  await store.save({ blockedSites: [], agentTabsOnly: false, idleDetachSeconds: 15, ...settings });
  const personTab = env.browser.addTab({ url: 'https://news.test/' }).id ?? 0;
  const bankTab = env.browser.addTab({ url: 'https://bank.test/account' }).id ?? 0;
  const agentTab = env.browser.addTab({ url: 'https://shop.test/' }).id ?? 0;
  await agentTabs.add(agentTab);
  return { ...env, organize, store, pause, agentTabs, policy, personTab, bankTab, agentTab };
}

const one = (tab: number): CallTabs => ({ kind: 'tab', tab, via: 'explicit' });
const none: CallTabs = { kind: 'none' };

async function refusal(promise: Promise<unknown>): Promise<RelayError> {
  try {
    await promise;
  } catch (error) {
    return error as RelayError;
  }
  throw new Error('expected a refusal');
}

describe('Policy: pause', () => {
  it('refuses every tool with paused_by_user while paused, except ping and restart_host', async () => {
    const { policy } = await setup();
    await policy.setPaused(true);
    const error = await refusal(policy.checkPause('click'));
    expect(error.code).toBe('target_conflict');
    expect(error.details['reason']).toBe('paused_by_user');
    expect(error.message).toContain('paused chrome-relay');
    expect(error.message).toContain('Resume');
    await expect(policy.checkPause('tabs')).rejects.toMatchObject({ code: 'target_conflict' });
    await policy.checkPause('ping');
    await policy.checkPause('restart_host');
    await policy.setPaused(false);
    await policy.checkPause('click');
  });

  it('pausing stops calls in flight and detaches every session; no attach while paused', async () => {
    const { policy, cdp, debugger: fake, personTab, agentTab } = await setup();
    cdp.setAttachGuard((tabId) => policy.guardAttach(tabId));
    await cdp.attach(personTab);
    await cdp.attach(agentTab);
    const stopped: RelayError[] = [];
    const watch = policy.watch('click', (error) => stopped.push(error));
    await policy.setPaused(true);
    expect(stopped.map((e) => e.details['reason'])).toEqual(['paused_by_user']);
    expect(stopped[0]?.details['interrupted']).toBe(true);
    expect(stopped[0]?.retryable).toBe(false);
    expect([...fake.attached]).toEqual([]);
    const attachesBefore = fake.attachCalls;
    expect((await refusal(cdp.attach(agentTab))).details['reason']).toBe('paused_by_user');
    expect(fake.attachCalls).toBe(attachesBefore);
    watch.close();
  });
});

describe('Policy: site block list', () => {
  it('refuses a call on a blocked tab, naming the rule and the URL', async () => {
    const { policy, bankTab, personTab } = await setup({ blockedSites: ['bank.test'] });
    const error = await refusal(policy.checkTabs('snapshot', {}, one(bankTab)));
    expect(error.code).toBe('target_conflict');
    expect(error.details).toMatchObject({ reason: 'site_blocked', rule: 'bank.test', tab: bankTab, url: 'https://bank.test/account' });
    await policy.checkTabs('snapshot', {}, one(personTab));
  });

  it('refuses a tab whose pending navigation is blocked, and a navigate to a blocked URL', async () => {
    const { policy, browser, personTab } = await setup({ blockedSites: ['bank.test'] });
    const tab = browser.tabs.get(personTab);
    if (tab) tab.pendingUrl = 'https://bank.test/login';
    expect((await refusal(policy.checkTabs('click', {}, one(personTab)))).details['reason']).toBe('site_blocked');
    const nav = await refusal(policy.checkTabs('navigate', { url: 'https://www.bank.test/' }, none));
    expect(nav.details).toMatchObject({ reason: 'site_blocked', rule: 'bank.test', url: 'https://www.bank.test/' });
  });

  it('also checks tab ids a tool manages directly (group_create tabs)', async () => {
    const { policy, bankTab, agentTab } = await setup({ blockedSites: ['bank.test'] });
    expect((await refusal(policy.checkTabs('group_create', { name: 'g', tabs: [agentTab, bankTab] }, none))).details['tab']).toBe(bankTab);
  });

  it('the attach guard refuses a blocked tab before any session exists', async () => {
    const { policy, cdp, debugger: fake, bankTab } = await setup({ blockedSites: ['bank.test'] });
    cdp.setAttachGuard((tabId) => policy.guardAttach(tabId));
    expect((await refusal(cdp.send(bankTab, 'Page.enable'))).details['reason']).toBe('site_blocked');
    expect(fake.attachCalls).toBe(0);
  });

  it('a tab that navigates onto a blocked site loses its session and its call is stopped', async () => {
    const { policy, cdp, debugger: fake, agentTab } = await setup({ blockedSites: ['bank.test'] });
    await cdp.attach(agentTab);
    const stopped: RelayError[] = [];
    const watch = policy.watch('click', (error) => stopped.push(error));
    watch.setTabs([agentTab]);
    await policy.tabUrlChanged(agentTab, 'https://bank.test/');
    expect(fake.attached.has(agentTab)).toBe(false);
    expect(stopped[0]?.details).toMatchObject({ reason: 'site_blocked', tab: agentTab, interrupted: true });
    await policy.tabUrlChanged(agentTab, 'https://shop.test/');
    expect(stopped).toHaveLength(1);
  });

  it('saving a rule detaches tabs it now blocks', async () => {
    // The policy subscribes to the settings store when it is made (inside setup).
    const { store, cdp, debugger: fake, bankTab, agentTab } = await setup();
    await cdp.attach(bankTab);
    await cdp.attach(agentTab);
    await store.save({ blockedSites: ['bank.test'], agentTabsOnly: false, idleDetachSeconds: 15 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.attached.has(bankTab)).toBe(false);
    expect(fake.attached.has(agentTab)).toBe(true);
  });
});

describe('blockedFrameError', () => {
  it('names what was aimed, the frame’s origin (never its path) and the rule, and says nothing was done', () => {
    const block = { rule: 'bank.test', url: 'https://bank.test/acct/4711?id=9' };
    const cases = [
      [{ ref: 'e3', is: 'inside' as const }, '@e3 is inside a frame of tab 5'],
      [{ ref: 'e2', is: 'frame' as const }, '@e2 is a frame of tab 5'],
      [{ point: { x: 10, y: 20 }, ref: 'e4' }, 'The input at (10, 20) for @e4 would go into a frame of tab 5'],
      [{ focus: true as const }, 'Keyboard focus is inside a frame of tab 5'],
    ] as const;
    for (const [aim, start] of cases) {
      const error = blockedFrameError(5, block, aim);
      expect(error.message.startsWith(`${start}'s page that shows https://bank.test, a site the person blocked for agents (rule "bank.test"`)).toBe(true);
      expect(error.message).toContain('nothing was done');
      expect(error.message).not.toContain('4711');
      expect(error.code).toBe('target_conflict');
      expect(error.retryable).toBe(false);
      expect(error.details).toMatchObject({ reason: 'site_blocked', tab: 5, origin: 'https://bank.test', rule: 'bank.test', frame: true });
      expect(JSON.stringify(error.details)).not.toContain('4711');
    }
  });
});

describe('Policy: agent tabs only', () => {
  it('refuses a tab the person opened, allows tabs chrome-relay opened', async () => {
    const { policy, personTab, agentTab } = await setup({ agentTabsOnly: true });
    const error = await refusal(policy.checkTabs('snapshot', {}, one(personTab)));
    expect(error.code).toBe('target_conflict');
    expect(error.details).toMatchObject({ reason: 'not_agent_tab', tab: personTab });
    expect(error.message).toContain('chrome-relay navigate');
    await policy.checkTabs('snapshot', {}, one(agentTab));
  });

  it('allows a person tab once it is in a tab group titled "chrome-relay" (and only that title)', async () => {
    const { policy, organize, browser, personTab } = await setup({ agentTabsOnly: true });
    const other = await organize.groupTabs([personTab]);
    await organize.updateGroup(other, { title: 'Chrome-Relay work' });
    const tab = browser.tabs.get(personTab);
    if (tab) tab.groupId = other;
    expect((await refusal(policy.checkTabs('click', {}, one(personTab)))).details['reason']).toBe('not_agent_tab');
    const lent = await organize.groupTabs([personTab]);
    await organize.updateGroup(lent, { title: AGENT_GROUP_TITLE });
    if (tab) tab.groupId = lent;
    await policy.checkTabs('click', {}, one(personTab));
  });

  it('a tab opened by an agent tab is an agent tab; navigate and workspace_create results are recorded', async () => {
    const { policy, agentTabs, browser, agentTab } = await setup({ agentTabsOnly: true });
    const child = browser.addTab({ url: 'https://shop.test/cart' }).id ?? 0;
    await agentTabs.addIfOpenedByAgentTab(child, agentTab);
    await policy.checkTabs('click', {}, one(child));
    const opened = browser.addTab().id ?? 0;
    await policy.noteResult('navigate', { tabId: opened, newTab: true });
    await policy.checkTabs('click', {}, one(opened));
    const reused = browser.addTab().id ?? 0;
    await policy.noteResult('navigate', { tabId: reused, newTab: false });
    expect((await refusal(policy.checkTabs('click', {}, one(reused)))).details['reason']).toBe('not_agent_tab');
  });

  it('tabs lists a tab on a blocked site by its origin only, without its title; other tabs and other tools untouched', async () => {
    const { policy, bankTab, personTab } = await setup({ blockedSites: ['bank.test'] });
    const tab = (id: number, url: string, title: string) => ({ id, windowId: 1, index: 0, url, title, active: false, status: 'complete', groupId: -1 });
    const listed = {
      windows: [{ id: 1, focused: true, type: 'normal', tabs: [tab(bankTab, 'https://bank.test/account?id=991', 'Balance: $12,400 — Bank'), tab(personTab, 'https://news.test/', 'News')] }],
    };
    expect(await policy.noteResult('tabs', listed)).toEqual({
      windows: [{ id: 1, focused: true, type: 'normal', tabs: [tab(bankTab, 'https://bank.test/', ''), tab(personTab, 'https://news.test/', 'News')] }],
    });
    const read = { tabId: bankTab, title: 'Balance' };
    expect(await policy.noteResult('get', read)).toBe(read);
  });

  it('leaves calls that name no tab alone', async () => {
    const { policy } = await setup({ agentTabsOnly: true, blockedSites: ['bank.test'] });
    await policy.checkTabs('tabs', {}, none);
    await policy.checkTabs('navigate', { url: 'https://shop.test/' }, none);
  });
});
