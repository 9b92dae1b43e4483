/**
 * The network barrier: the site block list installed in Chrome's request filter (declarativeNetRequest session
 * rules, compiled by netRules.ts), so that no request an agent's page starts reaches a blocked site — a
 * navigation, a redirect, a frame, fetch/XHR, a WebSocket, a beacon, a window it opens (from any origin, opaque
 * ones included), a worker it leaves behind. Checks in the worker (policy.ts) refuse what an agent asks for; the
 * barrier stops what a page does on its own, including what an agent's `js` made it do, and it holds while the
 * worker sleeps (session rules live in the browser).
 *
 * Whose is a tab? The barrier covers every tab but the person's (netRules.ts), so what matters is knowing the
 * person's tabs, and never mistaking an agent's window for one:
 * - **covered**: the tabs agents work in — every tab an agent opened or was given, a window such a tab opened,
 *   any other tab an agent call acted on (with "agent tabs only" off). Kept in chrome.storage.local (an
 *   extension reload clears session storage, and Chrome drops session rules with it); cleared when the browser
 *   starts. A tab stays covered for its life: a page an agent set up can still act after the agent looks away.
 * - **retired**: a covered tab that closed, was replaced (a discard gives a tab a new id) or was handed back to the
 *   person: its id stays under the barrier for a while, since requests it started (a keepalive fetch, a beacon
 *   sent as it closed) still carry it and may be redirected later.
 * - **person**: tabs known to be the person's, excluded by id: every tab open when the worker loads, a tab that
 *   starts on the browser's own page (Ctrl+T), a window a person's tab opened, and a tab whose first navigation
 *   starts without Chrome having named a source for it (a bookmark, a link from another app). Chrome names the
 *   source of a window a page opens (webNavigation.onCreatedNavigationTarget) before that window navigates; until
 *   the worker hears either, a new tab is nobody's and under the barrier. A person's tab whose first page was
 *   stopped in that moment (its request can leave before the worker hears of the tab: measured, the request of a
 *   tab opened with a URL precedes its onBeforeNavigate) is loaded again once it is known to be the person's.
 * - **worker hosts**: every host a covered tab's documents showed. A service or shared worker such a page started
 *   outlives the tab (it makes requests of no tab, -1, on behalf of its site), so the hosts are never forgotten,
 *   not even across browser restarts (service workers survive them).
 * - **silenced**: while the person has paused agents, the agents' own tabs send nothing at all (pauseHold.ts).
 *
 * Every change recomputes the whole rule set and replaces what was installed, one change at a time. When installing
 * fails, `ready()` fails too: the person's block list is not in force, so nothing an agent asks for may run
 * (policy.ts refuses it).
 */
import { RelayError } from '@chrome-relay/protocol';
import { Serial } from '../state/serial.js';
import { barrierRules, requestMatches, type NetRule } from './netRules.js';
import type { RuleProblem, SiteRule } from './sitePatterns.js';

export const BARRIER_TABS_KEY = 'barrierTabs';
export const BARRIER_RETIRED_KEY = 'barrierRetired';
export const BARRIER_WORKER_HOSTS_KEY = 'barrierWorkerHosts';
export const BARRIER_SILENCED_KEY = 'barrierSilenced';

/** How long a retired tab id stays under the barrier: longer than Chrome lets a keepalive request run after its page. */
export const RETIRED_MS = 120_000;
/** Beyond this many agent sites, every worker's requests are under the barrier (the list would cost more than it spares). */
export const MAX_WORKER_HOSTS = 1000;
/** The error Chrome gives a navigation an extension's filter stopped. */
const BLOCKED_BY_CLIENT = 'net::ERR_BLOCKED_BY_CLIENT';

/** chrome.declarativeNetRequest, chrome.tabs and chrome.webNavigation, as far as the barrier uses them. */
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
  /** Load the tab's page again (a person's page the barrier stopped before it knew the tab). */
  reload(tabId: number): Promise<void>;
}

export interface BarrierDeps {
  net: NetApi;
  rules: () => Promise<readonly SiteRule[]>;
  storage: {
    get(keys: string[]): Promise<Record<string, unknown>>;
    set(items: Record<string, unknown>): Promise<void>;
  };
  now?: () => number;
}

/** A tab as chrome.tabs.onCreated describes it. */
export interface CreatedTab {
  id?: number | undefined;
  url?: string | undefined;
  pendingUrl?: string | undefined;
}

/** The host a request's initiator is matched by (Chrome's filter takes names, IPv4 and bracketed IPv6: measured). */
function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    const host = parsed.hostname.toLowerCase().replace(/\.+$/, '');
    return host === '' ? undefined : host;
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
const isRetiredList = (value: unknown): value is [number, number][] =>
  Array.isArray(value) && value.every((e) => Array.isArray(e) && e.length === 2 && Number.isInteger(e[0]) && typeof e[1] === 'number');
