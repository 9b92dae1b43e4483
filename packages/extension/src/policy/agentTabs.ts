/**
 * The tabs agents opened through chrome-relay: a new tab of `navigate`, the first tab of a
 * workspace, and tabs those tabs opened themselves (a link with target=_blank clicked by an agent).
 * In chrome.storage.session (survives worker restarts, dies with the browser like the tabs). It is
 * what "agent tabs only" allows, together with tabs the person put into a "chrome-relay" tab group.
 */
import type { BrowserApi } from '../browserApi.js';
import { Serial } from '../targeting/serial.js';

export const AGENT_TABS_KEY = 'agentTabs';

const isTabList = (value: unknown): value is number[] => Array.isArray(value) && value.every((v) => typeof v === 'number' && Number.isInteger(v));

export class AgentTabs {
  readonly #browser: Pick<BrowserApi, 'storageSessionGet' | 'storageSessionSet'>;
  readonly #serial = new Serial();
  #tabs: Promise<Set<number>> | undefined;

  constructor(browser: Pick<BrowserApi, 'storageSessionGet' | 'storageSessionSet'>) {
    this.#browser = browser;
  }

  async has(tabId: number): Promise<boolean> {
    return (await this.#load()).has(tabId);
  }

  async list(): Promise<number[]> {
    return [...(await this.#load())];
  }

  add(tabId: number): Promise<void> {
    return this.#change((tabs) => tabs.add(tabId));
  }

  /** A tab opened by `openerTabId`: an agent tab's child is an agent tab. */
  async addIfOpenedByAgentTab(tabId: number, openerTabId: number | undefined): Promise<void> {
    if (openerTabId !== undefined && (await this.has(openerTabId))) await this.add(tabId);
  }

  remove(tabId: number): Promise<void> {
    return this.#change((tabs) => tabs.delete(tabId));
  }

  #change(edit: (tabs: Set<number>) => boolean | Set<number>): Promise<void> {
    return this.#serial.run(async () => {
      const tabs = await this.#load();
      const before = tabs.size;
      edit(tabs);
      if (tabs.size !== before) await this.#browser.storageSessionSet({ [AGENT_TABS_KEY]: [...tabs] });
    });
  }

  #load(): Promise<Set<number>> {
    this.#tabs ??= this.#browser.storageSessionGet([AGENT_TABS_KEY]).then(
      (items) => {
        const stored = items[AGENT_TABS_KEY];
        return new Set(isTabList(stored) ? stored : []);
      },
      (error: unknown) => {
        this.#tabs = undefined;
        throw error;
      },
    );
    return this.#tabs;
  }
}
