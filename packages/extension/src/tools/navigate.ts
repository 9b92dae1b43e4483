/**
 * `navigate`: load a URL in the call's tab (the one the dispatcher resolved: --tab, a workspace's, or the
 * remembered one, as for every tool) or, with newTab or when chrome-relay has used no tab yet, in a new
 * background tab; and wait until the navigation's OWN document reaches the requested readiness. The result
 * carries that document's HTTP status (from its response's Network event), so a 404 reads as one.
 *
 * Why loaderIds: a new tab starts on an about:blank placeholder that fires its own load events, and
 * a reused tab has the previous page's events in flight. Page.navigate returns the loaderId of the
 * document it creates; only lifecycle events carrying that loaderId count. Events can arrive before
 * Page.navigate answers, so they are recorded from before the command is sent.
 *
 * Which URLs may be opened at all, and how, is the one URL gate's (policy/urlGate.ts), which the dispatcher applies
 * before this runs: http, https and (when the person allows it) file: through the debugger; about:blank and data:
 * with chrome.tabs, readiness then read from the tab's status — data: because Page.navigate to it answers
 * net::ERR_ABORTED, about:blank because Page.navigate to about:blank#x in a fresh tab crashed the whole browser
 * (Chromium 156). The way is chosen by the URL up front, not tried after a failure. chrome.tabs.update to data: is
 * silently ignored too, so data: is only accepted for a new tab: one without an explicit --tab opens a new tab, also
 * when there is a current tab. A URL the gate refuses is never sent, also when this tool runs without the dispatcher
 * in front (its own unit tests).
 *
 * Outcomes: a network-level failure (errorText) is a cdp_error naming the network error; running
 * out of time while waiting is not an error but `ready: false`. The tab is never activated and its
 * window never focused. A tab this call opened is closed again if the call fails, so a failed
 * navigate leaves nothing behind.
 */
import { RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { sessionClosed } from '../cdp/failures.js';
import type { CdpEvent } from '../cdp/cdpSession.js';
import { defineTool } from './defineTool.js';
import type { ToolContext } from '../actions/toolContext.js';
import { LoaderProgress, RANK, type Milestone } from '../pageState/loaderProgress.js';
import { classifyUrl, urlRefusal, type OpenWith } from '../policy/urlGate.js';

/** The services this tool uses (tools/defineTool.ts). */
const USES = [] as const;
type UsedContext = ToolContext<(typeof USES)[number]>;

type WaitUntil = NonNullable<ToolParams<'navigate'>['wait']>;
/** The milestones that come after the document was parsed. */
const PARSED_MILESTONES: readonly WaitUntil[] = ['domcontentloaded', 'load'];
type PageState = Pick<ToolResult<'navigate'>, 'url' | 'title' | 'ready' | 'status'>;

const DEFAULT_TIMEOUT_MS = 20_000;
const TAB_POLL_MS = 50;

/** The URL to load and how (the URL gate's answer); a URL the gate refuses throws its refusal and is never sent. */
export function openableUrl(url: string): { href: string; openWith: OpenWith; newTabOnly?: true } {
  const found = classifyUrl(url);
  if ('openWith' in found) return found;
  // The person's switch for local files is the dispatcher's to apply; here only what never opens is refused.
  throw urlRefusal('navigate', url, { agentFiles: true }) ?? new RelayError('internal_error', `The URL gate refused ${JSON.stringify(url)} without a reason.`, { tool: 'navigate', phase: 'validate' });
}

/** `promise`'s value, or undefined if `readyBy` (epoch ms) comes first. */
async function beforeDeadline<T>(promise: Promise<T>, readyBy: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, readyBy - Date.now()));
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** URL and title of the committed document, read through CDP so they are ordered after its events. */
async function committedState(ctx: UsedContext, tabId: number): Promise<Pick<PageState, 'url' | 'title'>> {
  const history = await ctx.cdp.send(tabId, 'Page.getNavigationHistory');
  const entry = history.entries[history.currentIndex];
  if (entry) return { url: entry.url, title: entry.title };
  const tab = await ctx.browser.getTab(tabId);
  return { url: tab.url ?? '', title: tab.title ?? '' };
}

