import { describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { COUNTER_KEY, RefCounter } from './counter.js';
import { MemoryStore } from './memoryStore.js';

const later = (ms = 1): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const deadline = (): number => Date.now() + 5_000;

/** What a snapshot does with the counter: read next, "use" n numbers (slowly), store the new next. */
async function issue(counter: RefCounter, n: number): Promise<number[]> {
  return counter.run(deadline(), async (allocation) => {
    const start = allocation.next;
    await later(Math.random() * 5);
    await allocation.advanceTo(start + n);
    return Array.from({ length: n }, (_, i) => start + i);
  });
}

describe('RefCounter', () => {
  it('starts at 1 and continues from storage', async () => {
    const store = new MemoryStore();
    expect(await issue(new RefCounter(store), 3)).toEqual([1, 2, 3]);
    // A restarted worker (or a reloaded extension: storage.local survives both) continues.
    expect(await issue(new RefCounter(store), 2)).toEqual([4, 5]);
    expect(store.data.get(COUNTER_KEY)).toBe(6);
  });

  it('never hands out a number twice, however many snapshots run at once', async () => {
    const counter = new RefCounter(new MemoryStore());
    const batches = await Promise.all(Array.from({ length: 20 }, (_, i) => issue(counter, (i % 4) + 1)));
    const all = batches.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(Math.max(...all)).toBe(all.length);
  });

  it('does not move when the task fails before advancing, and a failed store does not count', async () => {
    const store = new MemoryStore();
    const counter = new RefCounter(store);
    await expect(
      counter.run(deadline(), async () => {
        throw new Error('page gone');
      }),
    ).rejects.toThrow('page gone');
    store.failNextSet = new Error('write failed');
    await expect(counter.run(deadline(), (allocation) => allocation.advanceTo(allocation.next + 5))).rejects.toThrow('write failed');
    expect(await issue(counter, 1)).toEqual([1]);
  });

  it('refuses to go backwards (a bug, not an input error)', async () => {
    const counter = new RefCounter(new MemoryStore());
    await issue(counter, 5);
    const error = await counter.run(deadline(), (allocation) => allocation.advanceTo(2)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).code).toBe('internal_error');
  });

  it('ignores a corrupt stored value and starts above nothing it could collide with', async () => {
    const store = new MemoryStore();
    store.data.set(COUNTER_KEY, 'e12');
    expect(await issue(new RefCounter(store), 1)).toEqual([1]);
  });

  it('a waiter gives up at its deadline with `timeout`, and the queue keeps flowing', async () => {
    const counter = new RefCounter(new MemoryStore());
    let release: () => void = () => undefined;
    const holder = counter.run(deadline(), () => new Promise<void>((resolve) => (release = resolve)));
    const impatient = counter.run(Date.now() + 20, async () => 'ran').catch((e: unknown) => e);
    const patient = issue(counter, 1);
    const error = await impatient;
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).code).toBe('timeout');
    release();
    await holder;
    expect(await patient).toEqual([1]);
  });
});
