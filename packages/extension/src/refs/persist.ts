/**
 * Where the ref layer keeps what must outlive the service worker. The interface is three methods
 * so unit tests use a hand-written in-memory fake; the real stores go through BrowserApi, which
 * already maps chrome.storage failures to chrome_api_error.
 *
 * - session (chrome.storage.session): the registry and the world epoch. Survives worker restarts;
 *   cleared by an extension reload, which is exactly when old refs must become unknown.
 * - local (chrome.storage.local): the ref counter, which must never go back, not even across
 *   extension reloads (a ref string may never name two elements).
 */
import { chromeBrowserApi } from '../browserApi.js';

export interface KeyValueStore {
  get(keys: readonly string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: readonly string[]): Promise<void>;
}

export const chromeSessionStore: KeyValueStore = {
  get: (keys) => chromeBrowserApi.storageSessionGet(keys),
  set: (items) => chromeBrowserApi.storageSessionSet(items),
  remove: (keys) => chromeBrowserApi.storageSessionRemove(keys),
};

export const chromeLocalStore: KeyValueStore = {
  get: (keys) => chromeBrowserApi.storageLocalGet(keys),
  set: (items) => chromeBrowserApi.storageLocalSet(items),
  // The counter is never removed; BrowserApi has no local remove, so neither does this store.
  remove: () => Promise.resolve(),
};
