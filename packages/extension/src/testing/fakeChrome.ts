/**
 * Hand-written fakes for unit tests: an in-memory browser (tabs, windows, storage) behind
 * BrowserApi, and a scriptable chrome.debugger behind DebuggerTransport. They fail the way Chrome
 * does (same error texts), so the real error mapping is what the tests exercise.
 */
import { chromeApiError, keyList, type BrowserApi, type StorageKeys } from '../browserApi.js';
import { CdpSessions, type CdpEvent, type CdpTarget, type DebuggerTransport } from '../cdp/cdpSession.js';
import type { ToolContext } from '../actions/toolContext.js';
import { fakeServices } from './toolContext.js';

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

export interface SentCommand {
  tabId: number;
  sessionId?: string;
  method: string;
  params: object | undefined;
}

/** Reply to one CDP method. Throw `protocolError(...)` to fail like Chrome does. */
export type CommandHandler = (params: object | undefined, tabId: number) => unknown;

/** The error chrome.debugger.sendCommand rejects with for a CDP protocol error. */
export function protocolError(message: string, code = -32000): Error {
  return new Error(JSON.stringify({ code, message }));
}

export class FakeDebugger implements DebuggerTransport {
  readonly sent: SentCommand[] = [];
  /** Tabs with a live session of this extension, as Chrome sees it. */
  readonly attached = new Set<number>();
  /** Our sessions from before a (simulated) worker restart: usable, but attach says "already attached". */
  readonly heldByOldSession = new Set<number>();
  /** Tabs someone else (DevTools, another extension) debugs: attach fails, commands fail. */
  readonly heldByOther = new Set<number>();
  /** Tabs that cannot be debugged at all, with Chrome's message. */
  readonly unattachable = new Map<number, string>();
  /** Tabs that do not exist. */
  readonly missing = new Set<number>();
  attachCalls = 0;
  detachCalls = 0;
  readonly #handlers = new Map<string, CommandHandler>();
  #onEvent: ((event: CdpEvent) => void) | undefined;
  #onDetach: ((tabId: number, reason: string) => void) | undefined;

  handle(method: string, handler: CommandHandler): this {
    this.#handlers.set(method, handler);
    return this;
  }

  /** Deliver a CDP event, as chrome.debugger.onEvent would. */
  emit(tabId: number, method: string, params: unknown = {}): void {
    this.#onEvent?.({ tabId, method, params });
  }

  /** Chrome ends the session (tab closed, user pressed Cancel…). */
  detachByChrome(tabId: number, reason: string): void {
    this.attached.delete(tabId);
    this.heldByOldSession.delete(tabId);
    this.#onDetach?.(tabId, reason);
  }

  methods(tabId?: number): string[] {
    return this.sent.filter((c) => tabId === undefined || c.tabId === tabId).map((c) => c.method);
  }

  async attach(tabId: number): Promise<void> {
    this.attachCalls++;
    if (this.missing.has(tabId)) throw new Error(`No tab with given id ${tabId}.`);
    const refusal = this.unattachable.get(tabId);
    if (refusal) throw new Error(refusal);
    if (this.attached.has(tabId) || this.heldByOldSession.has(tabId) || this.heldByOther.has(tabId)) {
      throw new Error(`Another debugger is already attached to the tab with id: ${tabId}.`);
    }
    this.attached.add(tabId);
  }

  async detach(tabId: number): Promise<void> {
    this.detachCalls++;
    if (!this.attached.has(tabId) && !this.heldByOldSession.has(tabId)) {
      throw new Error(`Debugger is not attached to the tab with id: ${tabId}.`);
    }
    this.attached.delete(tabId);
    this.heldByOldSession.delete(tabId);
  }

  async sendCommand(target: CdpTarget, method: string, params: object | undefined): Promise<unknown> {
    const command: SentCommand = { tabId: target.tabId, method, params };
    if (target.sessionId !== undefined) command.sessionId = target.sessionId;
    this.sent.push(command);
    if (!this.attached.has(target.tabId) && !this.heldByOldSession.has(target.tabId)) {
      throw new Error(`Debugger is not attached to the tab with id: ${target.tabId}.`);
    }
    const handler = this.#handlers.get(method);
    return handler ? await handler(params, target.tabId) : {};
  }

  listen(onEvent: (event: CdpEvent) => void, onDetach: (tabId: number, reason: string) => void): void {
    this.#onEvent = onEvent;
    this.#onDetach = onDetach;
  }
}

export interface FakeEnvironment {
  browser: FakeBrowser;
  debugger: FakeDebugger;
  cdp: CdpSessions;
  ctx: ToolContext;
}

/** A browser with one focused normal window, a started CdpSessions over a FakeDebugger, and a ToolContext. */
export function createFakeEnvironment(options: { deadlineMs?: number } = {}): FakeEnvironment {
  const browser = new FakeBrowser();
  browser.addWindow({ focused: true });
  const fakeDebugger = new FakeDebugger();
  const cdp = new CdpSessions(fakeDebugger);
  cdp.start();
  const ctx: ToolContext = { ...fakeServices(cdp, browser), deadline: Date.now() + (options.deadlineMs ?? 5_000), target: { kind: 'none' }, refs: new Map() };
  return { browser, debugger: fakeDebugger, cdp, ctx };
}
