/**
 * The tabs agents may use: what "agent tabs only" allows (with tabs the person put into a "chrome-relay" tab group).
 *
 * - `opened`: chrome-relay opened it (a new tab of `navigate`, the first tab of a workspace);
 * - `child`: an agent tab's page opened it (window.open, a target=_blank link): Chrome's
 *   webNavigation.onCreatedNavigationTarget names the source tab. Not the opener Chrome records for
 *   tab-strip order: a tab the person opens with Ctrl+T while an agent tab is in front has that tab as
 *   its opener, and it is still the person's;
 * - `shared`: the person lent it from the popup ("Let agents use this tab"), until "Stop sharing".
 *
 * In chrome.storage.local, not session storage: an extension reload or update (which clears session storage) must
 * not take their tabs from agents mid-task. Tab ids are unique for the browser's life and start at a random base
 * in each run, so an id cannot name another tab later; still, the record is cleared when the browser starts
 * (`clear`, from runtime.onStartup), so it never grows across runs.
 */
import type { BrowserApi } from '../browserApi.js';
import { Serial } from '../state/serial.js';

export const AGENT_TABS_KEY = 'agentTabs';

export type AgentTabKind = 'opened' | 'child' | 'shared';

const KINDS: readonly string[] = ['opened', 'child', 'shared'];

function isEntries(value: unknown): value is [number, AgentTabKind][] {
  return Array.isArray(value) && value.every((e) => Array.isArray(e) && e.length === 2 && Number.isInteger(e[0]) && KINDS.includes(String(e[1])));
}

export class AgentTabs {
  readonly #browser: Pick<BrowserApi, 'storageLocalGet' | 'storageLocalSet'>;
  readonly #serial = new Serial();
  #tabs: Promise<Map<number, AgentTabKind>> | undefined;

  constructor(browser: Pick<BrowserApi, 'storageLocalGet' | 'storageLocalSet'>) {
    this.#browser = browser;
  }

  async has(tabId: number): Promise<boolean> {
    return (await this.#load()).has(tabId);
  }

  async kindOf(tabId: number): Promise<AgentTabKind | undefined> {
    return (await this.#load()).get(tabId);
  }

  async list(): Promise<number[]> {
    return [...(await this.#load()).keys()];
  }

  /** Record a tab; a tab already recorded keeps how it came (an opened tab shared again stays opened). */
  add(tabId: number, kind: AgentTabKind): Promise<void> {
    return this.#change((tabs) => {
      if (tabs.has(tabId)) return false;
      tabs.set(tabId, kind);
      return true;
    });
  }

  /** Chrome replaced a tab (its memory saver discarded it): the tab is the same, under a new id. */
  replace(addedTabId: number, removedTabId: number): Promise<void> {
    return this.#change((tabs) => {
      const kind = tabs.get(removedTabId);
      if (kind === undefined) return false;
      tabs.delete(removedTabId);
      tabs.set(addedTabId, kind);
      return true;
    });
  }

  remove(tabId: number): Promise<void> {
    return this.#change((tabs) => tabs.delete(tabId));
  }

  /** The browser started: no tab of a previous run is open any more. */
  clear(): Promise<void> {
    return this.#change((tabs) => {
      const had = tabs.size > 0;
      tabs.clear();
      return had;
    });
  }

  #change(edit: (tabs: Map<number, AgentTabKind>) => boolean): Promise<void> {
    return this.#serial.run(async () => {
      const tabs = await this.#load();
      if (edit(tabs)) await this.#browser.storageLocalSet({ [AGENT_TABS_KEY]: [...tabs] });
    });
  }

  #load(): Promise<Map<number, AgentTabKind>> {
    this.#tabs ??= this.#browser.storageLocalGet([AGENT_TABS_KEY]).then(
      (items) => {
        const stored = items[AGENT_TABS_KEY];
        return new Map(isEntries(stored) ? stored : []);
      },
      (error: unknown) => {
        this.#tabs = undefined;
        throw error;
      },
    );
    return this.#tabs;
  }
}
