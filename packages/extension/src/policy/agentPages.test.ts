import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { fakeAgentPages } from '../testing/fakeLifecycle.js';
import { fakeBarrier } from '../testing/fakeNet.js';
import { AgentTabs } from './agentTabs.js';
import { PauseStore } from './pause.js';
import { parseSiteRules } from './sitePatterns.js';

async function setup() {
  const env = createFakeEnvironment();
  const pause = new PauseStore(env.browser);
  const agentTabs = new AgentTabs(env.browser);
  const { net, barrier } = fakeBarrier(env.browser, async () => parseSiteRules(['bank.test']).rules);
  const { lifecycle, pages } = fakeAgentPages(env.browser, barrier, agentTabs, pause);
  const personTab = env.browser.addTab({ url: 'https://news.test/', active: true }).id ?? 0;
  const opened = env.browser.addTab({ url: 'https://agent.test/' }).id ?? 0;
  const shared = env.browser.addTab({ url: 'https://music.test/' }).id ?? 0;
  await agentTabs.add(opened, 'opened');
  await agentTabs.add(shared, 'shared');
  await barrier.cover([opened, shared]);
  const silenced = (): number[] | undefined => net.conditions().find((c) => c.tabIds !== undefined && c.tabIds.join() !== '-1')?.tabIds;
  return { ...env, pause, agentTabs, barrier, net, lifecycle, pages, personTab, opened, shared, silenced };
}

describe('AgentPages: Pause stops what agents left running, Resume wakes it', () => {
  it("freezes agent tabs and silences the agents' own; the person's tabs are never touched", async () => {
    const { pages, lifecycle, silenced, personTab, opened, shared } = await setup();
    await pages.pause();
    expect([...lifecycle.frozen].sort()).toEqual([opened, shared].sort());
    expect(lifecycle.frozen.has(personTab)).toBe(false);
    // A shared tab is the person's to use while paused: frozen while hidden, never silenced.
    expect(silenced()).toEqual([opened]);
    await pages.resume();
    expect(lifecycle.frozen.size).toBe(0);
    expect(silenced()).toBeUndefined();
  });

  it('a shared tab that plays sound is not frozen (it would stop); an agent tab is, sound or not', async () => {
    const { pages, lifecycle, opened, shared } = await setup();
    lifecycle.audible.add(shared);
    lifecycle.audible.add(opened);
    await pages.pause();
    expect([...lifecycle.frozen]).toEqual([opened]);
  });

  it('an agent tab Chrome unfroze while in view is frozen again once out of view, and a window it opened is silenced, while paused only', async () => {
    const { pages, pause, lifecycle, browser, agentTabs, barrier, silenced, opened } = await setup();
    await pages.tabsChanged();
    expect(lifecycle.frozen.size).toBe(0);
    await pause.set(true);
    await pages.pause();
    lifecycle.frozen.delete(opened);
    const child = browser.addTab({ url: 'https://agent.test/popup' }).id ?? 0;
    await agentTabs.add(child, 'child');
    await barrier.cover([child]);
    await pages.tabsChanged();
    expect(lifecycle.frozen.has(opened)).toBe(true);
    expect(lifecycle.frozen.has(child)).toBe(true);
    expect(silenced()).toEqual([opened, child].sort((a, b) => a - b));
  });

  it("holds the workers of agents' sites no tab of the person shows; a person's tab opening such a site releases them", async () => {
    const { pages, pause, lifecycle, personTab, opened } = await setup();
    lifecycle.workerTargets.push(
      { id: 'sw-agent', url: 'https://agent.test/sw.js' },
      { id: 'shared-agent', url: 'blob:https://agent.test/5d2c' },
      { id: 'sw-news', url: 'https://news.test/sw.js' },
      { id: 'sw-music', url: 'https://music.test/sw.js' },
      { id: 'sw-other', url: 'https://elsewhere.test/sw.js' },
    );
    await pause.set(true);
    await pages.pause();
    // news.test and elsewhere.test are no agent's sites; music.test is, but the person uses it (a tab they shared).
    expect([...lifecycle.held].sort()).toEqual(['shared-agent', 'sw-agent']);
    await pages.personNavigates(opened, 'https://agent.test/home');
    expect(lifecycle.held.size).toBe(2);
    await pages.personNavigates(personTab, 'https://agent.test/home');
    expect(lifecycle.held.size).toBe(0);
    await pages.resume();
    expect(lifecycle.held.size).toBe(0);
  });

  it("a site an agent's tab showed that the person has open keeps its workers", async () => {
    const { pages, barrier, lifecycle, opened } = await setup();
    await barrier.committed(opened, 0, 'https://news.test/article');
    lifecycle.workerTargets.push({ id: 'sw-news', url: 'https://news.test/sw.js' });
    await pages.pause();
    expect(lifecycle.held.size).toBe(0);
  });
});

describe('AgentPages: handing a tab back', () => {
  it("discards it (ending its document and every handle on it) and loads it again as the person's, under its new id", async () => {
    const { pages, barrier, browser, lifecycle, net, shared } = await setup();
    const fresh = await pages.handBack(shared);
    expect(fresh).toBeDefined();
    expect(browser.tabs.has(shared)).toBe(false);
    expect(lifecycle.reloaded).toEqual([fresh]);
    expect(barrier.isCovered(shared)).toBe(false);
    expect(barrier.isCovered(fresh ?? 0)).toBe(false);
    expect(net.conditions().find((c) => c.excludedTabIds !== undefined)?.excludedTabIds).toContain(fresh);
  });

  it('a tab Chrome will not discard is reloaded instead (its document ends) and stays under the barrier', async () => {
    const { pages, barrier, lifecycle, net, shared } = await setup();
    lifecycle.undiscardable.add(shared);
    expect(await pages.handBack(shared)).toBe(shared);
    expect(lifecycle.reloaded).toEqual([shared]);
    expect(barrier.isCovered(shared)).toBe(true);
    expect(net.conditions().find((c) => c.excludedTabIds !== undefined)?.excludedTabIds).not.toContain(shared);
  });
});
