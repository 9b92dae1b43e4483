/**
 * A FIFO async mutex whose waiters give up at their deadline. Used around the ref counter (two
 * snapshots at once must not hand out the same numbers), and per tab by TabLocks.
 */
import { reasonedError, type RelayError } from '@chrome-relay/protocol';

interface Waiter {
  grant: () => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** The failure of a waiter whose deadline came before its turn: it never ran. */
export type BusyError = () => RelayError;

export function busyWaiting(what: string): BusyError {
  return () =>
    reasonedError('timeout', 'busy', `Timed out waiting for ${what}: another snapshot of a slow page is still running. Retry in a moment.`, {
      phase: 'resolve',
      details: { waitingFor: what },
    });
}

export class Mutex {
  #held = false;
  readonly #waiters: Waiter[] = [];

  /** Run `task` alone. Waiting past `deadline` (epoch ms) fails with `timeout`; the task never starts then. */
  async run<T>(deadline: number, task: () => Promise<T>, busy: BusyError = busyWaiting('the ref counter')): Promise<T> {
    await this.#acquire(deadline, busy);
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  #acquire(deadline: number, busy: BusyError): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, timer: undefined };
      waiter.timer = setTimeout(
        () => {
          const index = this.#waiters.indexOf(waiter);
          if (index >= 0) this.#waiters.splice(index, 1);
          reject(busy());
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#waiters.push(waiter);
    });
  }

  #release(): void {
    const next = this.#waiters.shift();
    if (next === undefined) {
      this.#held = false;
      return;
    }
    clearTimeout(next.timer);
    // Ownership passes straight to the next waiter; #held stays true.
    next.grant();
  }
}
