/**
 * Which document of a tab reached which milestone (commit, DOMContentLoaded, load), from the tab's Page events,
 * keyed by loaderId: navigate waits on it for the document its own Page.navigate created, readiness for the document
 * the tab shows now. Fed from before the command that starts a navigation is sent (events can arrive before its answer).
 */
import type { RelayError } from '@chrome-relay/protocol';
import type { CdpEvent } from '../cdp/cdpSession.js';

/** Milestones of one document, in the order they happen. */
export const RANK = { commit: 1, domcontentloaded: 2, load: 3 } as const;
export type Milestone = keyof typeof RANK;

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function stringField(value: unknown, key: string): string | undefined {
  const found = field(value, key);
  return typeof found === 'string' ? found : undefined;
}

export class LoaderProgress {
  readonly #tabId: number;
  readonly #rank = new Map<string, number>();
  /** frameId → URL of its latest same-document navigation (fragment, history API). */
  readonly #sameDocument = new Map<string, string>();
  /** The main frame's latest committed document; Page.loadEventFired etc. carry no loaderId. */
  #mainLoader: string | undefined;
  #waiter: { done: () => boolean; settle: (error?: RelayError) => void } | undefined;
  #failure: RelayError | undefined;
  /** The URL each loader's document request asked for last (a redirect asks again): where a blocked one stopped. */
  readonly #requested = new Map<string, string>();
  /** The HTTP status of each loader's document response (the last one: a redirect's 30x is followed by another). */
  readonly #status = new Map<string, number>();

  constructor(tabId: number) {
    this.#tabId = tabId;
  }

  observe(event: CdpEvent): void {
    // Child sessions (out-of-process iframes) never carry the top document's loader.
    if (event.tabId !== this.#tabId || event.sessionId !== undefined) return;
    const params = event.params;
    switch (event.method) {
      case 'Page.frameNavigated': {
        const frame = field(params, 'frame');
        const loaderId = stringField(frame, 'loaderId');
        if (loaderId === undefined) return;
        if (field(frame, 'parentId') === undefined) this.#mainLoader = loaderId;
        this.#bump(loaderId, RANK.commit);
        return;
      }
      case 'Page.lifecycleEvent': {
        const loaderId = stringField(params, 'loaderId');
        const name = stringField(params, 'name');
        const rank = name === 'commit' ? RANK.commit : name === 'DOMContentLoaded' ? RANK.domcontentloaded : name === 'load' ? RANK.load : undefined;
        if (loaderId && rank !== undefined) this.#bump(loaderId, rank);
        return;
      }
      case 'Page.navigatedWithinDocument': {
        const frameId = stringField(params, 'frameId');
        const url = stringField(params, 'url');
        if (frameId !== undefined && url !== undefined) this.#sameDocument.set(frameId, url);
        this.#poke();
        return;
      }
      case 'Network.requestWillBeSent': {
        const loaderId = stringField(params, 'loaderId');
        const url = stringField(field(params, 'request'), 'url');
        if (stringField(params, 'type') === 'Document' && loaderId !== undefined && url !== undefined) this.#requested.set(loaderId, url);
        return;
      }
      case 'Network.responseReceived': {
        const loaderId = stringField(params, 'loaderId');
        const status = field(field(params, 'response'), 'status');
        if (stringField(params, 'type') === 'Document' && loaderId !== undefined && typeof status === 'number') this.#status.set(loaderId, status);
        return;
      }
      case 'Page.domContentEventFired':
        if (this.#mainLoader !== undefined) this.#bump(this.#mainLoader, RANK.domcontentloaded);
        return;
      case 'Page.loadEventFired':
        if (this.#mainLoader !== undefined) this.#bump(this.#mainLoader, RANK.load);
        return;
      default:
        return;
    }
  }

  reached(loaderId: string, milestone: Milestone): boolean {
    return (this.#rank.get(loaderId) ?? 0) >= RANK[milestone];
  }

  /** The last URL the document request of `loaderId` asked for (after its redirects), once Chrome reported it. */
  requestedUrl(loaderId: string): string | undefined {
    return this.#requested.get(loaderId);
  }

  /** The HTTP status of the document `loaderId` loaded, once its response arrived (none for data:, about:, a cached jump). */
  statusOf(loaderId: string): number | undefined {
    return this.#status.get(loaderId);
  }

  /** The URL a same-document navigation of `frameId` moved to, once Chrome reported it. */
  sameDocumentUrl(frameId: string): string | undefined {
    return this.#sameDocument.get(frameId);
  }

  /** Resolves true when `loaderId` reaches `milestone`, false at `readyBy` (epoch ms); rejects on fail(). */
  waitFor(loaderId: string, milestone: Milestone, readyBy: number): Promise<boolean> {
    return this.waitUntil(() => this.reached(loaderId, milestone), readyBy);
  }

  /** Resolves true once `done()` holds (checked after every event), false at `readyBy`; rejects on fail(). */
  waitUntil(done: () => boolean, readyBy: number): Promise<boolean> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (done()) return Promise.resolve(true);
    return new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiter = undefined;
        resolve(false);
      }, Math.max(0, readyBy - Date.now()));
      this.#waiter = {
        done,
        settle: (error) => {
          clearTimeout(timer);
          this.#waiter = undefined;
          if (error) reject(error);
          else resolve(true);
        },
      };
    });
  }

  /** The tab went away; whoever waits learns it now instead of at the deadline. */
  fail(error: RelayError): void {
    this.#failure = error;
    this.#waiter?.settle(error);
  }

  #bump(loaderId: string, rank: number): void {
    if ((this.#rank.get(loaderId) ?? 0) < rank) this.#rank.set(loaderId, rank);
    this.#poke();
  }

  #poke(): void {
    const waiter = this.#waiter;
    if (waiter?.done()) waiter.settle();
  }
}
