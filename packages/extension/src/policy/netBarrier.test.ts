import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { fakeBarrier } from '../testing/fakeNet.js';
import { RETIRED_MS } from './netBarrier.js';
import { parseSiteRules, type SiteRule } from './sitePatterns.js';

function setup(patterns: string[] = ['bank.test']) {
  const env = createFakeEnvironment();
  let rules: SiteRule[] = parseSiteRules(patterns).rules;
  const clock = { now: 1_000_000 };
  const { net, barrier } = fakeBarrier(env.browser, async () => rules, () => clock.now);
  const personTab = env.browser.addTab({ url: 'https://news.test/' }).id ?? 0;
  const agentTab = env.browser.addTab({ url: 'https://shop.test/' }).id ?? 0;
  return {
    ...env,
    net,
    barrier,
    clock,
    personTab,
    agentTab,
    setRules: (next: string[]) => {
      rules = parseSiteRules(next).rules;
    },
    /** The scopes installed: whose tabs are left out of the tabs rule (undefined: no tabs rule), and the workers' sites. */
    scopes: () => {
      const conditions = net.conditions();
      const tabs = conditions.find((c) => c.excludedTabIds !== undefined);
      const workers = conditions.find((c) => c.tabIds?.join() === '-1');
      const silenced = conditions.find((c) => c.tabIds !== undefined && c.tabIds.join() !== '-1');
      return {
        person: tabs?.excludedTabIds?.filter((id) => id !== -1),
        workers: workers === undefined ? undefined : (workers.initiatorDomains ?? 'all'),
        silenced: silenced?.tabIds,
      };
    },
  };
}

