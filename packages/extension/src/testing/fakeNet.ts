/**
 * A hand-written fake of the network barrier's Chrome (policy/netBarrier.ts NetApi): session rules kept in memory
 * and replaced the way chrome.declarativeNetRequest replaces them, the fake browser's tabs, frames a test sets.
 */
import type { NetRule } from '../policy/netRules.js';
import type { NetApi } from '../policy/netBarrier.js';
import { NetBarrier } from '../policy/netBarrier.js';
import type { SiteRule } from '../policy/sitePatterns.js';
import type { FakeBrowser } from './fakeBrowser.js';

export class FakeNet implements NetApi {
  readonly rules = new Map<number, NetRule>();
  /** Frame URLs by tab (a tab not listed shows its own URL only). */
  readonly frames = new Map<number, string[]>();
  /** Regular expressions the fake filter cannot hold. */
  readonly unsupported = new Set<string>();
  updates = 0;
  /** Tabs reloaded, in order. */
  readonly reloaded: number[] = [];
  /** While set, every update fails with it (Chrome refusing the rules). */
  failing: Error | undefined;
  readonly #browser: FakeBrowser;

  constructor(browser: FakeBrowser) {
    this.#browser = browser;
  }

  async sessionRuleIds(): Promise<number[]> {
    return [...this.rules.keys()];
  }

  async updateSessionRules(update: { removeRuleIds: number[]; addRules: NetRule[] }): Promise<void> {
    if (this.failing !== undefined) throw this.failing;
    this.updates++;
    for (const id of update.removeRuleIds) this.rules.delete(id);
    for (const rule of update.addRules) {
      if (this.rules.has(rule.id)) throw new Error(`Rule with id ${rule.id} does not have a unique ID.`);
      this.rules.set(rule.id, rule);
    }
  }

  async allTabIds(): Promise<number[]> {
    return [...this.#browser.tabs.keys()];
  }

  async frameUrls(tabId: number): Promise<string[]> {
    return this.frames.get(tabId) ?? [this.#browser.tabs.get(tabId)?.url ?? ''];
  }

  async reload(tabId: number): Promise<void> {
    this.reloaded.push(tabId);
  }

  async isRegexSupported(regex: string): Promise<boolean> {
    return !this.unsupported.has(regex);
  }

  /** The installed conditions, as a test reads them. */
  conditions(): NetRule['condition'][] {
    return [...this.rules.values()].map((rule) => rule.condition);
  }
}

export function fakeBarrier(browser: FakeBrowser, rules: () => Promise<readonly SiteRule[]>, now?: () => number): { net: FakeNet; barrier: NetBarrier } {
  const net = new FakeNet(browser);
  const barrier = new NetBarrier({
    net,
    rules,
    storage: { get: (keys) => browser.storageLocalGet(keys), set: (items) => browser.storageLocalSet(items) },
    ...(now === undefined ? {} : { now }),
  });
  return { net, barrier };
}
