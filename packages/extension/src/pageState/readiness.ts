/**
 * Readiness of a navigation chrome-relay starts without knowing its loaderId in advance: history
 * moves (Page.navigateToHistoryEntry) and reloads (Page.reload) answer with nothing, unlike
 * Page.navigate. So the document to wait for is the main frame's first commit after the command:
 *
 * - Page.frameNavigated of the main frame, type "Navigation": a new document; wait for its loader
 *   to reach the milestone (LoaderProgress, fed from before the command is sent).
 * - Page.frameNavigated type "BackForwardCacheRestore": the page came back from the back/forward
 *   cache, already loaded; it fires no lifecycle events (observed in Chromium 156), so it is ready.
 * - Page.navigatedWithinDocument of the main frame (history entry of a pushState/fragment): the
 *   document stays, so it is ready.
 *
 * Page.frameStartedNavigating carries a loaderId that differs from the committed one for history
 * navigations (observed), so it is not used. A dialog opening (beforeunload on reload, alert while
 * loading) ends the wait at once and is reported; the deadline ends it with ready:false.
 */
import { RelayError, type ToolParams } from '@chrome-relay/protocol';
import { sessionClosed } from '../cdp/failures.js';
import type { CdpEvent } from '../cdp/cdpSession.js';
import type { CallContext } from '../context/call.js';
import { LoaderProgress } from './loaderProgress.js';
import type { DialogInfo, DialogTracker } from './dialogs.js';

export type WaitUntil = NonNullable<ToolParams<'navigate'>['wait']>;

export interface DocumentState {
  ready: boolean;
  url: string;
  title: string;
  dialog?: DialogInfo;
}

type Commit = { kind: 'document'; loaderId: string } | { kind: 'restored' } | { kind: 'sameDocument'; url: string };

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** The main frame's first commit in a stream of the tab's events (pure: unit-tested). */
export class CommitWatcher {
  readonly #tabId: number;
  readonly #mainFrameId: string;
  commit: Commit | undefined;

  constructor(tabId: number, mainFrameId: string) {
    this.#tabId = tabId;
    this.#mainFrameId = mainFrameId;
  }

  observe(event: CdpEvent): void {
    if (this.commit || event.tabId !== this.#tabId || event.sessionId !== undefined) return;
    if (event.method === 'Page.frameNavigated') {
      const frame = field(event.params, 'frame');
      if (field(frame, 'parentId') !== undefined) return;
      const loaderId = field(frame, 'loaderId');
      if (field(event.params, 'type') === 'BackForwardCacheRestore') this.commit = { kind: 'restored' };
      else if (typeof loaderId === 'string') this.commit = { kind: 'document', loaderId };
    } else if (event.method === 'Page.navigatedWithinDocument') {
      const url = field(event.params, 'url');
      if (field(event.params, 'frameId') === this.#mainFrameId && typeof url === 'string') this.commit = { kind: 'sameDocument', url };
    }
  }
}

/** URL and title of the tab's current history entry (answers even while a dialog is open). */
export async function currentEntry(ctx: Pick<CallContext, 'cdp' | 'browser'>, tabId: number): Promise<{ url: string; title: string }> {
  const history = await ctx.cdp.send(tabId, 'Page.getNavigationHistory');
  const entry = history.entries[history.currentIndex];
  if (entry) return { url: entry.url, title: entry.title };
  const tab = await ctx.browser.getTab(tabId);
  return { url: tab.url ?? '', title: tab.title ?? '' };
}

/**
 * Send the command `start` (after subscribing) and wait until the document it commits reaches
 * `wait`, a dialog opens, or `readyBy` (epoch ms) passes.
 */
export async function runNavigation(
  ctx: CallContext & { readonly dialogs: DialogTracker },
  tabId: number,
  start: () => Promise<unknown>,
  wait: WaitUntil,
  readyBy: number,
): Promise<DocumentState> {
  await ctx.cdp.send(tabId, 'Page.enable');
  await ctx.cdp.send(tabId, 'Page.setLifecycleEventsEnabled', { enabled: true });
  const tree = await ctx.cdp.send(tabId, 'Page.getFrameTree');
  const progress = new LoaderProgress(tabId);
  const watcher = new CommitWatcher(tabId, tree.frameTree.frame.id);
  // The watcher sees each event first, so `ready()` below reads an up-to-date commit when
  // LoaderProgress re-checks it after the same event.
  const stopEvents = ctx.cdp.on((event) => {
    watcher.observe(event);
    progress.observe(event);
  });
  const stopDetach = ctx.cdp.onDetached((detachedTab, reason) => {
    if (detachedTab !== tabId) return;
    progress.fail(
      reason === 'target_closed'
        ? new RelayError('target_not_found', `Tab ${tabId} was closed while loading.`, { phase: 'wait', details: { tab: tabId } })
        : sessionClosed(`Lost the debugger session of tab ${tabId} while it loaded (${reason}); retry.`, {
            phase: 'wait',
            details: { method: 'Page.lifecycleEvent', detached: reason, tab: tabId },
          }),
    );
  });
  const dialogs = ctx.dialogs;
  const { opened, cancel } = dialogs.onOpened(tabId);
  try {
    const started = await dialogs.watch(tabId, start);
    if ('dialog' in started) return { ready: false, dialog: started.dialog, ...(await currentEntry(ctx, tabId)) };
    if (wait === 'none') return { ready: false, ...(await currentEntry(ctx, tabId)) };

    const ready = (): boolean => {
      const commit = watcher.commit;
      if (!commit) return false;
      if (commit.kind !== 'document' || wait === 'commit') return true;
      return progress.reached(commit.loaderId, wait);
    };
    const outcome = await Promise.race([
      progress.waitUntil(ready, readyBy).then((done) => ({ done })),
      opened.then((dialog) => ({ dialog })),
    ]);
    const entry = await currentEntry(ctx, tabId);
    if ('dialog' in outcome) return { ready: false, dialog: outcome.dialog, ...entry };
    const commit = watcher.commit;
    // Page.navigateToHistoryEntry can answer before the history entry moves (same document).
    const url = commit?.kind === 'sameDocument' ? commit.url : entry.url;
    return { ready: outcome.done, url, title: entry.title };
  } finally {
    cancel();
    stopEvents();
    stopDetach();
  }
}
