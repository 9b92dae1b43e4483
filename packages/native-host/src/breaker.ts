/**
 * The host's circuit breaker for the extension: pure state, no timers (the relay owns those).
 *
 * What counts as an extension timeout: a call whose host deadline passed with no answer from the
 * extension at all. A slow page is not one — the extension answers page timeouts itself before the
 * host's deadline (DEADLINE_MARGIN_MS in the extension's dispatcher) — so only an extension that is
 * not running its message loop (a stuck or wedged service worker) lets the host deadline pass.
 *
 * - `threshold` extension timeouts in a row open the circuit: calls then fail fast with
 *   extension_not_connected (reason circuit_open) instead of each burning its whole deadline.
 * - Any answer from the extension closes it and resets the count: a result or an error, on time or
 *   late (a late answer to a timed-out call still proves the worker runs again), to an agent's call
 *   or to the host's own ping, and a new hello (a restarted worker).
 */
export const BREAKER_THRESHOLD = 3;

export class ExtensionBreaker {
  #timeouts = 0;
  #open = false;

  constructor(readonly threshold: number = BREAKER_THRESHOLD) {}

  get isOpen(): boolean {
    return this.#open;
  }

  /** Extension timeouts since the last answer. */
  get consecutiveTimeouts(): number {
    return this.#timeouts;
  }

  /** A call's deadline passed with no answer. True when this timeout opened the circuit. */
  timedOut(): boolean {
    this.#timeouts++;
    if (this.#open || this.#timeouts < this.threshold) return false;
    this.#open = true;
    return true;
  }

  /** The extension answered something. True when this closed an open circuit. */
  answered(): boolean {
    const wasOpen = this.#open;
    this.#timeouts = 0;
    this.#open = false;
    return wasOpen;
  }
}
