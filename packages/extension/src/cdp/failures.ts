/**
 * Chrome's error texts, read once. A CDP command that fails becomes a RelayError `cdp_error` carrying Chrome's own
 * words (`details.cdpMessage`, cdpSession.ts); what those words mean is decided here and nowhere else, as a kind
 * callers test. A new Chrome wording is one line below, not a search through the tools.
 *
 * Each phrase was seen in Chromium 156 through chrome.debugger:
 * - `context_gone`: the execution context a command named is gone — its document was replaced (navigation, a frame
 *   swap) or never existed in this renderer: "Cannot find context with specified id", "Execution context was
 *   destroyed", "Cannot find default execution context".
 * - `navigated`: a command was cut off because the tab navigated or closed under it: "Inspected target navigated or
 *   closed".
 * - `swapping`: the tab's session is between two renderers (a cross-process navigation commits): "Not attached to an
 *   active page". cdpSession.ts retries commands through it; a caller that still sees it may poll again.
 * - `frame_gone`: a frame id the session no longer has: "No frame for given id found", "Frame with the given id was
 *   not found".
 * - `not_rendered`: an element without a layout box (display:none, not laid out yet): "Could not compute box model",
 *   "Could not compute content quads".
 * - `no_dialog`: Page.handleJavaScriptDialog with no dialog showing: "No dialog is showing".
 * - `session_closed`: the debugger session ended under the command (cdpSession.ts writes "detached: <reason>").
 */
import { RelayError } from '@chrome-relay/protocol';

export type CdpFailureKind = 'context_gone' | 'navigated' | 'swapping' | 'frame_gone' | 'not_rendered' | 'no_dialog' | 'session_closed' | 'other';

const KINDS: ReadonlyArray<readonly [Exclude<CdpFailureKind, 'other'>, RegExp]> = [
  ['context_gone', /cannot find context with specified id|execution context was destroyed|cannot find default execution context/i],
  ['navigated', /inspected target navigated or closed/i],
  ['swapping', /^not attached to an active page/i],
  ['frame_gone', /^no frame for given id found|^frame with the given id was not found/i],
  ['not_rendered', /could not compute (box model|content quads)/i],
  ['no_dialog', /no dialog is showing/i],
  ['session_closed', /^detached: /],
];

/** The kind of one of Chrome's error texts. */
export function cdpKindOf(cdpMessage: string): CdpFailureKind {
  for (const [kind, pattern] of KINDS) if (pattern.test(cdpMessage)) return kind;
  return 'other';
}

/** The kind of a failed CDP command (a RelayError `cdp_error`); undefined for any other error. */
export function cdpFailure(error: unknown): CdpFailureKind | undefined {
  if (!(error instanceof RelayError) || error.code !== 'cdp_error') return undefined;
  const text = typeof error.details.cdpMessage === 'string' ? error.details.cdpMessage : error.message;
  return cdpKindOf(text);
}

/** Whether `error` is a failed CDP command of one of `kinds`. */
export function isCdpFailure(error: unknown, ...kinds: readonly CdpFailureKind[]): boolean {
  const kind = cdpFailure(error);
  return kind !== undefined && kinds.includes(kind);
}

/** The document a command worked in went away under it: its context is gone, or the tab navigated or closed. */
export const DOCUMENT_GONE: readonly CdpFailureKind[] = ['context_gone', 'navigated'];
