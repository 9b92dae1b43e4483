/**
 * Detach a tab's debugger session once no command has used it for a while, so the "chrome-relay
 * started debugging this browser" bar leaves the person's own Chrome (CHROMIUM.md: it goes ≈ 5 s
 * after the last detach) and the next command re-attaches transparently. Owned by CdpSessions
 * (cdpSession.ts), which reports uses and holds and does the detaching.
 *
 * A tab is idle when, for `idleMs`:
 * - no command was sent on it and no call held it (the dispatcher holds the tabs a call acts on for
 *   the whole call: a `wait` that only listens to events sends nothing for seconds, yet needs the
 *   session), and no call that acts on no known tab yet (navigate to a new tab) is running;
 * - and `keep` says nothing needs the session (a command in flight, an open JavaScript dialog — a
 *   new session can neither see nor answer it —, a screencast recording, a download in progress).
 * A held or kept tab is checked again later; it never loses its session under a running call.
 *
 * Why re-attaching is safe for refs: chrome-relay's isolated world outlives the session that made it
 * and context ids stay valid across sessions (page/worlds.ts), so a ref taken before the detach works
 * after it, or fails stale_ref when the document really changed.
 */

export interface IdleClock {
  now(): number;
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const realClock: IdleClock = {
  now: () => Date.now(),
  setTimer: (run, ms) => setTimeout(run, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const DEFAULT_IDLE_DETACH_MS = 15_000;

export interface IdleDetachDeps {
  detach(tabId: number): Promise<void>;
  /** True while something needs the tab's session even though no call holds it. */
  keep(tabId: number): Promise<boolean>;
  clock?: IdleClock;
}

interface TabIdle {
  lastUse: number;
  holds: number;
  timer: unknown;
  /** A session exists (only then is there anything to detach). */
  session: boolean;
}

export class IdleDetacher {
  readonly #deps: IdleDetachDeps;
  readonly #clock: IdleClock;
  readonly #tabs = new Map<number, TabIdle>();
  #idleMs = DEFAULT_IDLE_DETACH_MS;
  /** Calls running that act on no known tab (they may be creating one). */
  #globalHolds = 0;

  constructor(deps: IdleDetachDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? realClock;
  }

  /** 0 turns idle detaching off (sessions then stay until the tab closes or the person cancels). */
  setIdleMs(ms: number): void {
    this.#idleMs = Math.max(0, ms);
    for (const tabId of this.#tabs.keys()) this.#schedule(tabId);
  }

  idleMs(): number {
    return this.#idleMs;
  }

  /** A session now exists for the tab (fresh attach). */
  attached(tabId: number): void {
    this.#tab(tabId).session = true;
    this.used(tabId);
  }

  /** A command was sent on the tab. */
  used(tabId: number): void {
    const tab = this.#tab(tabId);
    tab.lastUse = this.#clock.now();
    this.#schedule(tabId);
  }

  /** The tab's session is gone (detached by anyone, or the tab closed). */
  forgotten(tabId: number): void {
    const tab = this.#tabs.get(tabId);
    if (tab === undefined) return;
    this.#clock.clearTimer(tab.timer);
    tab.timer = undefined;
    tab.session = false;
    // Holds belong to running calls: keep the count so their release stays balanced after a re-attach.
    if (tab.holds === 0) this.#tabs.delete(tabId);
  }

  /** Hold tabs (or, with 'all', every tab) for the length of a call. Returns the release, idempotent. */
  hold(tabs: readonly number[] | 'all'): () => void {
    const since = this.#clock.now();
    if (tabs === 'all') this.#globalHolds++;
    else for (const tabId of tabs) this.#tab(tabId).holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = this.#clock.now();
      if (tabs === 'all') {
        this.#globalHolds--;
        for (const [tabId, tab] of this.#tabs) {
          // A tab the call used (a tab it opened) counts as used at the call's end.
          if (tab.lastUse > since) tab.lastUse = now;
          this.#schedule(tabId);
        }
        return;
      }
      for (const tabId of tabs) {
        const tab = this.#tab(tabId);
        tab.holds = Math.max(0, tab.holds - 1);
        tab.lastUse = now;
        this.#schedule(tabId);
      }
    };
  }

  #tab(tabId: number): TabIdle {
    let tab = this.#tabs.get(tabId);
    if (tab === undefined) {
      tab = { lastUse: this.#clock.now(), holds: 0, timer: undefined, session: false };
      this.#tabs.set(tabId, tab);
    }
    return tab;
  }

  #schedule(tabId: number): void {
    const tab = this.#tabs.get(tabId);
    if (tab === undefined) return;
    this.#clock.clearTimer(tab.timer);
    tab.timer = undefined;
    if (!tab.session) {
      if (tab.holds === 0) this.#tabs.delete(tabId);
      return;
    }
    if (this.#idleMs === 0 || tab.holds > 0) return;
    const wait = Math.max(0, tab.lastUse + this.#idleMs - this.#clock.now());
    tab.timer = this.#clock.setTimer(() => void this.#expire(tabId), wait);
  }

  #idle(tabId: number): boolean {
    const tab = this.#tabs.get(tabId);
    if (tab === undefined || !tab.session || this.#idleMs === 0) return false;
    return tab.holds === 0 && this.#globalHolds === 0 && this.#clock.now() - tab.lastUse >= this.#idleMs;
  }

  async #expire(tabId: number): Promise<void> {
    const tab = this.#tabs.get(tabId);
    if (tab === undefined || !tab.session) return;
    tab.timer = undefined;
    if (tab.holds > 0) return; // its release reschedules
    if (!this.#idle(tabId)) {
      // Not yet (a global hold, or a use since): look again a full period later, or at the right time.
      if (this.#globalHolds > 0) {
        tab.timer = this.#clock.setTimer(() => void this.#expire(tabId), this.#idleMs);
      } else {
        this.#schedule(tabId);
      }
      return;
    }
    let keep: boolean;
    try {
      keep = await this.#deps.keep(tabId);
    } catch (error) {
      console.error('chrome-relay: idle check failed; keeping the session', error);
      keep = true;
    }
    // A call may have started while we asked.
    if (keep || !this.#idle(tabId)) {
      const current = this.#tabs.get(tabId);
      if (current !== undefined && current.timer === undefined && current.holds === 0) {
        current.timer = this.#clock.setTimer(() => void this.#expire(tabId), this.#idleMs);
      }
      return;
    }
    try {
      await this.#deps.detach(tabId);
    } catch (error) {
      console.error(`chrome-relay: idle detach of tab ${tabId} failed`, error);
    }
  }
}
