/**
 * The seam between tools and the chrome.* extension APIs (everything except chrome.debugger, which
 * lives in cdp/cdpSession.ts). Only methods the tools actually use are here, so the hand-written
 * fake in testing/fakeChrome.ts stays small.
 *
 * Every chrome.* failure leaves this module as a RelayError: "No tab with id" / "No window with id"
 * become target_not_found (the agent picked a dead target), anything else chrome_api_error with the
 * browser's own text in details.apiMessage.
 */
import { RelayError } from '@chrome-relay/protocol';
import { CachedArea } from './state/cachedArea.js';

export interface BrowserApi {
  /** The tab, or target_not_found (details {tab}) when it does not exist. */
  getTab(tabId: number): Promise<chrome.tabs.Tab>;
  queryTabs(query: chrome.tabs.QueryInfo): Promise<chrome.tabs.Tab[]>;
  createTab(properties: chrome.tabs.CreateProperties): Promise<chrome.tabs.Tab>;
  updateTab(tabId: number, properties: chrome.tabs.UpdateProperties): Promise<chrome.tabs.Tab>;
  removeTab(tabId: number): Promise<void>;
  getAllWindows(query: chrome.windows.QueryOptions): Promise<chrome.windows.Window[]>;
  /** Only the keys present in storage appear in the result. */
  storageLocalGet(keys: StorageKeys): Promise<Record<string, unknown>>;
  storageLocalSet(items: Record<string, unknown>): Promise<void>;
  storageSessionGet(keys: StorageKeys): Promise<Record<string, unknown>>;
  storageSessionSet(items: Record<string, unknown>): Promise<void>;
  storageSessionRemove(keys: StorageKeys): Promise<void>;
}

export type StorageKeys = string | readonly string[];

export function keyList(keys: StorageKeys): string[] {
  return typeof keys === 'string' ? [keys] : [...keys];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Turn a chrome.* rejection into the closed error set. Exported so the fake maps identically. */
export function chromeApiError(api: string, error: unknown, target: { tab?: number; window?: number } = {}): RelayError {
  if (error instanceof RelayError) return error;
  const apiMessage = messageOf(error);
  if (/^No tab with id/i.test(apiMessage)) {
    return new RelayError(
      'target_not_found',
      `Tab ${target.tab ?? '?'} does not exist (it may have been closed); run \`chrome-relay tabs\` to list live tabs.`,
      { phase: 'resolve', details: { tab: target.tab ?? null, apiMessage } },
    );
  }
  if (/^No window with id/i.test(apiMessage)) {
    return new RelayError(
      'target_not_found',
      `Window ${target.window ?? '?'} does not exist (it may have been closed); run \`chrome-relay tabs\` to list live windows.`,
      { phase: 'resolve', details: { window: target.window ?? null, apiMessage } },
    );
  }
  return new RelayError('chrome_api_error', `${api} failed: ${apiMessage}`, {
    phase: 'act',
    details: { api, apiMessage },
  });
}

async function call<T>(api: string, run: () => Promise<T>, target: { tab?: number; window?: number } = {}): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw chromeApiError(api, error, target);
  }
}

/**
 * How every tab chrome-relay creates is opened: the person's limits install it (Policy.openTab makes the tab an
 * agent tab under the network barrier before it is handed back). One hook for chrome.tabs.create and
 * chrome.windows.create (targeting/organizeApi.ts), so no tool can open a tab any other way. Until installed
 * (unit tests), a tab is simply opened.
 */
export type OpenGuard = <T>(open: () => Promise<T>, tabIdOf: (opened: T) => number | undefined) => Promise<T>;
let openGuard: OpenGuard = (open) => open();

export function setOpenGuard(guard: OpenGuard): void {
  openGuard = guard;
}

export function guardedOpen<T>(open: () => Promise<T>, tabIdOf: (opened: T) => number | undefined): Promise<T> {
  return openGuard(open, tabIdOf);
}

/** chrome.storage.session behind this worker's memory copy (state/cachedArea.ts says why that is safe). */
const sessionArea = new CachedArea({
  get: (keys) => chrome.storage.session.get(keys),
  set: (items) => chrome.storage.session.set(items),
  remove: (keys) => chrome.storage.session.remove(keys),
});

/** The real implementation. `chrome` is only touched when a method runs, so node tests can import this file. */
export const chromeBrowserApi: BrowserApi = {
  getTab: (tabId) => call('chrome.tabs.get', () => chrome.tabs.get(tabId), { tab: tabId }),
  queryTabs: (query) => call('chrome.tabs.query', () => chrome.tabs.query(query)),
  createTab: (properties) =>
    guardedOpen(
      () => call('chrome.tabs.create', () => chrome.tabs.create(properties), properties.windowId === undefined ? {} : { window: properties.windowId }),
      (tab) => tab.id,
    ),
  updateTab: async (tabId, properties) => {
    const tab = await call('chrome.tabs.update', () => chrome.tabs.update(tabId, properties), { tab: tabId });
    // chrome.tabs.update resolves to undefined for tabs the extension cannot see; treat as gone.
    if (!tab) throw chromeApiError('chrome.tabs.update', new Error(`No tab with id: ${tabId}.`), { tab: tabId });
    return tab;
  },
  removeTab: (tabId) => call('chrome.tabs.remove', () => chrome.tabs.remove(tabId), { tab: tabId }),
  getAllWindows: (query) => call('chrome.windows.getAll', () => chrome.windows.getAll(query)),
  storageLocalGet: (keys) => call('chrome.storage.local.get', () => chrome.storage.local.get(keyList(keys))),
  storageLocalSet: (items) => call('chrome.storage.local.set', () => chrome.storage.local.set(items)),
  storageSessionGet: (keys) => call('chrome.storage.session.get', () => sessionArea.get(keyList(keys))),
  storageSessionSet: (items) => call('chrome.storage.session.set', () => sessionArea.set(items)),
  storageSessionRemove: (keys) => call('chrome.storage.session.remove', () => sessionArea.remove(keyList(keys))),
};
