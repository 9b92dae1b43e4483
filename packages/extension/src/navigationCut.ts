/**
 * A page that navigates while a tool runs destroys the document (and every execution context) the tool
 * was talking to, and CDP then answers with its own words: "Cannot find context with specified id",
 * "Execution context was destroyed", "Inspected target navigated or closed". Which of them a tool hits
 * depends on timing, so on a page that keeps navigating the same command failed as cdp_error (raw CDP
 * text, retryable) one time and timeout the next. Every such failure is one answer: timeout, reason
 * navigating — with the interrupted-mutation rule applied (a click cut off this way may have landed).
 * So is a DocumentChanged (pageCall.ts) that a tool did not turn into its own answer: a tool that handles
 * it (snapshot retries, ref tools say stale_ref) never lets it reach here.
 */
import { asInterrupted, reasonedError, RelayError, toolLabel } from '@chrome-relay/protocol';
import { DocumentChanged } from './page/pageCall.js';

const NAVIGATED_AWAY = /cannot find context with specified id|execution context was destroyed|cannot find default execution context|inspected target navigated or closed/i;

/** `error` itself, or — when CDP said the document went away under the tool — timeout/navigating. */
export function navigationCut(error: unknown, tool: string, tabId: number | undefined): unknown {
  if (error instanceof DocumentChanged) return cut(tool, tabId ?? error.tabId, {});
  if (!(error instanceof RelayError) || error.code !== 'cdp_error') return error;
  const cdpMessage = error.details.cdpMessage;
  if (typeof cdpMessage !== 'string' || !NAVIGATED_AWAY.test(cdpMessage)) return error;
  return cut(tool, tabId, error.details);
}

function cut(tool: string, tabId: number | undefined, details: Record<string, unknown>): RelayError {
  const where = tabId === undefined ? 'The tab' : `Tab ${tabId}`;
  const error = reasonedError(
    'timeout',
    'navigating',
    `${where} navigated while ${toolLabel(tool)} ran (its document was replaced mid-call); wait for the page to settle (\`chrome-relay wait --load\`), then retry.`,
    { tool, phase: 'act', details: { ...details, ...(tabId === undefined ? {} : { tab: tabId }) } },
  );
  return asInterrupted(error);
}
