/**
 * Which tab (and which document in it) issued each ref, so a ref action needs no --tab.
 *
 * Per tab, one chrome.storage.session entry holds the last snapshot's records and the identity of
 * the document they were issued for (main frame id + loaderId). A new snapshot of a tab replaces
 * only that tab's entry (refs of elements it no longer saw die); other tabs are never touched.
 * When a tab navigates or closes, its entry shrinks to a tombstone listing just the ref strings,
 * so later uses can say *why* the ref is dead (navigated / tab closed) instead of "unknown". A snapshot of
 * the tab's next document keeps that list beside its own records (`earlier`, the newest
 * MAX_EARLIER_REFS): a ref from before the navigation still says "navigated", not "unknown".
 *
 * Memory is the working copy (this worker is the only writer); storage is reloaded once per
 * worker lifetime. Every value read back is shape-checked: an older build may have written it.
 *
 * Refs inside iframes also carry their frame's identity (frame id + loaderId): a child frame that
 * navigates kills only its own refs, which openRef sees by comparing loaders; the main frame's
 * navigation still kills the whole tab's.
 *
 * Stored form: each tab's refs as ONE JSON string of [ref, role, name] tuples, plus a fourth
 * element (an index into the entry's `frames` list of [frameId, loaderId]) for refs in iframes. Measured in the
 * worker: chrome.storage.session.set of 4,500 record objects takes ~100 ms, the same data as one
 * string ~4 ms (structured-cloning thousands of small objects is the cost).
 */
import type { KeyValueStore } from './persist.js';

const INDEX_KEY = 'refs:tabs';
const tabKey = (tabId: number): string => `refs:tab:${tabId}`;

/** Tombstones kept for closed tabs; older ones are dropped (their refs then read as unknown). */
const MAX_CLOSED_TOMBSTONES = 20;
/** Refs of a tab's earlier documents kept per tab (the newest); older ones then read as unknown. */
const MAX_EARLIER_REFS = 5000;

export interface DocumentIdentity {
  frameId: string;
  loaderId: string;
}

/** What the worker knows about one ref: enough to route it and to name it in messages. */
export interface RefSummary {
  ref: string;
  role: string;
  name: string;
  /** The iframe document the ref lives in; absent = the tab's main frame. */
  frame?: DocumentIdentity;
}

export interface LiveTabRefs extends DocumentIdentity {
  tabId: number;
  state: 'live';
  records: RefSummary[];
  /** Refs issued for documents this tab showed before this one: dead, and said to be so (navigated). */
  earlier?: string[];
}

export interface DeadTabRefs {
  tabId: number;
  state: 'navigated' | 'closed';
  refs: string[];
}

export type TabRefs = LiveTabRefs | DeadTabRefs;

export type RefLookup =
  | { state: 'live'; tabId: number; document: DocumentIdentity; frame: DocumentIdentity; record: RefSummary }
  | { state: 'navigated' | 'closed'; tabId: number };

type StoredTab =
  | { tabId: number; state: 'live'; frameId: string; loaderId: string; refs: string; frames?: [string, string][]; earlier?: string }
  | { tabId: number; state: 'navigated' | 'closed'; refs: string };

