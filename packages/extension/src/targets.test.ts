import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { SESSION_KEYS } from './state/storage.js';
import { lastWorkedTab, MAX_AGENT_TABS, readRememberedTab, rememberedTab, rememberTab } from './targets.js';
import { createFakeEnvironment } from './testing/fakeChrome.js';

async function rejection(promise: Promise<unknown>): Promise<RelayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('the remembered tab', () => {
  it('is the tab last remembered, written only when it changes', async () => {
    const { browser } = createFakeEnvironment();
    browser.addTab({ active: true });
    const worked = browser.addTab({}).id ?? 0;
    let writes = 0;
    const set = browser.storageSessionSet.bind(browser);
    browser.storageSessionSet = (items) => {
      writes++;
      return set(items);
    };
    await rememberTab(worked, browser);
    await rememberTab(worked, browser);
    expect(writes).toBe(1);
    expect(await rememberedTab(browser)).toBe(worked);
  });

  it('never falls back to the active tab when the remembered tab was closed: target_not_found naming it', async () => {
    const { browser } = createFakeEnvironment();
    browser.addTab({ active: true });
    const worked = browser.addTab({}).id ?? 0;
    await rememberTab(worked, browser);
    browser.closeTab(worked);
    const error = await rejection(rememberedTab(browser));
    expect(error.code).toBe('target_not_found');
    expect(error.details).toMatchObject({ tab: worked, remembered: true });
    expect(error.message).toMatch(/`chrome-relay tabs`.*`chrome-relay navigate <url>`/);
  });

  it('ignores a remembered value of the wrong shape, and then has no tab', async () => {
    const { browser } = createFakeEnvironment();
    browser.addTab({ active: true });
    browser.session.set(SESSION_KEYS.currentTab, 'seven');
    const error = await rejection(rememberedTab(browser));
    expect(error.code).toBe('target_not_found');
    expect(error.details).toMatchObject({ tab: null });
    expect(error.message).toContain('--tab');
  });

  it('is one per agent identity: an agent never defaults into the tab another agent (or an anonymous call) last used', async () => {
    const { browser } = createFakeEnvironment();
    const [a, b, anonymous] = [browser.addTab({}).id ?? 0, browser.addTab({}).id ?? 0, browser.addTab({}).id ?? 0];
    await rememberTab(a, browser, 'a');
    await rememberTab(b, browser, 'b');
    await rememberTab(anonymous, browser);
    expect([await rememberedTab(browser, 'a'), await rememberedTab(browser, 'b'), await rememberedTab(browser)]).toEqual([a, b, anonymous]);
    // An agent that has worked nowhere yet has no tab, though others have: it is told so, by name.
    const fresh = await rejection(rememberedTab(browser, 'c'));
    expect(fresh).toMatchObject({ code: 'target_not_found', details: { tab: null, agent: 'c' } });
    expect(fresh.message).toContain('agent "c"');
    // Its tab closed: the same, never another's.
    browser.closeTab(a);
    expect((await rejection(rememberedTab(browser, 'a'))).details).toMatchObject({ tab: a, remembered: true, agent: 'a' });
    // Doctor's page check takes the tab chrome-relay last worked on for anyone.
    expect(await lastWorkedTab(browser)).toBe(anonymous);
  });

  it("keeps the named agents' slots bounded: the agent whose tab changed longest ago is forgotten first", async () => {
    const { browser } = createFakeEnvironment();
    const tab = browser.addTab({}).id ?? 0;
    const other = browser.addTab({}).id ?? 0;
    for (let i = 0; i <= MAX_AGENT_TABS; i++) await rememberTab(tab, browser, `agent${i}`);
    expect(await readRememberedTab(browser, 'agent0')).toBeUndefined();
    expect(await readRememberedTab(browser, 'agent1')).toBe(tab);
    // agent1 moves: it is the most recent now, and agent2 goes next.
    await rememberTab(other, browser, 'agent1');
    await rememberTab(tab, browser, 'late');
    expect(await readRememberedTab(browser, 'agent1')).toBe(other);
    expect(await readRememberedTab(browser, 'agent2')).toBeUndefined();
    expect((browser.session.get(SESSION_KEYS.agentTabs) as unknown[]).length).toBe(MAX_AGENT_TABS);
  });

  it('loses no agent when two agents\' calls end together', async () => {
    const { browser } = createFakeEnvironment();
    const tabs = Array.from({ length: 8 }, () => browser.addTab({}).id ?? 0);
    await Promise.all(tabs.map((tab, i) => rememberTab(tab, browser, `agent${i}`)));
    for (const [i, tab] of tabs.entries()) expect(await readRememberedTab(browser, `agent${i}`)).toBe(tab);
  });
});
