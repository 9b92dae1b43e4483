/**
 * What agents' pages may keep doing when the person takes something back. The network barrier (netBarrier.ts)
 * keeps blocked sites out of reach of everything an agent's page starts; this module ends the pages themselves
 * when the person says so:
 *
 * - **"Stop sharing" (`handBack`)**: a tab the person lent may hold code an agent planted there (a timer, a
 *   listener reading what they type next), and windows the agent opened from it hold a handle on it (`opener`,
 *   a reference kept in a variable) with which they can read it (same origin) or move it (any origin). So the
 *   tab is discarded — Chrome ends its document with everything running in it (no `beforeunload` prompt can hold
 *   it) and gives the tab a new id, which also cuts every handle other windows had on it (measured in Chromium
 *   156: the opener's window reads `opener === null`, a kept reference reads `closed === true` and navigating it
 *   does nothing) — and loaded again, as the person's. Its old id stays under the barrier a while (for what its
 *   page started as it went). Nothing of the agent's is left in the tab, and the agent's tab id is dead.
 * - **Pause (`pause`/`resume`)**: the tabs agents opened (and windows their pages opened) are frozen through the
 *   page lifecycle (CDP Page.setWebLifecycleState: timers, tasks, network and dedicated workers stop; measured)
 *   and silenced in the request filter (Chrome unfreezes a page the moment it is in view, so a tab the person
 *   looks at runs again: silenced, it reaches nothing). Tabs the person shared are frozen too unless they play
 *   sound (freezing would stop it); they are not silenced, so the person can use them. Workers of agents' sites
 *   (shared and service workers, which no page lifecycle stops) are held paused in the debugger — except a
 *   site a tab the person uses shows (their own, or one they shared), whose workers may be serving it; such a
 *   tab opening such a site during the pause releases its workers. Resume undoes all of it, in the other order.
 */
import type { AgentTabKind } from './agentTabs.js';
import type { NetBarrier } from './netBarrier.js';

/** A worker target as the debugger lists it. */
export interface WorkerTarget {
  id: string;
  url: string;
}

/** Chrome's page lifecycle, tabs and debugger, as far as this module uses them (policy/chromeLifecycle.ts). */
export interface LifecycleApi {
  /** Discard the tab (its document ends, and with it everything running there); its new id, undefined when Chrome would not. */
  discard(tabId: number): Promise<number | undefined>;
  reload(tabId: number): Promise<void>;
  /** The tabs open now, with what this module needs of each. */
  tabs(): Promise<{ id: number; url: string; active: boolean; audible: boolean; frozen: boolean }[]>;
  /** Freeze or unfreeze a tab's page through a debugger session of its own; false when the tab cannot be debugged. */
  setFrozen(tabId: number, frozen: boolean): Promise<boolean>;
  /** Every worker target (service and shared workers) of a web page. */
  workers(): Promise<WorkerTarget[]>;
  /** Pause a worker's JavaScript and keep it paused while the hold lasts; false when it cannot be held. */
  holdWorker(targetId: string): Promise<boolean>;
  releaseWorker(targetId: string): Promise<void>;
}

export interface AgentPagesDeps {
  api: LifecycleApi;
  barrier: Pick<NetBarrier, 'cover' | 'retire' | 'personTab' | 'silence' | 'isCovered' | 'agentHosts'>;
  agentTabs: { list(): Promise<number[]>; kindOf(tabId: number): Promise<AgentTabKind | undefined> };
  paused: () => Promise<boolean>;
}

const logFailure = (what: string) => (error: unknown) => console.error(`chrome-relay: ${what} failed`, error);

/** The host a worker's or tab's URL belongs to (a blob: URL's is its creator's). */
function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url.replace(/^blob:/i, ''));
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname.toLowerCase().replace(/\.+$/, '') : undefined;
  } catch {
    return undefined;
  }
}

export class AgentPages {
  readonly #deps: AgentPagesDeps;
  /** Workers held paused, by target id, with their host. */
  readonly #held = new Map<string, string>();

  constructor(deps: AgentPagesDeps) {
    this.#deps = deps;
  }

