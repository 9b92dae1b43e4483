import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { fakeBarrier } from '../testing/fakeNet.js';
import { parseSiteRules, type SiteRule } from './sitePatterns.js';

function setup(patterns: string[] = ['bank.test']) {
  const env = createFakeEnvironment();
  let rules: SiteRule[] = parseSiteRules(patterns).rules;
  const { net, barrier } = fakeBarrier(env.browser, async () => rules);
  const personTab = env.browser.addTab({ url: 'https://news.test/' }).id ?? 0;
  const agentTab = env.browser.addTab({ url: 'https://shop.test/' }).id ?? 0;
  return {
    ...env,
    net,
    barrier,
    personTab,
    agentTab,
    setRules: (next: string[]) => {
      rules = parseSiteRules(next).rules;
    },
    /** The scopes installed: the agent tabs rule's ids, and the new-window rule's exclusions and initiators. */
    scopes: () => {
      const conditions = net.conditions();
      const agent = conditions.find((c) => c.tabIds !== undefined);
      const windows = conditions.find((c) => c.tabIds === undefined);
      return { agentTabs: agent?.tabIds ?? [], excluded: windows?.excludedTabIds ?? [], initiators: windows?.initiatorDomains, windowsRule: windows !== undefined };
    },
  };
}

describe('NetBarrier', () => {
  it('covers the tabs agents work in, excludes the person\'s, and names the sites agent tabs show as initiators', async () => {
    const { barrier, browser, net, scopes, personTab, agentTab } = setup();
    // An IPv6 literal is no domain to Chrome's filter (a rule naming one is refused): it is left out of the initiators.
    net.frames.set(agentTab, ['https://shop.test/', 'https://ads.example/frame', 'http://[::1]:9000/x', 'about:blank']);
    await barrier.cover([agentTab]);
    await barrier.ready();
    expect(scopes()).toEqual({ agentTabs: [agentTab], excluded: [personTab], initiators: ['ads.example', 'shop.test'], windowsRule: true });
    await barrier.committed(agentTab, 0, 'https://checkout.test/pay');
    expect(scopes().initiators).toEqual(['ads.example', 'checkout.test', 'shop.test']);
    // Tab ids survive a worker restart: a new barrier over the same storage covers the same tab.
    const again = fakeBarrier(browser, async () => parseSiteRules(['bank.test']).rules);
    await again.barrier.ready();
    expect(again.barrier.isCovered(agentTab)).toBe(true);
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

  it('a tab opened next to a covered one stays unclassified until Chrome says where it came from', async () => {
    const { barrier, browser, scopes, personTab, agentTab } = setup();
    await barrier.cover([agentTab]);
    // Its opener is covered and it does not start on the browser's own page: maybe a window the agent's page opened.
    const popup = browser.addTab({ url: 'https://bank.test/' }).id ?? 0;
    await barrier.tabCreated({ id: popup, openerTabId: agentTab, pendingUrl: 'https://bank.test/' });
    expect(scopes().excluded).toEqual([personTab]);
    // Ctrl+T while the agent tab is in front: the person's, at once.
    const ctrlT = browser.addTab({ url: 'chrome://newtab/' }).id ?? 0;
    await barrier.tabCreated({ id: ctrlT, openerTabId: agentTab, pendingUrl: 'chrome://newtab/' });
    expect(scopes().excluded).toEqual([personTab, ctrlT]);
    // Its first page commits and nobody named it an agent's window: it is the person's.
    await barrier.committed(popup, 0, 'https://bank.test/');
    expect(scopes().excluded).toEqual([personTab, ctrlT, popup].sort((a, b) => a - b));
  });

  it('while chrome-relay opens a tab, new tabs are covered whoever starts their first request, and the person\'s ones are theirs after', async () => {
    const { barrier, browser, net, scopes, agentTab } = setup();
    await barrier.cover([agentTab]);
    let during: ReturnType<typeof scopes> | undefined;
    const opened = await barrier.opening(async () => {
      const tab = browser.addTab({ url: 'about:blank' }).id ?? 0;
      await barrier.tabCreated({ id: tab });
      const other = browser.addTab({ url: 'https://news.test/2' }).id ?? 0;
      await barrier.tabCreated({ id: other });
      during = scopes();
      await barrier.cover([tab]);
      return { tab, other };
    });
    expect(during?.initiators).toBeUndefined();
    expect(during?.excluded).not.toContain(opened.tab);
    expect(during?.excluded).not.toContain(opened.other);
    expect(scopes().agentTabs).toContain(opened.tab);
    expect(scopes().excluded).toContain(opened.other);
    expect(net.conditions().every((c) => c.tabIds !== undefined || c.initiatorDomains !== undefined)).toBe(true);
  });

  it('"Stop sharing" makes a tab the person\'s again; a closed tab is forgotten', async () => {
    const { barrier, scopes, personTab, agentTab } = setup();
    await barrier.cover([agentTab, personTab]);
    await barrier.uncover(personTab);
    expect(scopes().agentTabs).toEqual([agentTab]);
    expect(scopes().excluded).toEqual([personTab]);
    await barrier.tabRemoved(personTab);
    await barrier.rulesChanged();
    expect(scopes().excluded).toEqual([]);
    expect(scopes().windowsRule).toBe(true);
  });
});
