import { describe, expect, it } from 'vitest';
import { CachedArea, type StorageArea } from './cachedArea.js';

/** A storage area that counts its calls and can hold each call until the test lets it go. */
class FakeArea implements StorageArea {
  readonly data = new Map<string, unknown>();
  calls: string[] = [];
  hold = false;
  failNextSet = false;
  readonly #held: (() => void)[] = [];

  async get(keys: string[]): Promise<Record<string, unknown>> {
    this.calls.push(`get ${keys.join(',')}`);
    // Read when the call is made, answered later: a write issued meanwhile is not in it.
    const result: Record<string, unknown> = {};
    for (const key of keys) if (this.data.has(key)) result[key] = structuredClone(this.data.get(key));
    await this.#maybeHold();
    return result;
  }

  async set(items: Record<string, unknown>): Promise<void> {
    this.calls.push(`set ${Object.keys(items).join(',')}`);
    await this.#maybeHold();
    if (this.failNextSet) {
      this.failNextSet = false;
      throw new Error('QUOTA_BYTES quota exceeded');
    }
    for (const [key, value] of Object.entries(items)) this.data.set(key, structuredClone(value));
  }

  async remove(keys: string[]): Promise<void> {
    this.calls.push(`remove ${keys.join(',')}`);
    await this.#maybeHold();
    for (const key of keys) this.data.delete(key);
  }

  /** Let every held call answer; `newestFirst` answers the last call first. */
  async releaseAll(newestFirst = false): Promise<void> {
    const held = this.#held.splice(0);
    for (const release of newestFirst ? held.reverse() : held) {
      release();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  #maybeHold(): Promise<void> {
    return this.hold ? new Promise((resolve) => this.#held.push(resolve)) : Promise.resolve();
  }
}

describe('CachedArea', () => {
  it('reads each key from storage once, absent keys included, and answers later reads from memory', async () => {
    const area = new FakeArea();
    area.data.set('a', 1);
    const cached = new CachedArea(area);
    expect(await cached.get(['a', 'b'])).toEqual({ a: 1 });
    expect(await cached.get(['a', 'b'])).toEqual({ a: 1 });
    expect(await cached.get(['b'])).toEqual({});
    expect(area.calls).toEqual(['get a,b']);
  });

  it('writes through, and serves what it wrote', async () => {
    const area = new FakeArea();
    const cached = new CachedArea(area);
    await cached.set({ registry: { tab: 5, refs: ['e1'] } });
    expect(area.data.get('registry')).toEqual({ tab: 5, refs: ['e1'] });
    expect(await cached.get(['registry'])).toEqual({ registry: { tab: 5, refs: ['e1'] } });
    await cached.remove(['registry']);
    expect(area.data.has('registry')).toBe(false);
    expect(await cached.get(['registry'])).toEqual({});
    expect(area.calls).toEqual(['set registry', 'remove registry']);
  });

  it('hands out copies: mutating what was read or written never changes the stored value', async () => {
    const cached = new CachedArea(new FakeArea());
    const written = { list: [1] };
    await cached.set({ k: written });
    written.list.push(2);
    const read = (await cached.get(['k'])).k as { list: number[] };
    read.list.push(3);
    expect(await cached.get(['k'])).toEqual({ k: { list: [1] } });
  });

  it('skips writing a primitive equal to the stored one, never an object', async () => {
    const area = new FakeArea();
    const cached = new CachedArea(area);
    await cached.set({ currentTab: 7 });
    await cached.set({ currentTab: 7 });
    await cached.set({ currentTab: 8 });
    await cached.set({ o: { a: 1 } });
    await cached.set({ o: { a: 1 } });
    expect(area.calls).toEqual(['set currentTab', 'set currentTab', 'set o', 'set o']);
  });

  it('does not cache a read that a write overtook', async () => {
    const area = new FakeArea();
    area.data.set('k', 'old');
    const cached = new CachedArea(area);
    area.hold = true;
    const read = cached.get(['k']);
    const write = cached.set({ k: 'new' });
    // The write is confirmed before the older read's answer comes in.
    await area.releaseAll(true);
    area.hold = false;
    await Promise.all([read, write]);
    expect(await cached.get(['k'])).toEqual({ k: 'new' });
  });

  it('forgets a key whose write failed, so the next read asks storage', async () => {
    const area = new FakeArea();
    const cached = new CachedArea(area);
    await cached.set({ k: 1 });
    area.failNextSet = true;
    await expect(cached.set({ k: 2 })).rejects.toThrow(/quota/);
    expect(await cached.get(['k'])).toEqual({ k: 1 });
    expect(area.calls).toEqual(['set k', 'set k', 'get k']);
  });
});
