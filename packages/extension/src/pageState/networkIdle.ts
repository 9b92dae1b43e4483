/**
 * "No network request for 500 ms" for `wait --networkidle`, from the tab's Network events.
 *
 * Requests are tracked continuously for every tab whose session has Network enabled (by this
 * module on the first networkidle wait, or by the observe layer, which arms tabs for its capture):
 * the typical agent sequence is `click` then `wait --networkidle`, and the click's requests start
 * before the wait does. Requests that started before Network was enabled on the session are
 * invisible; so when this module had to enable Network itself, the quiet period is measured from
 * the wait's start rather than trusted from before.
 *
 * Long-lived requests (an EventSource, a hanging long-poll) never finish, so such a page is never
 * idle and the wait times out with the count in flight — that is the honest answer. WebSockets are
 * not requests here. Network is never disabled here: the observe layer's capture relies on it.
 */
import type { CdpEvent, CdpSessions } from '../cdp/cdpSession.js';
import type { CallContext } from '../context/call.js';

export const NETWORK_QUIET_MS = 500;

/** In-flight requests of one tab (pure: unit-tested). */
export class InflightRequests {
  readonly #inflight = new Set<string>();
  /** Epoch ms of the last request start or end. */
  lastActivity: number;

  constructor(now: number) {
    this.lastActivity = now;
  }

  observe(method: string, params: unknown, now: number): void {
    const requestId = typeof params === 'object' && params !== null ? (params as { requestId?: unknown }).requestId : undefined;
    if (typeof requestId !== 'string') return;
    if (method === 'Network.requestWillBeSent') {
      // A redirect re-announces the same id: still one request in flight.
      this.#inflight.add(requestId);
      this.lastActivity = now;
    } else if (method === 'Network.loadingFinished' || method === 'Network.loadingFailed') {
      if (this.#inflight.delete(requestId)) this.lastActivity = now;
    }
  }

  get count(): number {
    return this.#inflight.size;
  }

  /** Idle: nothing in flight, and nothing started or ended since `quietFrom` for NETWORK_QUIET_MS. */
  isIdle(now: number, quietFrom: number): boolean {
    return this.#inflight.size === 0 && now - Math.max(this.lastActivity, quietFrom) >= NETWORK_QUIET_MS;
  }
}

export class NetworkActivity {
  readonly #tabs = new Map<number, InflightRequests>();
  /** Tabs whose current session this module enabled Network on. */
  readonly #enabled = new Set<number>();

  constructor(cdp: CdpSessions) {
    cdp.on((event) => this.#observe(event));
    cdp.onDetached((tabId) => {
      // The next session starts blind: old in-flight ids will never be closed on it.
      this.#tabs.delete(tabId);
      this.#enabled.delete(tabId);
    });
  }

  requests(tabId: number): InflightRequests {
    let tab = this.#tabs.get(tabId);
    if (!tab) {
      tab = new InflightRequests(Date.now());
      this.#tabs.set(tabId, tab);
    }
    return tab;
  }

  /**
   * Make sure Network events flow for the tab. Returns whether they may not have flowed before
   * (then earlier requests are unknown and quiet must be measured from now).
   */
  async ensureEnabled(ctx: Pick<CallContext, 'cdp'>, tabId: number): Promise<boolean> {
    if (this.#enabled.has(tabId)) return false;
    const seenBefore = this.#tabs.has(tabId);
    await ctx.cdp.send(tabId, 'Network.enable', {});
    this.#enabled.add(tabId);
    return !seenBefore;
  }

  #observe(event: CdpEvent): void {
    if (event.sessionId !== undefined || !event.method.startsWith('Network.')) return;
    this.requests(event.tabId).observe(event.method, event.params, Date.now());
  }
}

