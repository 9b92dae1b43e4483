/**
 * The last snapshot tree of each tab (per scope), for `snapshot --diff`. Kept in memory and in
 * chrome.storage.session (one JSON string per tab and scope), so a service-worker restart does not
 * turn the next diff into "no previous snapshot". Trees are stored unshaped: the diff shapes both
 * sides with the options of the current call.
 */
import type { SnapshotNode } from '@chrome-relay/protocol';
import type { KeyValueStore } from '../refs/persist.js';

const keyOf = (tabId: number, scope: string): string => `snapshot:prev:${tabId}:${scope}`;

export class SnapshotHistory {
  readonly #store: KeyValueStore;
  readonly #memory = new Map<string, SnapshotNode[]>();

  constructor(store: KeyValueStore) {
    this.#store = store;
  }

  async previous(tabId: number, scope: string): Promise<SnapshotNode[] | null> {
    const key = keyOf(tabId, scope);
    const known = this.#memory.get(key);
    if (known !== undefined) return known;
    const stored = (await this.#store.get([key]))[key];
    if (typeof stored !== 'string') return null;
    try {
      const tree = JSON.parse(stored) as unknown;
      // Shape-checked again by the dispatcher's result validation; here only "is it a list".
      return Array.isArray(tree) ? (tree as SnapshotNode[]) : null;
    } catch {
      return null;
    }
  }

  async remember(tabId: number, scope: string, tree: SnapshotNode[]): Promise<void> {
    const key = keyOf(tabId, scope);
    this.#memory.set(key, tree);
    await this.#store.set({ [key]: JSON.stringify(tree) });
  }
}
