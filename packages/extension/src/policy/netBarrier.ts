/**
 * The network barrier: the site block list installed in Chrome's request filter (declarativeNetRequest session
 * rules, compiled by netRules.ts), so that no request from a tab agents work in reaches a blocked site, whatever
 * starts it — a navigation, a redirect, a frame, fetch/XHR, a WebSocket, a beacon, a window it opens. Checks in
 * the worker (policy.ts) refuse what an agent asks for; the barrier stops what a page does on its own, including
 * what an agent's `js` made it do, and it holds while the worker sleeps (session rules live in the browser).
 *
 * What it keeps, and why:
 * - **covered**: the tabs agents work in — every tab an agent opened or was given, a window such a tab opened,
 *   and any other tab an agent call acted on (with "agent tabs only" off). Kept in chrome.storage.local (as the
 *   agent tabs are: an extension reload clears session storage, and Chrome drops session rules with it), so a
 *   restarted or reloaded worker covers the same tabs; cleared when the browser starts (`forgetAll`). A tab stays
 *   covered for its life (a page an agent set up can still act after the agent looks away).
 * - **person**: every other tab the worker has seen, excluded by id from the new-window rules.
 * - **pending**: a tab just created that may be a window an agent tab opened (its opener is covered), or any tab
 *   created while chrome-relay itself opens one: neither excluded nor covered until Chrome says where it came
 *   from (webNavigation's navigation target, or its first commit).
 * - **domains**: the hosts of the documents covered tabs show; a request of an unknown tab made on behalf of one
 *   of them is a window an agent's page opened.
 *
 * Every change recomputes the whole rule set and replaces what was installed, one change at a time. Nothing is
 * installed without block rules. When installing fails, `ready()` fails too: the person's block list is not in
 * force, so nothing an agent asks for may run (policy.ts refuses it).
 */
import { RelayError } from '@chrome-relay/protocol';
import { Serial } from '../targeting/serial.js';
import { barrierRules, requestMatches, type NetRule } from './netRules.js';
import type { RuleProblem, SiteRule } from './sitePatterns.js';

export const BARRIER_TABS_KEY = 'barrierTabs';

/** chrome.declarativeNetRequest and chrome.webNavigation, as far as the barrier uses them. */
export interface NetApi {
  /** The ids of this extension's installed session rules. */
  sessionRuleIds(): Promise<number[]>;
  updateSessionRules(update: { removeRuleIds: number[]; addRules: NetRule[] }): Promise<void>;
  /** Every tab id the browser has now. */
  allTabIds(): Promise<number[]>;
  /** The URLs of every frame of a tab ([] when it is gone). */
  frameUrls(tabId: number): Promise<string[]>;
  /** Whether Chrome's filter can hold this regular expression (it keeps each under a small memory budget). */
  isRegexSupported(regex: string): Promise<boolean>;
}

export interface BarrierDeps {
  net: NetApi;
  rules: () => Promise<readonly SiteRule[]>;
  storage: {
    get(keys: string[]): Promise<Record<string, unknown>>;
    set(items: Record<string, unknown>): Promise<void>;
  };
}

/** A tab as chrome.tabs.onCreated describes it. */
export interface CreatedTab {
  id?: number | undefined;
  openerTabId?: number | undefined;
  url?: string | undefined;
  pendingUrl?: string | undefined;
}

/** The host a request's initiator is matched by: a name or an IPv4 address (the filter takes no IPv6 literal as a domain). */
function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    const host = parsed.hostname.replace(/\.+$/, '');
    return host === '' || host.startsWith('[') ? undefined : host;
  } catch {
    return undefined;
  }
}

/** A new tab that starts on the browser's own page (Ctrl+T) was opened by the person, whatever its opener. */
function startsOnBrowserPage(tab: CreatedTab): boolean {
  const url = tab.pendingUrl ?? tab.url ?? '';
  return /^(chrome|edge|brave|about|chrome-search):/i.test(url) && url !== 'about:blank';
}

const isTabList = (value: unknown): value is number[] => Array.isArray(value) && value.every((v) => Number.isInteger(v));