function toStored(entry: TabRefs): StoredTab {
  if (entry.state === 'live') {
    const frames: [string, string][] = [];
    const frameIndex = new Map<string, number>();
    const tuples = entry.records.map((r) => {
      if (r.frame === undefined) return [r.ref, r.role, r.name];
      const key = `${r.frame.frameId} ${r.frame.loaderId}`;
      let index = frameIndex.get(key);
      if (index === undefined) {
        index = frames.push([r.frame.frameId, r.frame.loaderId]) - 1;
        frameIndex.set(key, index);
      }
      return [r.ref, r.role, r.name, index];
    });
    const stored: StoredTab = { tabId: entry.tabId, state: 'live', frameId: entry.frameId, loaderId: entry.loaderId, refs: JSON.stringify(tuples) };
    if (frames.length > 0) stored.frames = frames;
    if (entry.earlier !== undefined && entry.earlier.length > 0) stored.earlier = JSON.stringify(entry.earlier);
    return stored;
  }
  return { tabId: entry.tabId, state: entry.state, refs: JSON.stringify(entry.refs) };
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** Read one stored tab back; anything malformed (another build, corruption) reads as absent. */
function fromStored(value: unknown): TabRefs | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const t = value as Record<string, unknown>;
  if (typeof t.tabId !== 'number') return undefined;
  const refs = parseJson(t.refs);
  if (!Array.isArray(refs)) return undefined;
  if (t.state === 'live') {
    if (!isString(t.frameId) || !isString(t.loaderId)) return undefined;
    const frames: DocumentIdentity[] = [];
    if (t.frames !== undefined) {
      if (!Array.isArray(t.frames)) return undefined;
      for (const pair of t.frames) {
        if (!Array.isArray(pair) || pair.length !== 2 || !pair.every(isString)) return undefined;
        frames.push({ frameId: pair[0] as string, loaderId: pair[1] as string });
      }
    }
    const records: RefSummary[] = [];
    for (const tuple of refs) {
      if (!Array.isArray(tuple) || tuple.length < 3 || tuple.length > 4 || !tuple.slice(0, 3).every(isString)) return undefined;
      const [ref, role, name, index] = tuple as [string, string, string, unknown];
      const record: RefSummary = { ref, role, name };
      if (tuple.length === 4) {
        const frame = typeof index === 'number' ? frames[index] : undefined;
        if (frame === undefined) return undefined;
        record.frame = frame;
      }
      records.push(record);
    }
    const live: LiveTabRefs = { tabId: t.tabId, state: 'live', frameId: t.frameId, loaderId: t.loaderId, records };
    if (t.earlier !== undefined) {
      const earlier = parseJson(t.earlier);
      if (!Array.isArray(earlier) || !earlier.every(isString)) return undefined;
      live.earlier = earlier;
    }
    return live;
  }
  if ((t.state === 'navigated' || t.state === 'closed') && refs.every(isString)) return { tabId: t.tabId, state: t.state, refs };
  return undefined;
}

/** Every ref the entry answers for: its live records, and the dead ones it still names. */
function refsOf(entry: TabRefs): string[] {
  return entry.state === 'live' ? [...(entry.earlier ?? []), ...entry.records.map((record) => record.ref)] : entry.refs;
}

/** The refs of `previous` that are dead once `tabId` shows `next`: all of them when it showed another document. */
function deadAfter(previous: TabRefs | undefined, next: DocumentIdentity): string[] {
  if (previous === undefined) return [];
  if (previous.state !== 'live') return previous.state === 'navigated' ? previous.refs : [];
  if (previous.frameId === next.frameId && previous.loaderId === next.loaderId) return previous.earlier ?? [];
  return refsOf(previous);
}

export class RefRegistry {
  readonly #store: KeyValueStore;
  #loading: Promise<void> | undefined;
  /** Tab order = age: the index is written in this order, oldest first. */
  readonly #tabs = new Map<number, TabRefs>();
  readonly #tabOfRef = new Map<string, number>();
  /** Storage writes are chained so they land in the order memory changed. */
  #writes: Promise<void> = Promise.resolve();

  constructor(store: KeyValueStore) {
    this.#store = store;
  }