  /**
   * "Stop sharing": end the tab's document (and every handle on it) and load it again as the person's; its new id.
   * Should Chrome refuse to discard it, it is reloaded instead — its document still ends — and, since windows may
   * still hold a handle on it, it stays under the barrier for its life.
   */
  async handBack(tabId: number): Promise<number | undefined> {
    await this.#deps.barrier.retire(tabId);
    const fresh = await this.#deps.api.discard(tabId).catch((error: unknown) => {
      console.error(`chrome-relay: discarding tab ${tabId} failed; reloading it instead`, error);
      return undefined;
    });
    if (fresh === undefined) {
      await this.#deps.barrier.cover([tabId]);
      await this.#deps.api.reload(tabId);
      return tabId;
    }
    await this.#deps.barrier.personTab(fresh);
    await this.#deps.api.reload(fresh);
    return fresh;
  }

  /** The person paused agents: freeze and silence their tabs, hold their workers. Each step is tried whatever the others did. */
  async pause(): Promise<void> {
    const { silenced, frozen } = await this.#agentTabs();
    await this.#deps.barrier.silence(silenced).catch(logFailure("silencing the agents' tabs"));
    await Promise.all(frozen.map((tabId) => this.#freeze(tabId)));
    await this.#holdWorkers().catch(logFailure("holding the agents' workers"));
  }

  /** Resume: workers first, then the network, then the pages (which find their network there when they wake). */
  async resume(): Promise<void> {
    await this.#releaseWorkers().catch(logFailure("releasing the agents' workers"));
    await this.#deps.barrier.silence([]).catch(logFailure("lifting the silence on the agents' tabs"));
    const open = await this.#deps.api.tabs();
    const agentTabs = new Set(await this.#deps.agentTabs.list());
    await Promise.all(open.filter((tab) => tab.frozen && (agentTabs.has(tab.id) || this.#deps.barrier.isCovered(tab.id))).map((tab) => this.#deps.api.setFrozen(tab.id, false).catch(() => false)));
  }

  /**
   * While paused: an agent tab Chrome unfroze when it was shown is frozen again once another tab is in view, and a
   * window an agent tab opened meanwhile (the person clicking in it) is silenced and frozen too.
   */
  async tabsChanged(): Promise<void> {
    if (!(await this.#deps.paused())) return;
    const { silenced, frozen } = await this.#agentTabs();
    await this.#deps.barrier.silence(silenced);
    const open = new Map((await this.#deps.api.tabs()).map((tab) => [tab.id, tab]));
    await Promise.all(frozen.filter((tabId) => open.get(tabId)?.frozen === false).map((tabId) => this.#freeze(tabId)));
  }

  /** A tab the person uses starts loading `url` while paused: the workers of that site may serve it, so they run. */
  async personNavigates(tabId: number, url: string): Promise<void> {
    const host = hostOf(url);
    if (host === undefined || !(await this.#deps.paused()) || (await this.#agentsOwn(tabId))) return;
    // Also holds a previous worker of this extension took (the sessions outlive it; the record of them does not).
    for (const worker of await this.#deps.api.workers()) {
      if (hostOf(worker.url) !== host) continue;
      this.#held.delete(worker.id);
      await this.#deps.api.releaseWorker(worker.id).catch(() => undefined);
    }
  }

  /** Agent tabs open now: which to silence (the agents' own) and which to freeze (those, and silent shared ones). */
  async #agentTabs(): Promise<{ silenced: number[]; frozen: number[] }> {
    const open = new Map((await this.#deps.api.tabs()).map((tab) => [tab.id, tab]));
    const silenced: number[] = [];
    const frozen: number[] = [];
    for (const tabId of await this.#deps.agentTabs.list()) {
      const tab = open.get(tabId);
      if (tab === undefined) continue;
      const shared = (await this.#deps.agentTabs.kindOf(tabId)) === 'shared';
      if (!shared) silenced.push(tabId);
      if (!shared || !tab.audible) frozen.push(tabId);
    }
    return { silenced, frozen };
  }

  async #freeze(tabId: number): Promise<void> {
    await this.#deps.api.setFrozen(tabId, true).catch(logFailure(`freezing tab ${tabId}`));
  }

  /** A tab agents opened (or their pages did): not one the person uses. */
  async #agentsOwn(tabId: number): Promise<boolean> {
    const kind = await this.#deps.agentTabs.kindOf(tabId);
    return kind === 'opened' || kind === 'child';
  }

  /** Hold every worker of an agents' site that no tab the person uses (their own, or one they shared) shows. */
  async #holdWorkers(): Promise<void> {
    const agentHosts = new Set(await this.#deps.barrier.agentHosts());
    const personHosts = new Set<string>();
    for (const tab of await this.#deps.api.tabs()) {
      if (await this.#agentsOwn(tab.id)) continue;
      const host = hostOf(tab.url);
      if (host !== undefined) personHosts.add(host);
    }
    for (const worker of await this.#deps.api.workers()) {
      const host = hostOf(worker.url);
      if (host === undefined || !agentHosts.has(host) || personHosts.has(host) || this.#held.has(worker.id)) continue;
      if (await this.#deps.api.holdWorker(worker.id).catch(() => false)) this.#held.set(worker.id, host);
    }
  }

  /** Release every hold, also those a previous worker of this extension took (sessions outlive it). */
  async #releaseWorkers(): Promise<void> {
    const agentHosts = new Set(await this.#deps.barrier.agentHosts());
    const ids = new Set(this.#held.keys());
    for (const worker of await this.#deps.api.workers()) {
      const host = hostOf(worker.url);
      if (host !== undefined && agentHosts.has(host)) ids.add(worker.id);
    }
    this.#held.clear();
    await Promise.all([...ids].map((id) => this.#deps.api.releaseWorker(id).catch(() => undefined)));
  }
}
