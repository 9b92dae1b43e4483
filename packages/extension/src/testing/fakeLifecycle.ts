/**
 * A hand-written fake of Chrome's page lifecycle for policy/agentPages.ts (LifecycleApi) over the fake browser:
 * discarding gives a tab a new id, as Chrome does; frozen tabs, reloads and held workers are recorded for tests.
 */
import { AgentPages, type LifecycleApi, type WorkerTarget } from '../policy/agentPages.js';
import type { AgentTabs } from '../policy/agentTabs.js';
import type { NetBarrier } from '../policy/netBarrier.js';
import type { PauseStore } from '../policy/pause.js';
import type { FakeBrowser } from './fakeBrowser.js';

export class FakeLifecycle implements LifecycleApi {
  readonly frozen = new Set<number>();
  readonly audible = new Set<number>();
  readonly reloaded: number[] = [];
  /** Worker targets the fake debugger lists. */
  readonly workerTargets: WorkerTarget[] = [];
  readonly held = new Set<string>();
  /** Tabs Chrome refuses to discard. */
  readonly undiscardable = new Set<number>();
  readonly #browser: FakeBrowser;

  constructor(browser: FakeBrowser) {
    this.#browser = browser;
  }

  async discard(tabId: number): Promise<number | undefined> {
    const tab = this.#browser.tabs.get(tabId);
    if (tab?.windowId === undefined || this.undiscardable.has(tabId)) return undefined;
    const fresh = this.#browser.addTab({ windowId: tab.windowId, url: tab.url ?? '', title: tab.title ?? '', active: tab.active });
    await this.#browser.removeTab(tabId);
    this.frozen.delete(tabId);
    return fresh.id;
  }

  async reload(tabId: number): Promise<void> {
    this.reloaded.push(tabId);
  }

  async tabs(): Promise<{ id: number; url: string; active: boolean; audible: boolean; frozen: boolean }[]> {
    return [...this.#browser.tabs.values()].flatMap((tab) =>
      tab.id === undefined ? [] : [{ id: tab.id, url: tab.url ?? '', active: tab.active, audible: this.audible.has(tab.id), frozen: this.frozen.has(tab.id) }],
    );
  }

  async setFrozen(tabId: number, frozen: boolean): Promise<boolean> {
    if (!this.#browser.tabs.has(tabId)) return false;
    if (frozen) this.frozen.add(tabId);
    else this.frozen.delete(tabId);
    return true;
  }

  async workers(): Promise<WorkerTarget[]> {
    return [...this.workerTargets];
  }

  async holdWorker(targetId: string): Promise<boolean> {
    this.held.add(targetId);
    return true;
  }

  async releaseWorker(targetId: string): Promise<void> {
    if (!this.held.delete(targetId)) throw new Error('Debugger is not attached to the target');
  }
}

export function fakeAgentPages(browser: FakeBrowser, barrier: NetBarrier, agentTabs: AgentTabs, pause: PauseStore): { lifecycle: FakeLifecycle; pages: AgentPages } {
  const lifecycle = new FakeLifecycle(browser);
  const pages = new AgentPages({ api: lifecycle, barrier, agentTabs, paused: async () => (await pause.get()).paused });
  return { lifecycle, pages };
}
