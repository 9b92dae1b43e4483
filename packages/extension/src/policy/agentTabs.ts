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
 * In chrome.storage.session (survives worker restarts, dies with the browser like the tabs).
 */
import type { BrowserApi } from '../browserApi.js';
import { Serial } from '../targeting/serial.js';

export const AGENT_TABS_KEY = 'agentTabs';

export type AgentTabKind = 'opened' | 'child' | 'shared';

const KINDS: readonly string[] = ['opened', 'child', 'shared'];

function isEntries(value: unknown): value is [number, AgentTabKind][] {
  return Array.isArray(value) && value.every((e) => Array.isArray(e) && e.length === 2 && Number.isInteger(e[0]) && KINDS.includes(String(e[1])));
}

export class AgentTabs {
  readonly #browser: Pick<BrowserApi, 'storageSessionGet' | 'storageSessionSet'>;
  readonly #serial = new Serial();
  #tabs: Promise<Map<number, AgentTabKind>> | undefined;

  constructor(browser: Pick<BrowserApi, 'storageSessionGet' | 'storageSessionSet'>) {
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

  remove(tabId: number): Promise<void> {
    return this.#change((tabs) => tabs.delete(tabId));
  }

  #change(edit: (tabs: Map<number, AgentTabKind>) => boolean): Promise<void> {
    return this.#serial.run(async () => {
      const tabs = await this.#load();
      if (edit(tabs)) await this.#browser.storageSessionSet({ [AGENT_TABS_KEY]: [...tabs] });
    });
  }

  #load(): Promise<Map<number, AgentTabKind>> {
    this.#tabs ??= this.#browser.storageSessionGet([AGENT_TABS_KEY]).then(
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
