/**
 * Did an action navigate the tab? Subscribe before the action, settle after it. Settling waits only
 * for what the action itself set going, never for a fixed time.
 *
 * Observed in Chromium 156 (Page domain enabled), relative to mouseReleased:
 * - link click, form submit: frameRequestedNavigation (disposition currentTab) and
 *   frameStartedNavigating (differentDocument) arrive before the release is acknowledged;
 *   frameNavigated ≈ 20 ms later.
 * - a handler that navigates after awaiting a request (`fetch(…).then(() => location.href = …)`):
 *   the same events, right after the request finishes and the page ran its continuation.
 * - hash link / pushState: only navigatedWithinDocument: not a navigation (refs stay valid).
 * - target=_blank: Page.windowOpen only: not this tab.
 * - a 204 response: started, never commits; the old document (and its refs) stays.
 *
 * So the action's handling is: the events it dispatched (done when the input is acknowledged),
 * plus the fetch/XHR requests the page started while the action ran, plus one turn of the page's
 * event loop after the last of them finished (where the page runs what the response resolved).
 * A navigation that starts within that is the action's: `navigated: true`, and the watch waits
 * for it to commit. One started later (a timer, a request that outlives `handlingMs`) is not
 * reported, but it still kills the refs: every ref action checks the tab's document first
 * (refAction.ts openRef). An action that started no request returns at once.
 *
 * "started" is what we report; "committed" (a new loaderId) is what kills the tab's refs.
 */
import type Protocol from 'devtools-protocol';
import type { CdpEvent } from '../cdp/cdpSession.js';
import type { CallContext } from '../context/call.js';
import { mainFrameDocument, type FrameDocument, type PageWorld } from './worlds.js';
import { isObject } from './cdpParams.js';
import { callPageAwait } from './pageCall.js';

export interface NavigationTiming {
  /** Once a navigation started, how long to wait for it to commit (so the reported URL is the new one). */
  commitMs: number;
  /** How long the requests the action started are waited for (a navigation they lead to is the action's). */
  handlingMs: number;
}

export const DEFAULT_NAVIGATION_TIMING: NavigationTiming = { commitMs: 1000, handlingMs: 1000 };

/**
 * The request types a page's handler awaits before it acts on the answer. Documents are
 * navigations (the events above report them); images, scripts, styles and pings are not awaited
 * by a handler deciding where to go.
 */
const AWAITED_REQUESTS: ReadonlySet<string> = new Set(['Fetch', 'XHR']);

export interface NavigationOutcome {
  /** A cross-document navigation of the main frame started (it may still fail or be a download). */
  started: boolean;
  /** The main frame now shows another document than before the action. */
  committed: boolean;
  /** The main frame's URL once settled. */
  url: string;
}

/**
 * One turn of the page's event loop: resolves once the page ran the tasks queued before it (the
 * continuations of a request that just finished). Supplied by the caller, which has our world.
 */
export type PageTurn = () => Promise<void>;

export interface SettleOptions {
  /** A turn of the page's event loop in the watched frame (without one, requests are waited for but no turn is taken). */
  turn?: PageTurn;
  /**
   * The caller already made a page round trip after the input was acknowledged (a ref click reads
   * its delivery guards), so every event the input caused is in. Otherwise settle takes a turn first.
   */
  synced?: boolean;
}

export interface NavigationWatch {
  settle(options?: SettleOptions): Promise<NavigationOutcome>;
  /** Unsubscribe without settling (the action failed). */
  stop(): void;
}

const CROSS_DOCUMENT: ReadonlySet<string> = new Set([
  'reload',
  'reloadBypassingCache',
  'restore',
  'restoreWithPost',
  'historyDifferentDocument',
  'differentDocument',
]);

/** Classify one CDP event for the watched main frame. */
export function classifyNavigationEvent(event: CdpEvent, tabId: number, before: FrameDocument): 'started' | 'committed' | null {
  if (event.tabId !== tabId || event.sessionId !== undefined || !isObject(event.params)) return null;
  switch (event.method) {
    case 'Page.frameRequestedNavigation': {
      const params = event.params as unknown as Protocol.Page.FrameRequestedNavigationEvent;
      return params.frameId === before.frameId && params.disposition === 'currentTab' ? 'started' : null;
    }
    case 'Page.frameStartedNavigating': {
      const params = event.params as unknown as Protocol.Page.FrameStartedNavigatingEvent;
      return params.frameId === before.frameId && CROSS_DOCUMENT.has(params.navigationType) ? 'started' : null;
    }
    case 'Page.frameNavigated': {
      const params = event.params as unknown as Protocol.Page.FrameNavigatedEvent;
      const frame = params.frame;
      return frame.parentId === undefined && frame.id === before.frameId && frame.loaderId !== before.loaderId ? 'committed' : null;
    }
    default:
      return null;
  }
}