  /** A new snapshot of `tabId`: its records replace the tab's previous ones. Resolves once stored. */
  async replaceTab(tabId: number, document: DocumentIdentity, records: readonly RefSummary[]): Promise<void> {
    await this.#load();
    const earlier = deadAfter(this.#tabs.get(tabId), document).slice(-MAX_EARLIER_REFS);
    this.#put({ tabId, state: 'live', frameId: document.frameId, loaderId: document.loaderId, records: [...records], ...(earlier.length > 0 ? { earlier } : {}) });
    await this.#persist([tabId], []);
  }

  /**
   * Refs issued outside a snapshot (a click's interceptor, given a ref on the spot) join the tab's live entry for
   * `document`. A tab whose entry is for another document, or that has none (a coordinate click before any
   * snapshot), gets a new entry holding just these: the document they were issued in is the one that counts.
   * Resolves once stored.
   */
  async addRefs(tabId: number, document: DocumentIdentity, records: readonly RefSummary[]): Promise<void> {
    await this.#load();
    const entry = this.#tabs.get(tabId);
    const same = entry?.state === 'live' && entry.frameId === document.frameId && entry.loaderId === document.loaderId;
    const kept = same && entry.state === 'live' ? entry.records.filter((record) => !records.some((added) => added.ref === record.ref)) : [];
    const earlier = deadAfter(entry, document).slice(-MAX_EARLIER_REFS);
    this.#put({ tabId, state: 'live', frameId: document.frameId, loaderId: document.loaderId, records: [...kept, ...records], ...(earlier.length > 0 ? { earlier } : {}) });
    await this.#persist([tabId], []);
  }

  async lookup(ref: string): Promise<RefLookup | undefined> {
    await this.#load();
    const tabId = this.#tabOfRef.get(ref);
    if (tabId === undefined) return undefined;
    const entry = this.#tabs.get(tabId);
    if (entry === undefined) return undefined;
    if (entry.state !== 'live') return { state: entry.state, tabId };
    const record = entry.records.find((candidate) => candidate.ref === ref);
    if (record === undefined) return entry.earlier?.includes(ref) === true ? { state: 'navigated', tabId } : undefined;
    const document = { frameId: entry.frameId, loaderId: entry.loaderId };
    return { state: 'live', tabId, document, frame: record.frame ?? document, record };
  }

  /** The tab's document was replaced: its refs are dead, and later uses should say so. */
  async markNavigated(tabId: number): Promise<void> {
    await this.#load();
    const entry = this.#tabs.get(tabId);
    if (entry === undefined || entry.state !== 'live') return;
    this.#put({ tabId, state: 'navigated', refs: refsOf(entry) });
    await this.#persist([tabId], []);
  }

  /** The tab was closed. Its refs answer "tab closed" for a while (a bounded number of tombstones). */
  async forgetTab(tabId: number): Promise<void> {
    await this.#load();
    const entry = this.#tabs.get(tabId);
    if (entry === undefined || entry.state === 'closed') return;
    this.#tabs.delete(tabId); // re-insert at the end: the newest tombstone
    this.#put({ tabId, state: 'closed', refs: refsOf(entry) });
    const evicted: number[] = [];
    const closed = [...this.#tabs.values()].filter((candidate) => candidate.state === 'closed');
    for (const old of closed.slice(0, Math.max(0, closed.length - MAX_CLOSED_TOMBSTONES))) {
      this.#drop(old.tabId);
      evicted.push(old.tabId);
    }
    await this.#persist([tabId], evicted);
  }

  #put(entry: TabRefs): void {
    const previous = this.#tabs.get(entry.tabId);
    if (previous !== undefined) {
      for (const ref of refsOf(previous)) if (this.#tabOfRef.get(ref) === entry.tabId) this.#tabOfRef.delete(ref);
    }
    this.#tabs.set(entry.tabId, entry);
    // A ref belongs to the tab that issued it last (numbers are never reused, so this only
    // matters for malformed leftovers).
    for (const ref of refsOf(entry)) this.#tabOfRef.set(ref, entry.tabId);
  }

  #drop(tabId: number): void {
    const entry = this.#tabs.get(tabId);
    if (entry === undefined) return;
    for (const ref of refsOf(entry)) if (this.#tabOfRef.get(ref) === tabId) this.#tabOfRef.delete(ref);
    this.#tabs.delete(tabId);
  }

  #persist(changed: readonly number[], removed: readonly number[]): Promise<void> {
    // Snapshot the values now: memory may change again before this write runs.
    const items: Record<string, unknown> = { [INDEX_KEY]: [...this.#tabs.keys()] };
    for (const tabId of changed) {
      const entry = this.#tabs.get(tabId);
      if (entry !== undefined) items[tabKey(tabId)] = toStored(entry);
    }
    const write = this.#writes.then(async () => {
      await this.#store.set(items);
      if (removed.length > 0) await this.#store.remove(removed.map(tabKey));
    });
    // Keep the chain alive after a failure; the caller still sees this write's error.
    this.#writes = write.catch(() => undefined);
    return write;
  }

  #load(): Promise<void> {
    this.#loading ??= this.#loadNow().catch((error: unknown) => {
      this.#loading = undefined; // let the next call try again
      throw error;
    });
    return this.#loading;
  }

  async #loadNow(): Promise<void> {
    const index = (await this.#store.get([INDEX_KEY]))[INDEX_KEY];
    if (!Array.isArray(index)) return;
    const tabIds = index.filter((id): id is number => typeof id === 'number');
    const stored = await this.#store.get(tabIds.map(tabKey));
    for (const tabId of tabIds) {
      const entry = fromStored(stored[tabKey(tabId)]);
      // Anything malformed is dropped: its refs read as unknown, the safe answer.
      if (entry !== undefined && entry.tabId === tabId && !this.#tabs.has(tabId)) this.#put(entry);
    }
  }
}
