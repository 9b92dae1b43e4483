import { describe, expect, it } from 'vitest';
import { ActivityLog } from '../activity/activityLog.js';
import { AgentTabs } from '../policy/agentTabs.js';
import { PauseStore } from '../policy/pause.js';
import { Policy } from '../policy/policy.js';
import { SettingsStore } from '../policy/settings.js';
import { LeaseStore } from '../targeting/leases.js';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { fakeOrganize } from '../testing/fakeOrganize.js';
import { fakeBarrier } from '../testing/fakeNet.js';
import { fakeAgentPages } from '../testing/fakeLifecycle.js';
import type { PopupState, UiResponse } from './messages.js';
import { createUiService } from './uiService.js';
import { uiMessageListener } from './uiMessages.js';

async function setup() {
  const env = createFakeEnvironment();
  const settings = new SettingsStore(env.browser);
  const pause = new PauseStore(env.browser);
  const agentTabs = new AgentTabs(env.browser);
  const { barrier } = fakeBarrier(env.browser, () => settings.rules());
  const policy = new Policy({ browser: env.browser, organize: fakeOrganize(env.browser), sessions: env.cdp, settings, pause, agentTabs, barrier, pages: fakeAgentPages(env.browser, barrier, agentTabs, pause).pages });
  const leases = new LeaseStore(env.browser);
  const activity = new ActivityLog(env.browser);
  const ui = createUiService({
    browser: env.browser,
    sessions: env.cdp,
    leases,
    activity,
    policy,
    pause,
    settings,
    hostStatus: () => ({ connected: true, host: { version: '0.1.0', protocolVersion: 1, pid: 42 } }),
    agentTabs,
    now: () => 5_000,
  });
  return { env, ui, leases, activity, agentTabs };
}

function stateOf(answer: UiResponse): PopupState {
  if (!answer.ok || !('state' in answer)) throw new Error(`no state: ${JSON.stringify(answer)}`);
  return answer.state;
}

describe('the popup state', () => {
  it('lists only tabs agents are involved in: attached, leased, opened by chrome-relay, or acted in', async () => {
    const { env, ui, leases, activity, agentTabs } = await setup();
    const person = env.browser.addTab({ url: 'https://mine.test/', title: 'Mine' }).id ?? 0;
    const attached = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    const leased = env.browser.addTab({ url: 'https://b.test/' }).id ?? 0;
    const opened = env.browser.addTab({ url: 'https://c.test/', title: '<b>hi</b>' }).id ?? 0;
    await env.cdp.attach(attached);
    await leases.claim('tab', String(leased), 'claude', 60_000);
    await agentTabs.add(opened, 'opened');
    await activity.finish(activity.start({ at: 4_000, agent: 'claude', tool: 'click', tab: opened }), { at: 4_000, ms: 3, agent: 'claude', tool: 'click', tab: opened, outcome: 'ok', cli: '0.1.0' });
    const state = stateOf(await ui({ kind: 'state' }));
    expect(state.tabs.map((t) => t.id).sort()).toEqual([attached, leased, opened].sort());
    expect(state.tabs.map((t) => t.id)).not.toContain(person);
    expect(state.tabs[0]).toMatchObject({ id: opened, title: '<b>hi</b>', agentTab: true, last: { tool: 'click' } });
    expect(state.tabs.find((t) => t.id === leased)?.lease?.owner).toBe('claude');
    expect(state.tabs.find((t) => t.id === attached)?.attached).toBe(true);
    expect(state.connection).toMatchObject({ connected: true, cli: '0.1.0', host: { pid: 42 } });
  });

  it('a tab the agent was refused (not an agent tab, a blocked site) is not listed as one agents control; the refusal stays in the last commands', async () => {
    const { env, ui, activity } = await setup();
    const person = env.browser.addTab({ url: 'https://mine.test/', title: 'Mine' }).id ?? 0;
    const acted = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    const entry = (tab: number, outcome: string, reason?: string) => ({ at: 4_000, ms: 3, agent: 'claude', tool: 'snapshot', tab, outcome, ...(reason === undefined ? {} : { reason }) });
    await activity.finish(activity.start({ at: 4_000, agent: 'claude', tool: 'snapshot', tab: person }), entry(person, 'target_conflict', 'not_agent_tab'));
    await activity.finish(activity.start({ at: 4_000, agent: 'claude', tool: 'snapshot', tab: acted }), entry(acted, 'timeout', 'busy'));
    const state = stateOf(await ui({ kind: 'state' }));
    expect(state.tabs.map((t) => t.id)).toEqual([acted]);
    expect(state.recent.map((r) => r.reason)).toContain('not_agent_tab');
  });

  it('pause and resume through the popup', async () => {
    const { ui } = await setup();
    expect(stateOf(await ui({ kind: 'setPaused', paused: true })).pause.paused).toBe(true);
    expect(stateOf(await ui({ kind: 'state' })).pause.paused).toBe(true);
    expect(stateOf(await ui({ kind: 'setPaused', paused: false })).pause.paused).toBe(false);
  });

  it('saves valid settings and refuses bad ones with the lines at fault', async () => {
    const { ui } = await setup();
    expect(await ui({ kind: 'saveSettings', settings: { blockedSites: ['bank.test'], agentTabsOnly: true, idleDetachSeconds: 30, remoteAgents: true } })).toEqual({
      ok: true,
      settings: { blockedSites: ['bank.test'], agentTabsOnly: true, idleDetachSeconds: 30, remoteAgents: true, agentFiles: false, agentJs: true },
    });
    const bad = await ui({ kind: 'saveSettings', settings: { blockedSites: ['no spaces allowed'], agentTabsOnly: true, idleDetachSeconds: 30, remoteAgents: true } });
    expect(bad).toMatchObject({ ok: false, field: 'blockedSites', problems: [{ line: 'no spaces allowed' }] });
    expect(await ui({ kind: 'settings' })).toMatchObject({ ok: true, settings: { blockedSites: ['bank.test'] } });
  });
});