/** Our navigation has not committed: the URL it is loading, and no title yet (the tab's is the old page's). */
async function pendingState(ctx: UsedContext, tabId: number, requested: string): Promise<Pick<PageState, 'url' | 'title'>> {
  const tab = await ctx.browser.getTab(tabId);
  return { url: tab.pendingUrl ?? requested, title: '' };
}

/** Chrome may add or drop a trailing slash (chrome://version → chrome://version/). */
function sameUrl(a: string | undefined, b: string): boolean {
  return a !== undefined && a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

/**
 * Readiness of a chrome.tabs navigation, polled from the tab: committed once the tab shows `url`
 * with nothing pending, loaded once its status is also 'complete' (chrome.tabs has no separate
 * DOMContentLoaded, so that wait is served by 'complete' too).
 */
async function waitForTab(ctx: UsedContext, tabId: number, url: string, wait: WaitUntil, readyBy: number): Promise<PageState> {
  if (wait === 'none') return { ready: false, url, title: '' };
  for (;;) {
    const tab = await ctx.browser.getTab(tabId);
    const committed = tab.pendingUrl === undefined && sameUrl(tab.url, url);
    const ready = wait === 'commit' ? committed : committed && tab.status === 'complete';
    if (ready || Date.now() + TAB_POLL_MS > readyBy) {
      return committed ? { ready, url: tab.url ?? url, title: tab.title ?? '' } : { ready, url: tab.pendingUrl ?? url, title: '' };
    }
    await new Promise((resolve) => setTimeout(resolve, TAB_POLL_MS));
  }
}

/**
 * A navigation a browser extension's request filter stopped (net::ERR_BLOCKED_BY_CLIENT): where it was stopped,
 * which is the last URL its document request asked for after redirects (Network events; the tab itself keeps showing
 * the URL it was sent to). The person's limits (policy.ts explainFailure) turn it into site_blocked without that URL
 * when it is on their block list.
 */
function blockedAt(progress: LoaderProgress, answer: { loaderId?: string }, errorText: string, url: string): string | undefined {
  if (!errorText.includes('ERR_BLOCKED_BY_CLIENT')) return undefined;
  // The document request's events come before Page.navigate answers; without them, the URL asked for.
  return (answer.loaderId === undefined ? undefined : progress.requestedUrl(answer.loaderId)) ?? url;
}

function navigationFailed(url: string, tabId: number, newTab: boolean, errorText: string, isDownload: boolean, blockedUrl?: string): RelayError {
  const closed = newTab ? ' The tab opened for it was closed.' : '';
  const message = isDownload
    ? `Navigation to ${url} started a download instead of opening a page.${closed}`
    : `Navigation to ${url} failed: ${errorText}. Check the URL and that the server is reachable.${closed}`;
  return new RelayError('cdp_error', message, {
    tool: 'navigate',
    phase: 'act',
    // Not a protocol failure but a page outcome, so it is not worth retrying blindly.
    retryable: false,
    details: { method: 'Page.navigate', errorText, url, tab: tabId, newTab, isDownload, ...(blockedUrl === undefined ? {} : { blockedUrl }) },
  });
}

async function navigateIn(ctx: UsedContext, tabId: number, url: string, wait: WaitUntil, readyBy: number, newTab: boolean): Promise<PageState> {
  const progress = new LoaderProgress(tabId);
  // Subscribe before anything is sent: the new document's events may beat Page.navigate's answer.
  const stopEvents = ctx.cdp.on((event) => progress.observe(event));
  const stopDetach = ctx.cdp.onDetached((detachedTab, reason) => {
    if (detachedTab !== tabId) return;
    progress.fail(
      reason === 'target_closed'
        ? new RelayError('target_not_found', `Tab ${tabId} was closed while navigating to ${url}.`, { tool: 'navigate', phase: 'wait', details: { tab: tabId } })
        : sessionClosed(`Lost the debugger session of tab ${tabId} while navigating (${reason}); retry.`, {
            tool: 'navigate',
            phase: 'wait',
            details: { method: 'Page.navigate', detached: reason, tab: tabId },
          }),
    );
  });
  try {
    await ctx.cdp.send(tabId, 'Page.enable');
    await ctx.cdp.send(tabId, 'Page.setLifecycleEventsEnabled', { enabled: true });
    const navigation = ctx.cdp.send(tabId, 'Page.navigate', { url });
    // Whatever we stop waiting for may still settle later; it must not become an unhandled rejection.
    navigation.catch(() => undefined);

    if (wait === 'none') {
      return { ready: false, ...(await pendingState(ctx, tabId, url)) };
    }
    const answer = await beforeDeadline(navigation, readyBy);
    if (!answer) return { ready: false, ...(await pendingState(ctx, tabId, url)) };
    if (answer.errorText !== undefined || answer.isDownload === true) {
      const errorText = answer.errorText ?? '';
      throw navigationFailed(url, tabId, newTab, errorText, answer.isDownload === true, blockedAt(progress, answer, errorText, url));
    }
    if (answer.loaderId === undefined) {
      // A same-document navigation (fragment, history API): the document stays, so it is ready once
      // Chrome reports the move. Page.navigate answers before the history entry changes (observed),
      // so the URL comes from the event.
      const frameId = answer.frameId;
      const ready = await progress.waitUntil(() => progress.sameDocumentUrl(frameId) !== undefined, readyBy);
      const state = await committedState(ctx, tabId);
      return { ready, title: state.title, url: progress.sameDocumentUrl(frameId) ?? state.url };
    }
    const ready = wait === 'commit' ? true : await progress.waitFor(answer.loaderId, wait, readyBy);
    const status = progress.statusOf(answer.loaderId);
    return { ready, ...(await committedState(ctx, tabId)), ...(status === undefined ? {} : { status }) };
  } finally {
    stopEvents();
    stopDetach();
  }
}

export const navigateTool = defineTool({
  name: 'navigate',
  uses: USES,
  async handle(params, ctx) {
    const { href: url, openWith, newTabOnly } = openableUrl(params.url);
    const wait = params.wait ?? 'load';
    const readyBy = Math.min(Date.now() + (params.timeoutMs ?? DEFAULT_TIMEOUT_MS), ctx.deadline);
    const viaTabs = openWith === 'tabs';
    // The remembered tab is only a default: a URL no existing tab can be sent to (data:, about:blank#x) opens a new one.
    const inTab = newTabOnly === true && ctx.target.kind === 'tab' && ctx.target.via === 'remembered' ? undefined : params.tab;
    if (newTabOnly === true && inTab !== undefined) {
      // Observed: chrome.tabs.update to a data: URL is silently ignored, and to about:blank#x it crashed the browser
      // (urlGate.ts): only a new tab opens either.
      throw new RelayError('invalid_arguments', `Invalid arguments for navigate: ${url.startsWith('data:') ? 'a data: URL' : 'about:blank with a #fragment'} can only be opened in a new tab; drop --tab.`, {
        tool: 'navigate',
        phase: 'validate',
        details: { field: 'tab', url },
      });
    }

    if (inTab !== undefined) {
      // The tab the call was resolved to (--tab, or the remembered one): checked by the dispatcher, not looked up again.
      const tabId = inTab;
      if (viaTabs) {
        await ctx.browser.updateTab(tabId, { url });
        return { tabId, newTab: false, ...(await waitForTab(ctx, tabId, url, wait, readyBy)) };
      }
      return { tabId, newTab: false, ...(await navigateIn(ctx, tabId, url, wait, readyBy, false)) };
    }

    // active:false keeps the person's current tab in front; we never focus windows either.
    const created = await ctx.browser.createTab({ url: viaTabs ? url : 'about:blank', active: false });
    const tabId = created.id;
    if (tabId === undefined) {
      throw new RelayError('chrome_api_error', 'chrome.tabs.create returned a tab without an id; retry.', {
        tool: 'navigate',
        phase: 'act',
        details: { api: 'chrome.tabs.create', apiMessage: 'tab has no id' },
      });
    }
    try {
      const state = viaTabs ? await waitForTab(ctx, tabId, url, wait, readyBy) : await navigateIn(ctx, tabId, url, wait, readyBy, true);
      return { tabId, newTab: true, ...state };
    } catch (error) {
      await ctx.browser.removeTab(tabId).catch(() => undefined);
      throw error;
    }
  },
  // ready: the document reached the milestone waited for, and both of these come after its parsing.
  leavesParsed: (params, result) => result.ready && PARSED_MILESTONES.includes(params.wait ?? 'load'),
});
