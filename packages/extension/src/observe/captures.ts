/**
 * Per-tab console and network buffers, fed by the CDP events of every attached tab.
 *
 * When capture starts: on ATTACH. `armSession` enables Runtime and Network on each fresh debugger
 * session (cheap: a few events per request), so `chrome-relay network` right after `navigate` shows
 * the navigation's own requests. Tools also arm on use, which covers a session attached before this
 * worker started (worker restart) — capture then starts at that first console/network call.
 *
 * The buffers live in worker memory, capped per tab (CONSOLE_CAP, NETWORK_CAP), and are dropped when
 * the tab closes or the worker restarts: they are a recent-activity window, not a durable log.
 * Navigation does not clear them (an agent usually asks about the load it just caused).
 *
 * Re-attach (after an idle detach or Cancel on the debugging bar): Runtime.enable on the new session
 * replays the page's stored console messages with their original timestamps (observed in Chromium
 * 156). Those already buffered are dropped by timestamp; those logged while detached are kept, so
 * the console has no gap. Network events are not replayed: requests made while detached are missing.
 */
import type { CdpEvent } from '../cdp/cdpSession.js';
import { atLeast, fromConsoleApi, fromException, type ConsoleRecord } from './consoleEntry.js';
import { NetworkLog } from './networkLog.js';
import { RingBuffer } from './ringBuffer.js';
import type Protocol from 'devtools-protocol';

export const CONSOLE_CAP = 1000;
export const NETWORK_CAP = 500;
/** Response bodies Chrome keeps for Network.getResponseBody (per tab / per resource). */
const BODY_BUFFER_BYTES = 20 * 1024 * 1024;
const BODY_RESOURCE_BYTES = 5 * 1024 * 1024;

export type RawSend = (method: string, params?: object) => Promise<unknown>;

interface TabCapture {
  console: RingBuffer<ConsoleRecord>;
  network: NetworkLog;
}

export class TabCaptures {
  readonly #tabs = new Map<number, TabCapture>();
  /** Tabs whose current debugger session has Runtime+Network enabled by us. */
  readonly #armed = new Set<number>();
  /** Per tab: the newest console timestamp buffered, and (after a session ended) the replay cut-off. */
  readonly #newest = new Map<number, number>();
  readonly #replayedUpTo = new Map<number, number>();

  /** Enable the domains on a session. Idempotent per session; `sessionEnded` resets it. */
  async arm(tabId: number, send: RawSend): Promise<void> {
    if (this.#armed.has(tabId)) return;
    this.#tab(tabId);
    await Promise.all([
      send('Runtime.enable'),
      send('Network.enable', { maxTotalBufferSize: BODY_BUFFER_BYTES, maxResourceBufferSize: BODY_RESOURCE_BYTES }),
    ]);
    this.#armed.add(tabId);
  }

  isArmed(tabId: number): boolean {
    return this.#armed.has(tabId);
  }

  /** The session went away (detach): domains must be enabled again on the next one; buffers stay. */
  sessionEnded(tabId: number): void {
    this.#armed.delete(tabId);
    const newest = this.#newest.get(tabId);
    if (newest !== undefined) this.#replayedUpTo.set(tabId, newest);
  }

  /** The tab closed: nothing to keep. */
  forget(tabId: number): void {
    this.#armed.delete(tabId);
    this.#tabs.delete(tabId);
    this.#newest.delete(tabId);
    this.#replayedUpTo.delete(tabId);
  }

  handle(event: CdpEvent): void {
    // Child sessions (out-of-process iframes) are not attached yet; only the tab's own session counts.
    if (event.sessionId !== undefined) return;
    if (event.method === 'Runtime.consoleAPICalled') {
      this.#pushConsole(event.tabId, fromConsoleApi(event.params as Protocol.Runtime.ConsoleAPICalledEvent));
    } else if (event.method === 'Runtime.exceptionThrown') {
      this.#pushConsole(event.tabId, fromException(event.params as Protocol.Runtime.ExceptionThrownEvent));
    } else if (event.method.startsWith('Network.')) {
      this.#tab(event.tabId).network.handle(event.method, event.params);
    }
  }

  console(tabId: number): RingBuffer<ConsoleRecord> {
    return this.#tab(tabId).console;
  }

  network(tabId: number): NetworkLog {
    return this.#tab(tabId).network;
  }

  #pushConsole(tabId: number, record: ConsoleRecord): void {
    const replayedUpTo = this.#replayedUpTo.get(tabId);
    if (replayedUpTo !== undefined && record.timestamp <= replayedUpTo) return;
    this.#tab(tabId).console.push(record);
    this.#newest.set(tabId, Math.max(record.timestamp, this.#newest.get(tabId) ?? record.timestamp));
  }

  #tab(tabId: number): TabCapture {
    let tab = this.#tabs.get(tabId);
    if (!tab) {
      tab = { console: new RingBuffer(CONSOLE_CAP), network: new NetworkLog(NETWORK_CAP) };
      this.#tabs.set(tabId, tab);
    }
    return tab;
  }
}

export { atLeast };