describe("the person's own moves", () => {
  it('"This tab": the person shares a tab of theirs and stops sharing it; an extension page is never offered', async () => {
    const { env, ui } = await setup();
    const mine = env.browser.addTab({ url: 'https://mine.test/', title: 'Mine' }).id ?? 0;
    const options = env.browser.addTab({ url: 'chrome-extension://ourid/options.html' }).id ?? 0;
    expect(stateOf(await ui({ kind: 'state', here: mine })).here).toEqual({ id: mine, title: 'Mine', status: 'person' });
    expect(stateOf(await ui({ kind: 'share', tab: mine, shared: true })).here?.status).toBe('shared');
    expect(stateOf(await ui({ kind: 'share', tab: mine, shared: false })).here?.status).toBe('person');
    expect(stateOf(await ui({ kind: 'state', here: options })).here?.status).toBe('extension');
    await expect(ui({ kind: 'share', tab: options, shared: true })).rejects.toMatchObject({ details: { reason: 'person_page' } });
  });

  it('the person frees a lease an agent holds; agents cannot', async () => {
    const { env, ui, leases } = await setup();
    const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    await leases.claim('tab', String(tab), 'stuck-agent', 60_000);
    await leases.claim('workspace', 'research', 'stuck-agent', 60_000);
    expect(stateOf(await ui({ kind: 'state' })).workspaceLeases).toMatchObject([{ target: 'research', owner: 'stuck-agent' }]);
    await ui({ kind: 'freeLease', lease: { kind: 'tab', target: String(tab) } });
    await ui({ kind: 'freeLease', lease: { kind: 'workspace', target: 'research' } });
    expect(await leases.list()).toEqual([]);
  });
});

describe('the message listener', () => {
  const listener = uiMessageListener(
    () => 'ourid',
    () => 'chrome-extension://ourid/',
    async () => ({ ok: false, error: 'handled' }),
  );

  it('ignores senders that are not this extension\'s pages', () => {
    const answers: UiResponse[] = [];
    expect(listener({ kind: 'state' }, { id: 'other', url: 'chrome-extension://other/x.html' }, (a) => answers.push(a))).toBe(false);
    expect(listener({ kind: 'state' }, { id: 'ourid', url: 'https://evil.test/' }, (a) => answers.push(a))).toBe(false);
    expect(answers).toEqual([]);
  });

  it('checks the shape of the person\'s requests', () => {
    const answers: UiResponse[] = [];
    const page = { id: 'ourid', url: 'chrome-extension://ourid/popup.html' };
    for (const bad of [{ kind: 'share', tab: '5', shared: true }, { kind: 'share', tab: 5 }, { kind: 'freeLease', lease: { kind: 'tab' } }, { kind: 'state', here: 'x' }]) {
      expect(listener(bad, page, (a) => answers.push(a))).toBe(false);
    }
    expect(answers.every((a) => !a.ok)).toBe(true);
  });

  it('answers unknown requests with an error and known ones asynchronously', async () => {
    const answers: UiResponse[] = [];
    const page = { id: 'ourid', url: 'chrome-extension://ourid/popup.html' };
    expect(listener({ kind: 'setPaused', paused: 'yes' }, page, (a) => answers.push(a))).toBe(false);
    expect(listener({ kind: 'state' }, page, (a) => answers.push(a))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(answers.map((a) => a.ok)).toEqual([false, false]);
    expect(answers[1]).toMatchObject({ error: 'handled' });
  });
});
