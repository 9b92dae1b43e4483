/**
 * Run read-modify-write steps on one storage key one at a time. The worker answers calls
 * concurrently, and two claims interleaving their read and write would both "win" a lease.
 */
export class Serial {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(step: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(step, step);
    // The chain must survive a failed step; the caller still sees the failure.
    this.#tail = next.catch(() => undefined);
    return next;
  }
}