export function barrierError(cause: unknown): RelayError {
  const apiMessage = cause instanceof Error ? cause.message : String(cause);
  return new RelayError(
    'chrome_api_error',
    `The person's site block list could not be installed in Chrome's request filter (${apiMessage}), so chrome-relay does nothing until it is; nothing was done. Tell the person: their block list in chrome-relay's options may hold a pattern Chrome cannot apply.`,
    { phase: 'dispatch', retryable: false, details: { api: 'chrome.declarativeNetRequest.updateSessionRules', apiMessage } },
  );
}

export class NetBarrier {
  readonly #deps: BarrierDeps;
  readonly #serial = new Serial();
  readonly #covered = new Set<number>();
  readonly #person = new Set<number>();
  readonly #pending = new Set<number>();
  readonly #domains = new Map<number, Set<string>>();
  #opening = 0;
  #loaded: Promise<void> | undefined;
  /** The rules installed now, as JSON (undefined before the first install: what is there is read then). */
  #installed: string | undefined;
  #installedIds: number[] = [];
  #failure: RelayError | undefined;

  constructor(deps: BarrierDeps) {
    this.#deps = deps;
  }

  /** Resolves once every change so far is installed; fails while the block list is not in force. */
  async ready(): Promise<void> {
    // Queued behind every change so far (and the first load, which installs).
    await this.#change(() => false).catch(() => undefined);
    // A failed install is tried again before anyone is told it failed (it may have been passing trouble).
    if (this.#failure !== undefined) await this.#change(() => true).catch(() => undefined);
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** The rules Chrome's filter could not hold, as problems the options page shows next to the line. */
  async unsupported(rules: readonly SiteRule[]): Promise<RuleProblem[]> {
    const problems: RuleProblem[] = [];
    for (const rule of rules) {
      for (const { regexFilter } of requestMatches(rule)) {
        if (regexFilter === undefined || (await this.#deps.net.isRegexSupported(regexFilter))) continue;
        problems.push({ line: rule.text, problem: "too long for Chrome's request filter: shorten it (the host alone blocks the whole site)" });
        break;
      }
    }
    return problems;
  }

  isCovered(tabId: number): boolean {
    return this.#covered.has(tabId);
  }

  /** Tabs agents work in from now on (adopted, shared, given to a call, opened by a covered tab). */
  cover(tabIds: readonly number[]): Promise<void> {
    return this.#change(async () => {
      const fresh = tabIds.filter((id) => !this.#covered.has(id));
      if (fresh.length === 0) return false;
      for (const id of fresh) {
        this.#covered.add(id);
        this.#person.delete(id);
        this.#pending.delete(id);
      }
      await this.#deps.storage.set({ [BARRIER_TABS_KEY]: [...this.#covered] });
      return true;
    });
  }

  /** The person took a tab back ("Stop sharing"): it is theirs again. */
  uncover(tabId: number): Promise<void> {
    return this.#change(async () => {
      if (!this.#covered.delete(tabId)) return false;
      this.#domains.delete(tabId);
      this.#person.add(tabId);
      await this.#deps.storage.set({ [BARRIER_TABS_KEY]: [...this.#covered] });
      return true;
    });
  }

  /** chrome.tabs.onCreated: the person's, unless it may be a window a covered tab opened (or chrome-relay is opening one). */
  tabCreated(tab: CreatedTab): Promise<void> {
    return this.#change(() => {
      const id = tab.id;
      if (id === undefined || this.#covered.has(id)) return false;
      const fromCovered = tab.openerTabId !== undefined && this.#covered.has(tab.openerTabId) && !startsOnBrowserPage(tab);
      if (this.#opening > 0 || fromCovered) {
        this.#pending.add(id);
        return false;
      }
      this.#person.add(id);
      return true;
    });
  }

  /** webNavigation.onCommitted: a covered tab shows a new host; a pending tab's first page settles whose it is. */
  committed(tabId: number, frameId: number, url: string): Promise<void> {
    return this.#change(() => {
      if (this.#covered.has(tabId)) {
        const host = hostOf(url);
        const hosts = this.#domains.get(tabId);
        if (host === undefined || hosts === undefined || hosts.has(host)) return false;
        hosts.add(host);
        return true;
      }
      if (frameId === 0 && this.#pending.has(tabId) && this.#opening === 0) {
        this.#pending.delete(tabId);
        this.#person.add(tabId);
        return true;
      }
      return false;
    });
  }

  /** A closed tab is forgotten (an id left in the person's list until the next install harms no one). */
  tabRemoved(tabId: number): Promise<void> {
    return this.#change(async () => {
      const wasCovered = this.#covered.delete(tabId);
      this.#person.delete(tabId);
      this.#pending.delete(tabId);
      this.#domains.delete(tabId);
      if (wasCovered) await this.#deps.storage.set({ [BARRIER_TABS_KEY]: [...this.#covered] });
      return wasCovered;
    });
  }

  /** The browser started: none of the tabs it remembers is open (ids start afresh). */
  forgetAll(): Promise<void> {
    return this.#change(async () => {
      this.#covered.clear();
      this.#domains.clear();
      await this.#deps.storage.set({ [BARRIER_TABS_KEY]: [] });
      return true;
    });
  }

  /** The block list changed: install it. */
  rulesChanged(): Promise<void> {
    return this.#change(() => true);
  }

  /**
   * chrome-relay opens a tab: until `open` is done (and has covered what it opened), every new tab is covered by
   * the new-window rules whoever asks for its first page — a data: page can navigate before anyone knows its id.
   */
  async opening<T>(open: () => Promise<T>): Promise<T> {
    await this.#change(() => {
      this.#opening++;
      return true;
    });
    await this.ready();
    try {
      return await open();
    } finally {
      await this.#change(() => {
        this.#opening--;
        if (this.#opening === 0) {
          for (const id of this.#pending) this.#person.add(id);
          this.#pending.clear();
        }
        return true;
      });
    }
  }

  /** Run one change, then install the result if it changed anything. Changes run one at a time. */
  #change(edit: () => boolean | Promise<boolean>): Promise<void> {
    return this.#serial.run(async () => {
      try {
        await this.#load();
        if (await edit()) await this.#install();
      } catch (error) {
        this.#failure = error instanceof RelayError ? error : barrierError(error);
        throw this.#failure;
      }
    });
  }

  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      const stored = (await this.#deps.storage.get([BARRIER_TABS_KEY]))[BARRIER_TABS_KEY];
      const tabs = new Set(await this.#deps.net.allTabIds());
      for (const id of isTabList(stored) ? stored : []) if (tabs.has(id)) this.#covered.add(id);
      for (const id of tabs) if (!this.#covered.has(id)) this.#person.add(id);
      // Whatever a previous worker installed is replaced by the first install (which always runs once).
      this.#installedIds = await this.#deps.net.sessionRuleIds();
      await this.#install();
    })().catch((error: unknown) => {
      this.#loaded = undefined;
      throw error;
    });
    return this.#loaded;
  }

  async #install(): Promise<void> {
    try {
      const rules = await this.#deps.rules();
      if (rules.length > 0) {
        // Hosts of covered tabs not yet known (a tab covered while there were no rules, or before a worker restart).
        for (const id of this.#covered) {
          if (this.#domains.has(id)) continue;
          const hosts = new Set<string>();
          for (const url of await this.#deps.net.frameUrls(id)) {
            const host = hostOf(url);
            if (host !== undefined) hosts.add(host);
          }
          this.#domains.set(id, hosts);
        }
      }
      const agentDomains = [...new Set([...this.#domains.values()].flatMap((hosts) => [...hosts]))];
      const next = barrierRules(rules, { agentTabs: [...this.#covered], personTabs: [...this.#person], agentDomains, opening: this.#opening > 0 });
      const json = JSON.stringify(next);
      if (json === this.#installed && this.#failure === undefined) return;
      await this.#deps.net.updateSessionRules({ removeRuleIds: this.#installedIds, addRules: next });
      this.#installedIds = next.map((rule) => rule.id);
      this.#installed = json;
      this.#failure = undefined;
    } catch (error) {
      throw error instanceof RelayError ? error : barrierError(error);
    }
  }
}
