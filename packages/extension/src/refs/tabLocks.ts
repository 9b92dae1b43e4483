/**
 * One Mutex per tab, dropped when free. A call that gave up at its deadline leaves its page work running (CDP
 * commands cannot be taken back); the next call of the same kind on that tab waits for it instead of interleaving
 * with it.
 */
import { busyWaiting, Mutex, type BusyError } from './lock.js';

export class TabLocks {
  readonly #locks = new Map<number, { mutex: Mutex; users: number }>();

  run<T>(tabId: number, deadline: number, task: () => Promise<T>, busy: BusyError = busyWaiting(`tab ${tabId}'s earlier snapshot`)): Promise<T> {
    let lock = this.#locks.get(tabId);
    if (lock === undefined) this.#locks.set(tabId, (lock = { mutex: new Mutex(), users: 0 }));
    const held = lock;
    held.users++;
    return held.mutex.run(deadline, task, busy).finally(() => {
      if (--held.users === 0 && this.#locks.get(tabId) === held) this.#locks.delete(tabId);
    });
  }
}
