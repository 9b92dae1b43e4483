/**
 * A capped, id-numbered buffer: the oldest entries fall out once `cap` is reached, and the number
 * lost is counted so a reader can tell "nothing happened" from "too much happened". Ids only grow,
 * so `since(id)` keeps working across evictions and clears.
 */
export class RingBuffer<T> {
  readonly #cap: number;
  #items: { id: number; value: T }[] = [];
  #nextId = 1;
  #dropped = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  push(value: T): number {
    const id = this.#nextId++;
    this.#items.push({ id, value });
    if (this.#items.length > this.#cap) {
      this.#items.shift();
      this.#dropped++;
    }
    return id;
  }

  /** Entries with an id greater than `afterId` (all when omitted), oldest first. */
  since(afterId = 0): { id: number; value: T }[] {
    return this.#items.filter((item) => item.id > afterId);
  }

  /** Find the newest entry matching `predicate` (used to update a request as its events arrive). */
  findLast(predicate: (value: T) => boolean): T | undefined {
    for (let i = this.#items.length - 1; i >= 0; i--) {
      const item = this.#items[i];
      if (item && predicate(item.value)) return item.value;
    }
    return undefined;
  }

  get dropped(): number {
    return this.#dropped;
  }

  clear(): void {
    this.#items = [];
    this.#dropped = 0;
  }
}
