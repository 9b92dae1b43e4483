/** A hand-driven clock for timer logic (idle detach): time moves only when a test advances it. */
import type { IdleClock } from '../cdp/idleDetach.js';

interface Timer {
  id: number;
  at: number;
  run: () => void;
}

export class FakeClock implements IdleClock {
  #now = 1_000_000;
  #nextId = 1;
  #timers: Timer[] = [];

  now(): number {
    return this.#now;
  }

  setTimer(run: () => void, ms: number): unknown {
    const timer = { id: this.#nextId++, at: this.#now + Math.max(0, ms), run };
    this.#timers.push(timer);
    return timer.id;
  }

  clearTimer(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  pending(): number {
    return this.#timers.length;
  }

  /** Move time forward, firing due timers in order and letting the promises they start settle. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      const next = [...this.#timers].sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (next === undefined || next.at > end) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.#now = next.at;
      next.run();
      await settle();
    }
    this.#now = end;
    await settle();
  }
}

/** Let queued promise callbacks run (several rounds: chains of awaits). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
