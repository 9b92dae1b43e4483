/**
 * The closed errors that say why a ref cannot be used: stale (with its reason and that reason's move) or its tab
 * closed. Which applies is decided where the call is resolved (targeting/resolveCall.ts) and where the page answers.
 */
import { reasonedError, reasonInfo, RelayError } from '@chrome-relay/protocol';
import type { StaleReason } from '../injected/types.js';

/** Why a ref is stale: the page's reasons plus the one only the worker can see. */
export type RefStaleReason = StaleReason | 'navigated';

const STALE_EXPLANATION: Readonly<Record<RefStaleReason, string>> = {
  unknown_ref: 'chrome-relay does not know it: it was never issued, or it predates the extension reloading or a newer snapshot of its tab',
  navigated: 'its tab (or the frame it is in) has loaded a new document since the snapshot',
  vanished: 'its element left the page and nothing provably the same replaced it',
  ambiguous: 'its element was re-rendered and several elements could be its copy, so picking one could hit the wrong one',
  changed: 'its element is still there but its role or name changed, so it is no longer what the snapshot showed',
  hidden: 'its element is still in the page but hidden right now (the last snapshot left it out)',
};

/** The explanation is this ref's; the move is the reason's own, word for word. */
export function staleRefError(ref: string, reason: RefStaleReason, tabId?: number): RelayError {
  const details: Record<string, unknown> = { ref };
  if (tabId !== undefined) details.tab = tabId;
  return reasonedError('stale_ref', reason, `Ref @${ref} is stale: ${STALE_EXPLANATION[reason]}. ${reasonInfo('stale_ref', reason).move}`, {
    phase: 'resolve',
    details,
  });
}

/** The ref's tab was closed (decided once per call, in targeting/resolveCall.ts). */
export function tabClosedError(ref: string, tabId: number): RelayError {
  return new RelayError('target_not_found', `Ref @${ref} belonged to tab ${tabId}, which has been closed. Run \`chrome-relay tabs\` and snapshot a live tab.`, {
    phase: 'resolve',
    details: { ref, tab: tabId },
  });
}