describe('NetBarrier', () => {
  it("covers every tab but the person's while agents have tabs, and the workers of every site an agent tab showed", async () => {
    const { barrier, browser, net, scopes, personTab, agentTab } = setup();
    await barrier.ready();
    // No agent tab yet: nothing to block for anyone.
    expect(net.rules.size).toBe(0);
    net.frames.set(agentTab, ['https://shop.test/', 'https://ads.example/frame', 'http://[::1]:9000/x', 'about:blank']);
    await barrier.cover([agentTab]);
    expect(scopes()).toEqual({ person: [personTab], workers: ['[::1]', 'ads.example', 'shop.test'], silenced: undefined });
    await barrier.committed(agentTab, 0, 'https://checkout.test/pay');
    expect(scopes().workers).toEqual(['[::1]', 'ads.example', 'checkout.test', 'shop.test']);
    // Tab ids and agents' sites survive a worker restart: a new barrier over the same storage covers the same.
    const again = fakeBarrier(browser, async () => parseSiteRules(['bank.test']).rules);
    await again.barrier.ready();
    expect(again.barrier.isCovered(agentTab)).toBe(true);
    expect(again.net.conditions().find((c) => c.tabIds?.join() === '-1')?.initiatorDomains).toContain('checkout.test');
  });

  it('installs nothing without block rules, and removes everything when the last rule goes', async () => {
    const { barrier, net, agentTab, setRules } = setup([]);
    await barrier.cover([agentTab]);
    expect(net.rules.size).toBe(0);
    setRules(['bank.test']);
    await barrier.rulesChanged();
    expect(net.rules.size).toBeGreaterThan(0);
    setRules([]);
    await barrier.rulesChanged();
    expect(net.rules.size).toBe(0);
  });

  it("a new tab is nobody's — under the barrier — until Chrome names its source or it starts navigating on its own", async () => {
    const { barrier, browser, net, scopes, personTab, agentTab } = setup();
    await barrier.cover([agentTab]);
    // A window the agent's page opened (from a data: page, noopener…): unknown, then the agents'.
    const popup = browser.addTab({ url: '' }).id ?? 0;
    await barrier.tabCreated({ id: popup, pendingUrl: '' });
    expect(scopes().person).toEqual([personTab]);
    await barrier.navigationTarget(agentTab, popup);
    await barrier.navigationStarted(popup, 0);
    expect(barrier.isCovered(popup)).toBe(true);
    expect(scopes().person).toEqual([personTab]);
    // Ctrl+T: the person's at once.
    const ctrlT = browser.addTab({ url: 'chrome://newtab/' }).id ?? 0;
    await barrier.tabCreated({ id: ctrlT, pendingUrl: 'chrome://newtab/' });
    expect(scopes().person).toEqual([personTab, ctrlT]);
    // A window the person's page opened is the person's.
    const theirs = browser.addTab({ url: '' }).id ?? 0;
    await barrier.tabCreated({ id: theirs });
    await barrier.navigationTarget(personTab, theirs);
    expect(scopes().person).toContain(theirs);
    // A bookmark opened in a new tab: no source is named, its first navigation settles it as the person's — and if the
    // barrier stopped that navigation before it knew, the page is loaded again, once.
    const bookmark = browser.addTab({ url: 'https://bank.test/' }).id ?? 0;
    await barrier.tabCreated({ id: bookmark, pendingUrl: 'https://bank.test/' });
    expect(scopes().person).not.toContain(bookmark);
    await barrier.navigationStarted(bookmark, 0);
    expect(scopes().person).toContain(bookmark);
    await barrier.navigationFailed(bookmark, 0, 'net::ERR_BLOCKED_BY_CLIENT', 'https://bank.test/');
    await barrier.navigationFailed(bookmark, 0, 'net::ERR_BLOCKED_BY_CLIENT', 'https://bank.test/');
    expect(net.reloaded).toEqual([bookmark]);
    // An agent's window is never reloaded, nor a page the block list does not name.
    await barrier.navigationFailed(popup, 0, 'net::ERR_BLOCKED_BY_CLIENT', 'https://bank.test/');
    expect(net.reloaded).toEqual([bookmark]);
  });

  it("a window of a window Chrome named is never taken for the person's by its first navigation", async () => {
    const { barrier, browser, scopes, agentTab } = setup();
    await barrier.cover([agentTab]);
    const unknownSource = browser.addTab({ url: '' }).id ?? 0;
    const child = browser.addTab({ url: '' }).id ?? 0;
    await barrier.navigationTarget(unknownSource, child);
    await barrier.navigationStarted(child, 0);
    await barrier.committed(child, 0, 'https://bank.test/');
    expect(scopes().person).not.toContain(child);
  });

  it('while chrome-relay opens a tab, new tabs stay unclassified; after, the ones nobody claimed are the person\'s', async () => {
    const { barrier, browser, scopes, agentTab } = setup();
    await barrier.cover([agentTab]);
    let during: ReturnType<typeof scopes> | undefined;
    const opened = await barrier.opening(async () => {
      const tab = browser.addTab({ url: 'about:blank' }).id ?? 0;
      await barrier.tabCreated({ id: tab });
      await barrier.navigationStarted(tab, 0);
      const other = browser.addTab({ url: 'https://news.test/2' }).id ?? 0;
      await barrier.tabCreated({ id: other });
      during = scopes();
      await barrier.cover([tab]);
      return { tab, other };
    });
    expect(during?.person).not.toContain(opened.tab);
    expect(during?.person).not.toContain(opened.other);
    expect(barrier.isCovered(opened.tab)).toBe(true);
    expect(scopes().person).toContain(opened.other);
  });

  it('the first agent tab is covered from its first request: the tabs rule is on while chrome-relay opens it', async () => {
    const { barrier, browser, net } = setup();
    await barrier.ready();
    await barrier.opening(async () => {
      browser.addTab({ url: 'data:text/html,x' });
      expect(net.conditions().some((c) => c.excludedTabIds !== undefined)).toBe(true);
    });
  });

  it('a closed or handed-back agent tab stays under the barrier a while (what it started as it went), then not', async () => {
    const { barrier, clock, scopes, personTab, agentTab } = setup();
    await barrier.cover([agentTab]);
    await barrier.tabRemoved(agentTab);
    // Still agents around (a retired id): the tabs rule stays, the closed id not among the person's.
    expect(scopes().person).toEqual([personTab]);
    clock.now += RETIRED_MS + 1;
    await barrier.rulesChanged();
    expect(scopes().person).toBeUndefined();
    // Handed back: the old id retires, the new id is the person's.
    await barrier.cover([personTab]);
    await barrier.retire(personTab);
    await barrier.personTab(personTab + 100);
    expect(barrier.isCovered(personTab)).toBe(false);
    expect(scopes().person).toEqual([personTab + 100]);
  });

  it('a replaced tab (a discard) keeps whose it was under its new id', async () => {
    const { barrier, scopes, personTab, agentTab } = setup();
    await barrier.cover([agentTab]);
    await barrier.tabReplaced(agentTab + 50, agentTab);
    expect(barrier.isCovered(agentTab + 50)).toBe(true);
    await barrier.tabReplaced(personTab + 50, personTab);
    expect(scopes().person).toEqual([personTab + 50]);
  });

  it('while paused, silenced tabs send nothing, even without a block list; the silence outlives a worker restart', async () => {
    const { barrier, browser, scopes, agentTab } = setup([]);
    await barrier.silence([agentTab]);
    expect(scopes().silenced).toEqual([agentTab]);
    const again = fakeBarrier(browser, async () => []);
    await again.barrier.ready();
    expect(again.net.conditions()).toEqual([expect.objectContaining({ tabIds: [agentTab] })]);
    await barrier.silence([]);
    expect(scopes().silenced).toBeUndefined();
  });
});
