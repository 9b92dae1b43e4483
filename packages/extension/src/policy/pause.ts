/**
 * The person's Pause switch (toolbar popup). In chrome.storage.local, not session storage: a pause
 * is a person's decision and lasts until they press Resume — a worker restart, an extension reload
 * or a browser restart must not lift it behind their back.
 */
import type { BrowserApi } from '../browserApi.js';

export interface PauseState {
  paused: boolean;
  /** Epoch ms the pause began; null when not paused. */
  since: number | null;
}

export const PAUSE_KEY = 'pause';
const RUNNING: PauseState = { paused: false, since: null };

function isPauseState(value: unknown): value is PauseState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.paused === 'boolean' && (v.since === null || typeof v.since === 'number');
}

export class PauseStore {
  readonly #browser: Pick<BrowserApi, 'storageLocalGet' | 'storageLocalSet'>;
  readonly #now: () => number;
  #current: Promise<PauseState> | undefined;
  readonly #listeners = new Set<(state: PauseState) => void>();

  constructor(browser: Pick<BrowserApi, 'storageLocalGet' | 'storageLocalSet'>, now: () => number = Date.now) {
    this.#browser = browser;
    this.#now = now;
  }

  get(): Promise<PauseState> {
    this.#current ??= this.#browser.storageLocalGet([PAUSE_KEY]).then(
      (items) => {
        const stored = items[PAUSE_KEY];
        return isPauseState(stored) && stored.paused ? stored : RUNNING;
      },
      (error: unknown) => {
        this.#current = undefined;
        throw error;
      },
    );
    return this.#current;
  }

  /** Pause or resume; pausing again keeps the original time. Listeners run after the state is stored. */
  async set(paused: boolean): Promise<PauseState> {
    const current = await this.get();
    if (current.paused === paused) return current;
    const next: PauseState = paused ? { paused: true, since: this.#now() } : RUNNING;
    await this.#browser.storageLocalSet({ [PAUSE_KEY]: next });
    this.#current = Promise.resolve(next);
    for (const listener of [...this.#listeners]) listener(next);
    return next;
  }

  onChange(listener: (state: PauseState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