/** Pure: a Page event about the tab's main frame (navigations of any kind, within the document included). */
export function touchesFrame(event: CdpEvent, tabId: number, frameId: string): boolean {
  if (event.tabId !== tabId || event.sessionId !== undefined || !event.method.startsWith('Page.') || !isObject(event.params)) return false;
  const { frame } = event.params;
  return event.params.frameId === frameId || (isObject(frame) && frame.id === frameId);
}

/**
 * Pure: how one CDP event changes the set of awaited requests the tab's page has in flight
 * (requests of the tab's own session; out-of-process frames cannot navigate the main frame).
 */
export function trackRequest(pending: Set<string>, event: CdpEvent, tabId: number): void {
  if (event.tabId !== tabId || event.sessionId !== undefined || !isObject(event.params)) return;
  const requestId = event.params.requestId;
  if (typeof requestId !== 'string') return;
  if (event.method === 'Network.requestWillBeSent') {
    if (typeof event.params.type === 'string' && AWAITED_REQUESTS.has(event.params.type)) pending.add(requestId);
  } else if (event.method === 'Network.loadingFinished' || event.method === 'Network.loadingFailed') {
    pending.delete(requestId);
  }
}

/**
 * Start watching `tabId`'s main frame (whose document before the action is `before`). The Page
 * domain must be enabled on the tab's session (the caller does so before the action); Network is
 * enabled on every session chrome-relay attaches (observe/captures.ts).
 */
export function watchNavigation(
  ctx: Pick<CallContext, 'cdp' | 'deadline'>,
  tabId: number,
  before: FrameDocument & { url?: string },
  timing: NavigationTiming = DEFAULT_NAVIGATION_TIMING,
): NavigationWatch {
  const outcome = { started: false, committed: false };
  const pending = new Set<string>();
  const watchedSince = Date.now();
  // Whether the main frame's document or URL may differ from `before` (settle then asks the browser).
  let moved = false;
  let wake: (() => void) | undefined;
  const stopDetach = ctx.cdp.onDetached((detached) => {
    // Events of a session that went away are lost: only the browser can say what the frame shows now.
    if (detached === tabId) moved = true;
  });
  const stopEvents = ctx.cdp.on((event) => {
    if (touchesFrame(event, tabId, before.frameId)) moved = true;
    trackRequest(pending, event, tabId);
    const kind = classifyNavigationEvent(event, tabId, before);
    if (kind !== null) {
      outcome.started = true;
      if (kind === 'committed') outcome.committed = true;
    }
    wake?.();
  });
  const unsubscribe = (): void => {
    stopEvents();
    stopDetach();
  };

  /** Resolve once `done()` holds (checked after every event), or at `until` (capped by the deadline). */
  const waitUntil = (until: number, done: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      if (done()) return resolve();
      const timer = setTimeout(finish, Math.max(0, Math.min(until, ctx.deadline) - Date.now()));
      function finish(): void {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = () => {
        if (done()) finish();
      };
    });

  /** The action's requests: wait for them, give the page its turn, again while it starts more. */
  const handling = async ({ turn, synced = false }: SettleOptions): Promise<void> => {
    const until = Math.min(watchedSince + timing.handlingMs, ctx.deadline);
    // The input's own events (a request its handler sent, a navigation it requested) travel with
    // the page's other answers: one round trip after the input and they have all arrived.
    if (!synced && turn !== undefined && !outcome.started) await bounded(turn(), until);
    while (!outcome.started && pending.size > 0 && Date.now() < until) {
      await waitUntil(until, () => outcome.started || pending.size === 0);
      if (outcome.started || pending.size > 0 || turn === undefined) return;
      await bounded(turn(), until);
    }
  };

  return {
    async settle(options = {}) {
      try {
        await handling(options);
        if (outcome.started && !outcome.committed) await waitUntil(Date.now() + timing.commitMs, () => outcome.committed);
      } finally {
        unsubscribe();
      }
      // Nothing happened to the main frame on a session that stayed attached: `before` is what it shows (this
      // read was ~2 ms of a ~20 ms click).
      if (!moved && before.url !== undefined) return { ...outcome, url: before.url };
      // Events can be missed (e.g. a session re-attached mid-action); the loader is the truth.
      const after = await mainFrameDocument(ctx, tabId);
      if (after.frameId !== before.frameId || after.loaderId !== before.loaderId) {
        outcome.started = true;
        outcome.committed = true;
      }
      return { ...outcome, url: after.url };
    },
    stop() {
      unsubscribe();
    },
  };
}

/** Wait for `work` until `until` at the latest; its failure (the document went away) ends the wait too. */
async function bounded(work: Promise<void>, until: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, until - Date.now()));
  });
  try {
    await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A PageTurn in our world of the frame: a task queued behind everything the page has queued now,
 * in our isolated world (the page cannot slow or fake it by replacing its own setTimeout).
 */
export async function turnOf(ctx: Pick<CallContext, 'cdp'>, world: PageWorld): Promise<void> {
  await callPageAwait(ctx, world, 'turn');
}
