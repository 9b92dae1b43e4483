/**
 * What agents did, for the person (toolbar popup): the last 50 commands, the last command per tab,
 * and the calls running right now. Memory is the working copy; chrome.storage.session holds a copy
 * so a restarted worker still shows the history (written behind the reply, never on its path: one
 * write at a time, the newest state wins). Values read back are shape-checked.
 */
import { VIA_KINDS, type Via } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';

export const ACTIVITY_KEY = 'activity';
export const RECENT_LIMIT = 50;

export interface ActivityEntry {
  /** Epoch ms the call arrived. */
  at: number;
  /** How long the extension took to answer it. */
  ms: number;
  agent: string | null;
  tool: string;
  tab: number | null;
  /** 'ok', or the closed error code the agent got. */
  outcome: string;
  /** details.reason of the error, when it has one. */
  reason?: string;
  /** The CLI version that made the call, when the host said. */
  cli?: string;
  /** The bridge the call came through (another machine, a container, WSL); absent: this machine. */
  via?: Via;
}

export interface RunningCall {
  id: number;
  at: number;
  agent: string | null;
  tool: string;
  tab: number | null;
  via?: Via;
}

interface Stored {
  recent: ActivityEntry[];
  lastByTab: Record<string, ActivityEntry>;
}

function isEntry(value: unknown): value is ActivityEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.at === 'number' &&
    typeof v.ms === 'number' &&
    (v.agent === null || typeof v.agent === 'string') &&
    typeof v.tool === 'string' &&
    (v.tab === null || typeof v.tab === 'number') &&
    typeof v.outcome === 'string' &&
    (v.reason === undefined || typeof v.reason === 'string') &&
    (v.cli === undefined || typeof v.cli === 'string') &&
    (v.via === undefined || isVia(v.via))
  );
}

function isVia(value: unknown): value is Via {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (VIA_KINDS as readonly unknown[]).includes(v.kind) && typeof v.label === 'string';
}

function fromStorage(value: unknown): Stored {
  const empty: Stored = { recent: [], lastByTab: {} };
  if (typeof value !== 'object' || value === null) return empty;
  const v = value as Record<string, unknown>;
  const recent = Array.isArray(v.recent) ? v.recent.filter(isEntry).slice(0, RECENT_LIMIT) : [];
  const lastByTab: Record<string, ActivityEntry> = {};
  if (typeof v.lastByTab === 'object' && v.lastByTab !== null) {
    for (const [tab, entry] of Object.entries(v.lastByTab)) if (isEntry(entry)) lastByTab[tab] = entry;
  }
  return { recent, lastByTab };
}

export class ActivityLog {
  readonly #browser: Pick<BrowserApi, 'storageSessionGet' | 'storageSessionSet'>;
  #state: Promise<Stored> | undefined;
  readonly #running = new Map<number, RunningCall>();
  #nextRunning = 1;
  #lastAt: number | undefined;
  #writing = false;
  #dirty = false;
  readonly #listeners = new Set<(entry: ActivityEntry) => void>();

  constructor(browser: Pick<BrowserApi, 'storageSessionGet' | 'storageSessionSet'>) {
    this.#browser = browser;
  }

  /** A call began; returns its id for `finish`. */
  start(call: Omit<RunningCall, 'id'>): number {
    const id = this.#nextRunning++;
    this.#running.set(id, { ...call, id });
    return id;
  }

  /** The call ended: it leaves the running list and joins the history. */
  async finish(id: number, entry: ActivityEntry): Promise<void> {
    this.#running.delete(id);
    this.#lastAt = Math.max(this.#lastAt ?? 0, entry.at + entry.ms);
    const state = await this.#load();
    state.recent.unshift(entry);
    state.recent.length = Math.min(state.recent.length, RECENT_LIMIT);
    if (entry.tab !== null) state.lastByTab[String(entry.tab)] = entry;
    for (const listener of [...this.#listeners]) listener(entry);
    this.#persist();
  }

  running(): RunningCall[] {
    return [...this.#running.values()];
  }

  /** Newest first. */
  async recent(): Promise<ActivityEntry[]> {
    return [...(await this.#load()).recent];
  }

  async lastByTab(): Promise<Map<number, ActivityEntry>> {
    const state = await this.#load();
    return new Map(Object.entries(state.lastByTab).map(([tab, entry]) => [Number(tab), entry]));
  }

  /** When the last call of this worker's lifetime ended (for the toolbar badge). */
  lastActivityAt(): number | undefined {
    return this.#lastAt;
  }

  async forgetTab(tabId: number): Promise<void> {
    const state = await this.#load();
    if (!(String(tabId) in state.lastByTab)) return;
    delete state.lastByTab[String(tabId)];
    this.#persist();
  }

  onFinish(listener: (entry: ActivityEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #load(): Promise<Stored> {
    this.#state ??= this.#browser.storageSessionGet([ACTIVITY_KEY]).then(
      (items) => fromStorage(items[ACTIVITY_KEY]),
      (error: unknown) => {
        console.error('chrome-relay: reading the activity log failed; starting empty', error);
        return fromStorage(undefined);
      },
    );
    return this.#state;
  }

  /** Write behind: one write at a time; changes made meanwhile go out in the next one. */
  #persist(): void {
    this.#dirty = true;
    if (this.#writing) return;
    this.#writing = true;
    void (async () => {
      try {
        while (this.#dirty) {
          this.#dirty = false;
          const state = await this.#load();
          await this.#browser.storageSessionSet({ [ACTIVITY_KEY]: { recent: state.recent, lastByTab: state.lastByTab } });
        }
      } catch (error) {
        console.error('chrome-relay: saving the activity log failed', error);
      } finally {
        this.#writing = false;
      }
    })();
  }
}
