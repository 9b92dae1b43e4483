/**
 * An in-memory browser for unit tests (tabs, windows, storage) behind BrowserApi. It fails the way Chrome does (same
 * error texts), so the real error mapping is what the tests exercise. The debugger's fake is fakeChrome.ts.
 */
import { chromeApiError, keyList, type BrowserApi, type StorageKeys } from '../browserApi.js';

interface FakeWindow {
  id: number;
  focused: boolean;
  type: 'normal' | 'popup' | 'app';
  tabIds: number[];
}

export interface AddTabOptions {
  windowId?: number;
  url?: string;
  title?: string;
  active?: boolean;
}

export class FakeBrowser implements BrowserApi {
  readonly tabs = new Map<number, chrome.tabs.Tab>();
  readonly windows = new Map<number, FakeWindow>();
  readonly local = new Map<string, unknown>();
  readonly session = new Map<string, unknown>();
  /** Names of the BrowserApi methods called, in order. */
  readonly calls: string[] = [];
  #nextId = 1;

  addWindow(options: { type?: FakeWindow['type']; focused?: boolean } = {}): number {
    const id = this.#nextId++;
    this.windows.set(id, { id, focused: options.focused ?? false, type: options.type ?? 'normal', tabIds: [] });
    return id;
  }

  addTab(options: AddTabOptions = {}): chrome.tabs.Tab {
    const windowId = options.windowId ?? this.#firstWindow();
    const window = this.windows.get(windowId);
    if (!window) throw new Error(`fake: no window ${windowId}`);
    const id = this.#nextId++;
    if (options.active) for (const other of window.tabIds) this.#setActive(other, false);
    const tab: chrome.tabs.Tab = {
      id,
      windowId,
      index: window.tabIds.length,
      url: options.url ?? 'about:blank',
      title: options.title ?? '',
      active: options.active ?? false,
      status: 'complete',
      groupId: -1,
      pinned: false,
      highlighted: options.active ?? false,
      incognito: false,
      selected: options.active ?? false,
      discarded: false,
      autoDiscardable: true,
      frozen: false,
      lastAccessed: 0,
    };
    window.tabIds.push(id);
    this.tabs.set(id, tab);
    return tab;
  }

  closeTab(tabId: number): void {
    const tab = this.tabs.get(tabId);
    if (!tab) return;
    this.tabs.delete(tabId);
    const window = this.windows.get(tab.windowId);
    if (window) window.tabIds = window.tabIds.filter((id) => id !== tabId);
  }

  async getTab(tabId: number): Promise<chrome.tabs.Tab> {
    this.calls.push('getTab');
    return { ...this.#tab('chrome.tabs.get', tabId) };
  }

  async queryTabs(query: chrome.tabs.QueryInfo): Promise<chrome.tabs.Tab[]> {
    this.calls.push('queryTabs');
    return [...this.tabs.values()].filter(
      (tab) => (query.active === undefined || tab.active === query.active) && (query.windowId === undefined || tab.windowId === query.windowId),
    );
  }

  async createTab(properties: chrome.tabs.CreateProperties): Promise<chrome.tabs.Tab> {
    this.calls.push('createTab');
    const options: AddTabOptions = { active: properties.active ?? true };
    if (properties.url !== undefined) options.url = properties.url;
    if (properties.windowId !== undefined) options.windowId = properties.windowId;
    return { ...this.addTab(options) };
  }

  async updateTab(tabId: number, properties: chrome.tabs.UpdateProperties): Promise<chrome.tabs.Tab> {
    this.calls.push('updateTab');
    const tab = this.#tab('chrome.tabs.update', tabId);
    if (properties.url !== undefined) tab.url = properties.url;
    if (properties.active === true) this.#setActive(tabId, true);
    return { ...tab };
  }

  async removeTab(tabId: number): Promise<void> {
    this.calls.push('removeTab');
    this.#tab('chrome.tabs.remove', tabId);
    this.closeTab(tabId);
  }

  async getAllWindows(query: chrome.windows.QueryOptions): Promise<chrome.windows.Window[]> {
    this.calls.push('getAllWindows');
    return [...this.windows.values()]
      .filter((w) => !query.windowTypes || query.windowTypes.includes(w.type))
      .map((w) => this.#toWindow(w, query.populate === true));
  }

  async storageLocalGet(keys: StorageKeys): Promise<Record<string, unknown>> {
    return pick(this.local, keys);
  }

  async storageLocalSet(items: Record<string, unknown>): Promise<void> {
    for (const [key, value] of Object.entries(items)) this.local.set(key, structuredClone(value));
  }

  async storageSessionGet(keys: StorageKeys): Promise<Record<string, unknown>> {
    return pick(this.session, keys);
  }

  async storageSessionSet(items: Record<string, unknown>): Promise<void> {
    for (const [key, value] of Object.entries(items)) this.session.set(key, structuredClone(value));
  }

  async storageSessionRemove(keys: StorageKeys): Promise<void> {
    for (const key of keyList(keys)) this.session.delete(key);
  }

  #firstWindow(): number {
    const first = this.windows.keys().next();
    return first.done ? this.addWindow({ focused: true }) : first.value;
  }

  #tab(api: string, tabId: number): chrome.tabs.Tab {
    const tab = this.tabs.get(tabId);
    if (!tab) throw chromeApiError(api, new Error(`No tab with id: ${tabId}.`), { tab: tabId });
    return tab;
  }

  #setActive(tabId: number, active: boolean): void {
    const tab = this.tabs.get(tabId);
    if (tab) tab.active = active;
  }

  #toWindow(window: FakeWindow, populate: boolean): chrome.windows.Window {
    const result: chrome.windows.Window = {
      id: window.id,
      focused: window.focused,
      type: window.type,
      alwaysOnTop: false,
      incognito: false,
      state: 'normal',
    };
    if (populate) {
      result.tabs = window.tabIds.flatMap((id) => {
        const tab = this.tabs.get(id);
        return tab ? [{ ...tab }] : [];
      });
    }
    return result;
  }
}

function pick(store: Map<string, unknown>, keys: StorageKeys): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keyList(keys)) if (store.has(key)) out[key] = structuredClone(store.get(key));
  return out;
}