const isHostList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

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
  readonly #now: () => number;
  readonly #serial = new Serial();
  readonly #covered = new Set<number>();
  readonly #retired = new Map<number, number>();
  readonly #person = new Set<number>();
  /** Tabs Chrome named as a window some page opened: never taken for the person's by their first navigation. */
  readonly #targeted = new Set<number>();
  /** Tabs created while chrome-relay opened one: not classified until it is done. */
  readonly #pending = new Set<number>();
  /** Person's tabs known only once their first navigation had started: reloaded if the barrier stopped it. */
  readonly #late = new Set<number>();
  readonly #workerHosts = new Set<string>();
  #silenced: number[] = [];
  #opening = 0;
  #loaded: Promise<void> | undefined;
  /** The rules installed now, as JSON (undefined before the first install: what is there is read then). */
  #installed: string | undefined;
  #installedIds: number[] = [];
  #failure: RelayError | undefined;

  constructor(deps: BarrierDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
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

  /** Hosts of every document an agent's tab showed: their workers are the agents'. */
  async agentHosts(): Promise<string[]> {
    await this.#change(() => false).catch(() => undefined);
    return [...this.#workerHosts];
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
        this.#late.delete(id);
        this.#retired.delete(id);
        for (const url of await this.#deps.net.frameUrls(id)) this.#noteHost(url);
      }
      await this.#save();
      return true;
    });
  }

  /**
   * The tab leaves the agents (the person took it back; it closed): its id stays under the barrier for RETIRED_MS,
   * for what its pages started before.
   */
  retire(tabId: number): Promise<void> {
    return this.#change(async () => {
      if (!this.#covered.delete(tabId)) return false;
      this.#retired.set(tabId, this.#now());
      await this.#save();
      return true;
    });
  }

  /** A tab that is the person's (a tab they took back, under its new id). */
  personTab(tabId: number): Promise<void> {
    return this.#change(() => {
      if (this.#covered.has(tabId) || this.#person.has(tabId)) return false;
      this.#retired.delete(tabId);
      this.#person.add(tabId);
      this.#late.add(tabId);
      return true;
    });
  }

  /** chrome.tabs.onCreated: the person's when it starts on the browser's own page; else nobody's until Chrome says more. */
  tabCreated(tab: CreatedTab): Promise<void> {
    return this.#change(() => {
      const id = tab.id;
      if (id === undefined || this.#covered.has(id) || this.#person.has(id)) return false;
      if (this.#opening > 0) {
        this.#pending.add(id);
        return false;
      }
      if (!startsOnBrowserPage(tab)) return false;
      this.#person.add(id);
      return true;
    });
  }

  /** webNavigation.onCreatedNavigationTarget: a window a page opened is its source tab's: the agents' or the person's. */
  navigationTarget(sourceTabId: number, tabId: number): Promise<void> {
    return this.#change(async () => {
      this.#targeted.add(tabId);
      if (this.#covered.has(sourceTabId) && !this.#covered.has(tabId)) {
        this.#covered.add(tabId);
        this.#person.delete(tabId);
        this.#pending.delete(tabId);
        await this.#save();
        return true;
      }
      if (!this.#person.has(sourceTabId) || this.#covered.has(tabId) || this.#person.has(tabId)) return false;
      this.#person.add(tabId);
      this.#late.add(tabId);
      return true;
    });
  }

  /**
   * webNavigation.onBeforeNavigate (and the first commit, in case that was missed): a tab whose first navigation
   * starts with no source named is one the browser opened for the person.
   */
  navigationStarted(tabId: number, frameId: number): Promise<void> {
    return this.#change(() => this.#settleUnknown(tabId, frameId));
  }

  /** webNavigation.onCommitted: a covered tab shows a new host (its workers are the agents'); settles an unknown tab. */
  committed(tabId: number, frameId: number, url: string): Promise<void> {
    return this.#change(async () => {
      if (this.#covered.has(tabId)) {
        if (!this.#noteHost(url)) return false;
        await this.#save();
        return true;
      }
      if (frameId === 0) this.#late.delete(tabId);
      return this.#settleUnknown(tabId, frameId);
    });
  }

  /**
   * webNavigation.onErrorOccurred: a person's tab whose first page the barrier stopped before it knew the tab is
   * loaded again, once (a page of a site the block list names, stopped by an extension's filter: ours).
   */
  async navigationFailed(tabId: number, frameId: number, error: string, url: string): Promise<void> {
    if (frameId !== 0 || error !== BLOCKED_BY_CLIENT || !this.#late.has(tabId)) return;
    this.#late.delete(tabId);
    if (!this.#person.has(tabId) || !(await this.#deps.rules()).some((rule) => rule.matches(url))) return;
    await this.ready();
    await this.#deps.net.reload(tabId);
  }

  /** chrome.tabs.onReplaced (a discard, a prerender swap): the new id is whose the old one was. */
  tabReplaced(addedTabId: number, removedTabId: number): Promise<void> {
    return this.#change(async () => {
      if (this.#covered.has(removedTabId)) {
        this.#covered.delete(removedTabId);
        this.#retired.set(removedTabId, this.#now());
        this.#covered.add(addedTabId);
        this.#person.delete(addedTabId);
        await this.#save();
        return true;
      }
      if (!this.#person.delete(removedTabId)) return false;
      this.#person.add(addedTabId);
      return true;
    });
  }

  /** A closed tab: a covered one is retired; the person's is forgotten. */
  tabRemoved(tabId: number): Promise<void> {
    return this.#change(async () => {
      this.#person.delete(tabId);
      this.#pending.delete(tabId);
      this.#targeted.delete(tabId);
      this.#late.delete(tabId);
      if (!this.#covered.delete(tabId)) return false;
      this.#retired.set(tabId, this.#now());
      await this.#save();
      return true;
    });
  }

  /** The browser started: none of the tabs it remembers is open (ids start afresh). Workers' sites stay agents'. */
  forgetAll(): Promise<void> {
    return this.#change(async () => {
      this.#covered.clear();
      this.#retired.clear();
      this.#silenced = [];
      await this.#save();
      await this.#deps.storage.set({ [BARRIER_SILENCED_KEY]: [] });
      return true;
    });
  }

  /** The block list changed: install it. */
  rulesChanged(): Promise<void> {
    return this.#change(() => true);
  }

  /** The person paused agents: these tabs send nothing until `silence([])` (pauseHold.ts). */
  silence(tabIds: readonly number[]): Promise<void> {
    return this.#change(async () => {
      const next = [...new Set(tabIds)].sort((a, b) => a - b);
      if (next.join() === this.#silenced.join()) return false;
      this.#silenced = next;
      await this.#deps.storage.set({ [BARRIER_SILENCED_KEY]: next });
      return true;
    });
  }

  /**
   * chrome-relay opens a tab: until `open` is done (and has covered what it opened), new tabs stay unclassified, so
   * under the barrier — a data: page can navigate before anyone knows its id.
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
          for (const id of this.#pending) {
            if (this.#covered.has(id) || this.#targeted.has(id)) continue;
            this.#person.add(id);
            this.#late.add(id);
          }
          this.#pending.clear();
        }
        return true;
      });
    }
  }

  /** An unknown tab's main frame starts navigating with no source named: the person's. */
  #settleUnknown(tabId: number, frameId: number): boolean {
    if (frameId !== 0 || this.#opening > 0 || this.#covered.has(tabId) || this.#person.has(tabId) || this.#targeted.has(tabId)) return false;
    if (this.#retired.has(tabId) || this.#pending.has(tabId)) return false;
    this.#person.add(tabId);
    this.#late.add(tabId);
    return true;
  }

  /** Remember a host an agent's document showed; whether it is new. */
  #noteHost(url: string): boolean {
    const host = hostOf(url);
    if (host === undefined || this.#workerHosts.has(host)) return false;
    this.#workerHosts.add(host);
    return true;
  }

  async #save(): Promise<void> {
    await this.#deps.storage.set({
      [BARRIER_TABS_KEY]: [...this.#covered],
      [BARRIER_RETIRED_KEY]: [...this.#retired],
      [BARRIER_WORKER_HOSTS_KEY]: [...this.#workerHosts],
    });
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
      const stored = await this.#deps.storage.get([BARRIER_TABS_KEY, BARRIER_RETIRED_KEY, BARRIER_WORKER_HOSTS_KEY, BARRIER_SILENCED_KEY]);
      const tabs = new Set(await this.#deps.net.allTabIds());
      const covered = stored[BARRIER_TABS_KEY];
      for (const id of isTabList(covered) ? covered : []) if (tabs.has(id)) this.#covered.add(id);
      const retired = stored[BARRIER_RETIRED_KEY];
      for (const [id, at] of isRetiredList(retired) ? retired : []) this.#retired.set(id, at);
      const hosts = stored[BARRIER_WORKER_HOSTS_KEY];
      for (const host of isHostList(hosts) ? hosts : []) this.#workerHosts.add(host);
      const silenced = stored[BARRIER_SILENCED_KEY];
      this.#silenced = isTabList(silenced) ? silenced : [];
      for (const id of tabs) if (!this.#covered.has(id) && !this.#retired.has(id)) this.#person.add(id);
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
      const now = this.#now();
      for (const [id, at] of this.#retired) if (now - at > RETIRED_MS) this.#retired.delete(id);
      const next = barrierRules(rules, {
        agentsPresent: this.#covered.size > 0 || this.#retired.size > 0 || this.#opening > 0,
        personTabs: [...this.#person],
        workerHosts: this.#workerHosts.size > MAX_WORKER_HOSTS ? 'all' : [...this.#workerHosts],
        silenced: this.#silenced,
      });
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
