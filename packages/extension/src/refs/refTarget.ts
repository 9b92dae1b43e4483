/**
 * From a ref to the tab it lives in, or the closed error that says why it cannot be used. A ref
 * carries its tab, so --tab is only a cross-check.
 */
import { reasonedError, reasonInfo, RelayError } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';
import type { StaleReason } from '../injected/types.js';
import type { DocumentIdentity, RefRegistry, RefSummary } from './registry.js';

/** Why a ref is stale: the page's reasons plus the one only the worker can see. */
export type RefStaleReason = StaleReason | 'navigated';

export interface RefTarget {
  ref: string;
  tabId: number;
  /** The tab's main-frame document when the ref was issued. */
  document: DocumentIdentity;
  /** The document the ref's element lives in (the main frame's, or an iframe's). */
  frame: DocumentIdentity;
  record: RefSummary;
}

const STALE_EXPLANATION: Readonly<Record<RefStaleReason, string>> = {
  unknown_ref: 'chrome-relay does not know it: it was never issued, or it predates the extension reloading or a newer snapshot of its tab',
  navigated: 'its tab (or the frame it is in) navigated since the snapshot that issued it',
  vanished: 'its element left the page and nothing provably the same replaced it',
  ambiguous: 'its element was re-rendered and several elements could be its copy, so picking one could hit the wrong one',
  changed: 'its element is still there but its role or name changed, so it is no longer what the snapshot showed',
  hidden: 'its element is still in the page but hidden right now (the last snapshot left it out)',
};

/**
 * The explanation is this ref's; the move is the reason's own, word for word. `now`: where a navigated ref's tab
 * is now (withWhereNavigated adds it, keeping what `from`, the error it tells more about, carried).
 */
export function staleRefError(ref: string, reason: RefStaleReason, tabId?: number, now?: string, from?: RelayError): RelayError {
  const details: Record<string, unknown> = { ...from?.details, ref };
  if (tabId !== undefined) details.tab = tabId;
  if (now !== undefined) details.url = now;
  const where = now === undefined ? '' : `; tab ${tabId ?? '?'} now shows ${JSON.stringify(now)}`;
  return reasonedError('stale_ref', reason, `Ref @${ref} is stale: ${STALE_EXPLANATION[reason]}${where}. ${reasonInfo('stale_ref', reason).move}`, {
    phase: from?.phase ?? 'resolve',
    details,
    ...(from === undefined ? {} : { tool: from.tool, retryable: from.retryable }),
  });
}

/**
 * A stale_ref for a ref whose tab navigated, told where the tab is now: one step for every path that finds a ref
 * navigated (the dispatcher runs it on every failure; the person's scrub runs after it, so a blocked site shows as
 * its origin only). Anything else, or a tab that cannot be read any more, is returned as it is.
 */
export async function withWhereNavigated(error: unknown, browser: Pick<BrowserApi, 'getTab'>): Promise<unknown> {
  if (!(error instanceof RelayError) || error.code !== 'stale_ref' || error.details.reason !== 'navigated') return error;
  const { ref, tab, url } = error.details;
  if (typeof ref !== 'string' || typeof tab !== 'number' || url !== undefined) return error;
  try {
    const now = await browser.getTab(tab);
    const shown = now.pendingUrl ?? now.url;
    if (shown === undefined || shown === '') return error;
    return staleRefError(ref, 'navigated', tab, shown, error);
  } catch {
    return error;
  }
}

function tabClosedError(ref: string, tabId: number): RelayError {
  return new RelayError('target_not_found', `Ref @${ref} belonged to tab ${tabId}, which has been closed. Run \`chrome-relay tabs\` and snapshot a live tab.`, {
    phase: 'resolve',
    details: { ref, tab: tabId },
  });
}

/**
 * The live target of `ref`. Throws stale_ref (unknown or navigated) or target_not_found (the ref's tab was closed).
 * Which tab the call acts in was decided before the tool ran (targeting/resolveCall.ts: a ref carries its tab, and
 * --tab naming another is refused there); `callTab` is that decision, and a ref of another tab is a bug of ours.
 */
export async function resolveRefTarget(
  registry: RefRegistry,
  browser: Pick<BrowserApi, 'getTab'>,
  ref: string,
  callTab: number | undefined,
): Promise<RefTarget> {
  const found = await registry.lookup(ref);
  if (found === undefined) throw staleRefError(ref, 'unknown_ref');
  if (callTab !== undefined && callTab !== found.tabId) {
    throw new RelayError('internal_error', `The call was resolved to tab ${callTab}, but @${ref} belongs to tab ${found.tabId}.`, { phase: 'resolve', details: { ref, refTab: found.tabId, callTab } });
  }
  if (found.state !== 'live') throw found.state === 'closed' ? tabClosedError(ref, found.tabId) : staleRefError(ref, 'navigated', found.tabId);
  try {
    await browser.getTab(found.tabId);
  } catch (error) {
    if (error instanceof RelayError && error.code === 'target_not_found') {
      // Closed while the worker was down (tabs.onRemoved never reached us): record it now.
      await registry.forgetTab(found.tabId);
      throw tabClosedError(ref, found.tabId);
    }
    throw error;
  }
  return { ref, tabId: found.tabId, document: found.document, frame: found.frame, record: found.record };
}
