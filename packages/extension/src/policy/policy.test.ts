import type { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import type { CallTabs } from '../context/call.js';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { fakeBarrier } from '../testing/fakeNet.js';
import { fakeAgentPages } from '../testing/fakeLifecycle.js';
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
  const { net, barrier } = fakeBarrier(env.browser, () => store.rules());
  const { lifecycle, pages } = fakeAgentPages(env.browser, barrier, agentTabs, pause);
  const policy = new Policy({ browser: env.browser, organize, sessions: env.cdp, settings: store, pause, agentTabs, barrier, pages });
  await store.save({ blockedSites: [], agentTabsOnly: false, idleDetachSeconds: 15, remoteAgents: true, agentFiles: false, agentJs: true, ...settings });
  const personTab = env.browser.addTab({ url: 'https://news.test/' }).id ?? 0;
  const bankTab = env.browser.addTab({ url: 'https://bank.test/account' }).id ?? 0;
  const agentTab = env.browser.addTab({ url: 'https://shop.test/' }).id ?? 0;
  await policy.adopt(agentTab, 'opened');
  return { ...env, organize, store, pause, agentTabs, barrier, net, policy, personTab, bankTab, agentTab, lifecycle };
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

describe('Policy: agents on other machines', () => {
  it('refuses every tool of a call a bridge relayed while the person has them off; local calls, and bridged ones when on, pass', async () => {
    const via = { kind: 'unix' as const, label: 'container' };
    const off = await setup({ remoteAgents: false });
    for (const tool of ['click', 'tabs', 'ping']) {
      const error = await refusal(off.policy.checkVia(tool, via));
      expect(error).toMatchObject({ code: 'target_conflict', retryable: false, details: { reason: 'remote_agents_off', via } });
      expect(error.message).toContain('socket container');
    }
    await off.policy.checkVia('click', undefined);
    const on = await setup();
    await on.policy.checkVia('click', via);
  });
});

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
    expect(error.details).toMatchObject({ reason: 'site_blocked', rule: 'bank.test', tab: bankTab, origin: 'https://bank.test' });
    // The path is the person's: neither the message nor the details carry it.
    expect(error.message + JSON.stringify(error.details)).not.toContain('/account');
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

  it('also checks the tabs a tool names in its params (group_create tabs: resolved into the call\'s tabs)', async () => {
    const { policy, bankTab, agentTab } = await setup({ blockedSites: ['bank.test'] });
    const named: CallTabs = { kind: 'tabs', tabs: [agentTab, bankTab], via: 'named' };
    expect((await refusal(policy.checkTabs('group_create', { name: 'g', tabs: [agentTab, bankTab] }, named))).details['tab']).toBe(bankTab);
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
    await store.save({ blockedSites: ['bank.test'], agentTabsOnly: false, idleDetachSeconds: 15, remoteAgents: true, agentFiles: false, agentJs: true });
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

  it("a window an agent tab's page opened is an agent tab; a tab chrome-relay opens is one before it is handed back", async () => {
    const { policy, browser, agentTab } = await setup({ agentTabsOnly: true });
    const child = browser.addTab({ url: 'https://shop.test/cart' }).id ?? 0;
    await policy.navigationTargetCreated(agentTab, child);
    await policy.checkTabs('click', {}, one(child));
    const opened = await policy.openTab(async () => browser.addTab({ url: 'about:blank' }), (tab) => tab.id);
    await policy.checkTabs('click', {}, one(opened.id ?? 0));
  });

  it("a tab the person opens is never an agent tab, whatever Chrome names as its opener", async () => {
    const { policy, browser, personTab } = await setup({ agentTabsOnly: true });
    // Opened from the person's own page: Chrome names that page as the source.
    const fromPerson = browser.addTab({ url: 'https://news.test/story' }).id ?? 0;
    await policy.navigationTargetCreated(personTab, fromPerson);
    expect((await refusal(policy.checkTabs('click', {}, one(fromPerson)))).details['reason']).toBe('not_agent_tab');
    // Ctrl+T while an agent tab is in front: Chrome records that tab as the opener, but names no source.
    const ctrlT = browser.addTab({ url: 'https://news.test/typed' }).id ?? 0;
    expect((await refusal(policy.checkTabs('click', {}, one(ctrlT)))).details['reason']).toBe('not_agent_tab');
    // Its new-tab page is the browser's own, whatever the settings.
    const newTab = browser.addTab({ url: 'chrome://newtab/' }).id ?? 0;
    expect((await refusal(policy.checkTabs('click', {}, one(newTab)))).details['reason']).toBe('browser_page');
  });

  it('the person shares a tab of theirs and takes it back: the call in flight there is stopped, the tab detached and its page loaded afresh', async () => {
    const { policy, cdp, debugger: fake, personTab, browser, lifecycle, barrier } = await setup({ agentTabsOnly: true });
    await policy.share(personTab);
    await policy.checkTabs('snapshot', {}, one(personTab));
    await cdp.attach(personTab);
    const stopped: RelayError[] = [];
    const watch = policy.watch('click', (error) => stopped.push(error));
    watch.setTabs([personTab]);
    const fresh = await policy.unshare(personTab);
    expect(stopped.map((e) => e.details['reason'])).toEqual(['not_agent_tab']);
    expect(fake.attached.has(personTab)).toBe(false);
    // The page an agent may have planted code in is gone with its id; the tab lives on, reloaded, as the person's.
    expect(browser.tabs.has(personTab)).toBe(false);
    expect(fresh).toBeDefined();
    expect(lifecycle.reloaded).toEqual([fresh]);
    expect(barrier.isCovered(fresh ?? 0)).toBe(false);
    expect((await refusal(policy.checkTabs('snapshot', {}, one(fresh ?? 0)))).details['reason']).toBe('not_agent_tab');
    watch.close();
  });

  it('"Stop sharing" never takes back a tab agents opened', async () => {
    const { policy, agentTab } = await setup({ agentTabsOnly: true });
    await policy.unshare(agentTab);
    await policy.checkTabs('click', {}, one(agentTab));
  });

  it('tabs lists only what the agent may act on and counts the rest; other tools untouched', async () => {
    const { policy, bankTab, personTab, agentTab, store } = await setup({ blockedSites: ['bank.test'] });
    const tab = (id: number, url: string, title: string) => ({ id, windowId: 1, index: 0, url, title, active: false, status: 'complete', groupId: -1 });
    const listed = {
      windows: [{ id: 1, focused: true, type: 'normal', tabs: [tab(bankTab, 'https://bank.test/account?id=991', 'Balance: $12,400 — Bank'), tab(personTab, 'https://news.test/', 'News'), tab(agentTab, 'https://shop.test/', 'Shop')] }],
    };
    // "Agent tabs only" off: the person's news tab is usable, the bank is not (and never shown).
    expect(await policy.noteResult('tabs', listed)).toEqual({ windows: [{ ...listed.windows[0], tabs: [tab(personTab, 'https://news.test/', 'News'), tab(agentTab, 'https://shop.test/', 'Shop')] }], otherTabs: 1 });
    // On: only the agent's own tab.
    await store.save({ ...(await store.get()), agentTabsOnly: true });
    expect(await policy.noteResult('tabs', listed)).toEqual({ windows: [{ ...listed.windows[0], tabs: [tab(agentTab, 'https://shop.test/', 'Shop')] }], otherTabs: 2 });
    const read = { tabId: bankTab, title: 'Balance' };
    expect(await policy.noteResult('get', read)).toBe(read);
    // Any other tool's answer: a URL on the blocked site keeps only its origin.
    expect(await policy.noteResult('network', { entries: [{ url: 'https://bank.test/acct/4711' }] })).toEqual({ entries: [{ url: 'https://bank.test/[blocked]' }] });
  });

  it('refuses to close the last tabs of the browser, whichever tool would (close, group close, workspace close)', async () => {
    const { policy, browser, personTab, bankTab, agentTab } = await setup();
    const all: CallTabs = { kind: 'tabs', tabs: [personTab, bankTab, agentTab], via: 'named' };
    for (const tool of ['close', 'group_close', 'workspace_close']) {
      expect(await refusal(policy.checkTabs(tool, { name: 'g' }, all))).toMatchObject({ code: 'invalid_arguments' });
    }
    expect(browser.tabs.size).toBe(3);
    await policy.checkTabs('close', {}, { kind: 'tabs', tabs: [agentTab], via: 'explicit' });
  });

  it('leaves calls that name no tab alone', async () => {
    const { policy } = await setup({ agentTabsOnly: true, blockedSites: ['bank.test'] });
    await policy.checkTabs('tabs', {}, none);
    await policy.checkTabs('navigate', { url: 'https://shop.test/' }, none);
  });
});

describe("Policy: the person's pages", () => {
  it('an extension page is never an agent tab: not listed beyond its origin, not named, not navigated to, not attached — whatever the settings', async () => {
    const { policy, browser, cdp, debugger: fake } = await setup({ agentTabsOnly: false });
    const options = browser.addTab({ url: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/options.html', title: 'chrome-relay settings' }).id ?? 0;
    for (const tool of ['snapshot', 'js', 'click', 'close']) {
      const error = await refusal(policy.checkTabs(tool, {}, one(options)));
      expect(error.details).toMatchObject({ reason: 'person_page', tab: options, origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop' });
    }
    expect((await refusal(policy.checkTabs('navigate', { url: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/popup.html' }, none))).details['reason']).toBe('person_page');
    cdp.setAttachGuard((tabId) => policy.guardAttach(tabId));
    expect((await refusal(cdp.attach(options))).details['reason']).toBe('person_page');
    expect(fake.attachCalls).toBe(0);
    await expect(policy.share(options)).rejects.toMatchObject({ details: { reason: 'person_page' } });
    const tab = (id: number, url: string, title: string) => ({ id, windowId: 1, index: 0, url, title, active: false, status: 'complete', groupId: -1 });
    const listed = { windows: [{ id: 1, focused: true, type: 'normal', tabs: [tab(options, 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/options.html', 'chrome-relay settings')] }] };
    const shown = await policy.noteResult('tabs', listed);
    expect(shown.windows).toEqual([]);
    expect(JSON.stringify(shown)).not.toContain('chrome-extension');
  });

  it('a tab that moves onto an extension page loses its session and its call is stopped', async () => {
    const { policy, cdp, debugger: fake, agentTab } = await setup();
    await cdp.attach(agentTab);
    const stopped: RelayError[] = [];
    const watch = policy.watch('js', (error) => stopped.push(error));
    watch.setTabs([agentTab]);
    await policy.tabUrlChanged(agentTab, 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/options.html');
    expect(fake.attached.has(agentTab)).toBe(false);
    expect(stopped[0]?.details['reason']).toBe('person_page');
    watch.close();
  });
});

describe('Policy: the network barrier', () => {
  it('covers every tab a call acts in, and a call waits until the block list is installed', async () => {
    const { policy, net, barrier, personTab, bankTab } = await setup({ blockedSites: ['bank.test'], agentTabsOnly: false });
    await policy.checkTabs('click', {}, one(personTab));
    expect(barrier.isCovered(personTab)).toBe(true);
    // Every tab but the person's (the bank tab, the only one no agent touched) is under the barrier.
    const tabsScope = net.conditions().find((c) => c.excludedTabIds !== undefined);
    expect(tabsScope?.excludedTabIds).toEqual([-1, bankTab]);
    expect(tabsScope?.requestDomains).toEqual(['bank.test']);
  });

  it('while the block list cannot be installed, calls are refused (it is not in force); once it can, they run', async () => {
    const { policy, store, net, agentTab } = await setup();
    net.failing = new Error('Internal error');
    await expect(policy.saveSettings({ blockedSites: ['bank.test'], agentTabsOnly: false, idleDetachSeconds: 15, remoteAgents: true, agentFiles: false, agentJs: true })).rejects.toMatchObject({ code: 'chrome_api_error' });
    expect((await store.get()).blockedSites).toEqual(['bank.test']);
    const refused = await refusal(policy.checkTabs('click', {}, one(agentTab)));
    expect(refused.code).toBe('chrome_api_error');
    expect(refused.message).toContain('nothing was done');
    net.failing = undefined;
    await policy.checkTabs('click', {}, one(agentTab));
  });

  it('a pattern Chrome cannot hold is refused at save, named, and nothing is saved', async () => {
    const { policy, store, net } = await setup();
    const { requestMatches } = await import('./netRules.js');
    const { parseSiteRule } = await import('./sitePatterns.js');
    const parsed = parseSiteRule('example.com/a/very/long/path*');
    if (!parsed.ok) throw new Error(parsed.problem);
    for (const m of requestMatches(parsed.rule)) if (m.regexFilter !== undefined) net.unsupported.add(m.regexFilter);
    const problems = await policy.saveSettings({ blockedSites: ['bank.test', 'example.com/a/very/long/path*'], agentTabsOnly: false, idleDetachSeconds: 15, remoteAgents: true, agentFiles: false, agentJs: true });
    expect(problems).toEqual([{ line: 'example.com/a/very/long/path*', problem: expect.stringContaining('too long') }]);
    expect((await store.get()).blockedSites).toEqual([]);
  });

  it('a navigation the filter stopped becomes site_blocked with the rule and the origin, never the blocked URL', async () => {
    const { policy } = await setup({ blockedSites: ['bank.test'] });
    const { RelayError: Err } = await import('@chrome-relay/protocol');
    const stopped = new Err('cdp_error', 'Navigation to https://shop.test/go failed: net::ERR_BLOCKED_BY_CLIENT.', {
      tool: 'navigate',
      details: { errorText: 'net::ERR_BLOCKED_BY_CLIENT', url: 'https://shop.test/go', tab: 4, blockedUrl: 'https://bank.test/acct/4711' },
    });
    const explained = (await policy.explainFailure('navigate', stopped)) as RelayError;
    expect(explained.details).toMatchObject({ reason: 'site_blocked', rule: 'bank.test', origin: 'https://bank.test', tab: 4 });
    expect(explained.message + JSON.stringify(explained.details)).not.toContain('4711');
    // Another extension's block: the error stays, without the URL it was stopped at.
    const other = new Err('cdp_error', 'failed', { details: { errorText: 'net::ERR_BLOCKED_BY_CLIENT', blockedUrl: 'https://ads.test/x' } });
    expect(((await policy.explainFailure('navigate', other)) as RelayError).details).toEqual({ errorText: 'net::ERR_BLOCKED_BY_CLIENT' });
  });
});
