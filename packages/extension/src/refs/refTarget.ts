/**
 * The closed errors that say why a ref cannot be used: stale (with its reason and that reason's move) or its tab
 * closed. Which applies is decided where the call is resolved (targeting/resolveCall.ts) and where the page answers;
 * a navigated ref's error is told where its tab is now on its way out (withWhereNavigated, run by the dispatcher).
 */
import { reasonedError, reasonInfo, RelayError } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';
import type { StaleReason } from '../injected/types.js';

/** Why a ref is stale: the page's reasons plus the one only the worker can see. */
export type RefStaleReason = StaleReason | 'navigated';

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

/** The ref's tab was closed (decided once per call, in targeting/resolveCall.ts). */
export function tabClosedError(ref: string, tabId: number): RelayError {
  return new RelayError('target_not_found', `Ref @${ref} belonged to tab ${tabId}, which has been closed. Run \`chrome-relay tabs\` and snapshot a live tab.`, {
    phase: 'resolve',
    details: { ref, tab: tabId },
  });
}
