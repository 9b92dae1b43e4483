/**
 * Did an action navigate the tab? Subscribe before the action, settle after it.
 *
 * Observed in Chromium 156 (Page domain enabled), relative to mouseReleased:
 * - link click: frameRequestedNavigation (disposition currentTab) and frameStartedNavigating
 *   (differentDocument) arrive before the release is acknowledged; frameNavigated ≈ 20 ms later.
 * - script `setTimeout(() => location = …, 50)`: the same events ≈ 50–60 ms after release.
 * - hash link / pushState: only navigatedWithinDocument: not a navigation (refs stay valid).
 * - target=_blank: Page.windowOpen only: not this tab.
 * - a 204 response: started, never commits; the old document (and its refs) stays.
 * So: a short settle window catches handler-initiated navigations; "started" is what we report;
 * "committed" (a new loaderId) is what kills the tab's refs.
 */
import type Protocol from 'devtools-protocol';
import type { CdpEvent } from '../cdp/cdpSession.js';
import type { ToolContext } from '../tools/defineTool.js';
import { mainFrameDocument, type FrameDocument } from './worlds.js';

export interface NavigationTiming {
  /** How long after the action a navigation may still start. */
  settleMs: number;
  /** Once one started, how long to wait for it to commit (so the reported URL is the new one). */
  commitMs: number;
}

export const DEFAULT_NAVIGATION_TIMING: NavigationTiming = { settleMs: 100, commitMs: 1000 };

export interface NavigationOutcome {
  /** A cross-document navigation of the main frame started (it may still fail or be a download). */
  started: boolean;
  /** The main frame now shows another document than before the action. */
  committed: boolean;
  /** The main frame's URL once settled. */
  url: string;
}

export interface NavigationWatch {
  settle(): Promise<NavigationOutcome>;
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

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

/**
 * Start watching `tabId`'s main frame (whose document before the action is `before`). The Page
 * domain must be enabled on the tab's session (the caller does so before the action).
 */
export function watchNavigation(
  ctx: Pick<ToolContext, 'cdp' | 'deadline'>,
  tabId: number,
  before: FrameDocument,
  timing: NavigationTiming = DEFAULT_NAVIGATION_TIMING,
): NavigationWatch {
  const outcome = { started: false, committed: false };
  let wake: (() => void) | undefined;
  const unsubscribe = ctx.cdp.on((event) => {
    const kind = classifyNavigationEvent(event, tabId, before);
    if (kind === null) return;
    outcome.started = true;
    if (kind === 'committed') outcome.committed = true;
    wake?.();
  });

  /** Resolve after `ms` (capped by the deadline) or as soon as `done()` holds after an event. */
  const waitUntil = (ms: number, done: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      if (done()) return resolve();
      const timer = setTimeout(finish, Math.max(0, Math.min(ms, ctx.deadline - Date.now())));
      function finish(): void {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = () => {
        if (done()) finish();
      };
    });

  return {
    async settle() {
      try {
        await waitUntil(timing.settleMs, () => outcome.committed);
        if (outcome.started && !outcome.committed) await waitUntil(timing.commitMs, () => outcome.committed);
      } finally {
        unsubscribe();
      }
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
