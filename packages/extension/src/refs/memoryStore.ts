/** An in-memory KeyValueStore: the hand-written fake the ref layer's unit tests run on. */
import type { KeyValueStore } from './persist.js';

export class MemoryStore implements KeyValueStore {
  readonly data = new Map<string, unknown>();
  /** Set to make the next set() reject, to test failure paths. */
  failNextSet: Error | undefined;
  sets = 0;

  get(keys: readonly string[]): Promise<Record<string, unknown>> {
    const result: Record<string, unknown> = {};
    for (const key of keys) if (this.data.has(key)) result[key] = structuredClone(this.data.get(key));
    return Promise.resolve(result);
  }

  set(items: Record<string, unknown>): Promise<void> {
    this.sets++;
    if (this.failNextSet !== undefined) {
      const error = this.failNextSet;
      this.failNextSet = undefined;
      return Promise.reject(error);
    }
    // Cloning like chrome.storage does: later mutation of the caller's objects must not leak in.
    for (const [key, value] of Object.entries(items)) this.data.set(key, structuredClone(value));
    return Promise.resolve();
  }

  remove(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.data.delete(key);
    return Promise.resolve();
  }
}
