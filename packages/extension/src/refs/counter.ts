/**
 * The browser-wide ref counter. One number line for every tab, kept in chrome.storage.local so it
 * continues after service-worker restarts and extension reloads: a ref string, once issued, never
 * names another element. Allocation happens under a lock and the new value is stored before the
 * refs are used (see snapshot.ts), so two snapshots can never hand out the same number.
 */
import { RelayError } from '@chrome-relay/protocol';
import { Mutex } from './lock.js';
import type { KeyValueStore } from './persist.js';

export const COUNTER_KEY = 'refCounter';

export interface Allocation {
  /** The first number not yet issued. */
  readonly next: number;
  /** Record that every number below `next` is now issued. Stored before it resolves. */
  advanceTo(next: number): Promise<void>;
}

function isCounter(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

export class RefCounter {
  readonly #store: KeyValueStore;
  readonly #mutex = new Mutex();
  /** Cached after the first read: this worker is the only writer. */
  #next: number | undefined;

  constructor(store: KeyValueStore) {
    this.#store = store;
  }

  /** Run `task` with exclusive use of the counter. */
  run<T>(deadline: number, task: (allocation: Allocation) => Promise<T>): Promise<T> {
    return this.#mutex.run(deadline, async () => {
      const start = await this.#load();
      let next = start;
      const allocation: Allocation = {
        get next() {
          return next;
        },
        advanceTo: async (value: number) => {
          if (!isCounter(value) || value < next) {
            throw new RelayError('internal_error', `The ref counter may only move forward (${next} → ${value}).`, { phase: 'act' });
          }
          if (value === next) return;
          await this.#store.set({ [COUNTER_KEY]: value });
          next = value;
          this.#next = value;
        },
      };
      return task(allocation);
    });
  }

  async #load(): Promise<number> {
    if (this.#next !== undefined) return this.#next;
    const stored = (await this.#store.get([COUNTER_KEY]))[COUNTER_KEY];
    this.#next = isCounter(stored) ? stored : 1;
    return this.#next;
  }
}
