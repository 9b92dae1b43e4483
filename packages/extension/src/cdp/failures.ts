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
 *
 * One kind is not read from a text: `session_closed`, the debugger session ended under the command or wait (Chrome's
 * onDetach, for a reason other than the tab closing), which the code that saw the detach says by making a
 * `sessionClosed` error.
 *
 * The kind is set where the error is made (a `CdpFailure`: `commandFailure` in cdpSession.ts, `sessionClosed`), and
 * read from there: a cdp_error made any other way — the page's own exception in `js`, a navigation's net error — is
 * `other`, whatever its words, so no text a page controls can pass for a document that went away.
 */
import { RelayError, type RelayErrorOptions } from '@chrome-relay/protocol';

export type CdpFailureKind = 'context_gone' | 'navigated' | 'swapping' | 'frame_gone' | 'not_rendered' | 'no_dialog' | 'session_closed' | 'other';

const KINDS: ReadonlyArray<readonly [Exclude<CdpFailureKind, 'other' | 'session_closed'>, RegExp]> = [
  ['context_gone', /cannot find context with specified id|execution context was destroyed|cannot find default execution context/i],
  ['navigated', /inspected target navigated or closed/i],
  ['swapping', /^not attached to an active page/i],
  ['frame_gone', /^no frame for given id found|^frame with the given id was not found/i],
  ['not_rendered', /could not compute (box model|content quads)/i],
  ['no_dialog', /no dialog is showing/i],
];

/** The kind of one of Chrome's error texts. */
export function cdpKindOf(cdpMessage: string): CdpFailureKind {
  for (const [kind, pattern] of KINDS) if (pattern.test(cdpMessage)) return kind;
  return 'other';
}

/** A failed CDP command or wait (`cdp_error`), with its kind decided where it was made. */
export class CdpFailure extends RelayError {
  readonly kind: CdpFailureKind;

  constructor(kind: CdpFailureKind, message: string, options: RelayErrorOptions = {}) {
    super('cdp_error', message, options);
    this.kind = kind;
  }
}

/** A command Chrome failed, in its own words (`details.cdpMessage`), which give the kind. */
export function commandFailure(method: string, cdpMessage: string): CdpFailure {
  return new CdpFailure(cdpKindOf(cdpMessage), `${method} failed: ${cdpMessage}`, { phase: 'act', details: { method, cdpMessage } });
}

/** The debugger session ended under a command or a wait (Chrome's detach reason in `details.detached`). */
export function sessionClosed(message: string, options: RelayErrorOptions & { details: { detached: string } }): CdpFailure {
  return new CdpFailure('session_closed', message, options);
}

/** Whether `error` is a CDP command or wait that failed (of any kind), as opposed to any other error, cdp_error ones included. */
export function isCommandFailure(error: unknown): error is CdpFailure {
  return error instanceof CdpFailure;
}

/** The kind of a failed CDP command (a RelayError `cdp_error`): as made, `other` for one made without a kind; undefined for any other error. */
export function cdpFailure(error: unknown): CdpFailureKind | undefined {
  if (error instanceof CdpFailure) return error.kind;
  return error instanceof RelayError && error.code === 'cdp_error' ? 'other' : undefined;
}

/** Whether `error` is a failed CDP command of one of `kinds`. */
export function isCdpFailure(error: unknown, ...kinds: readonly CdpFailureKind[]): boolean {
  const kind = cdpFailure(error);
  return kind !== undefined && kinds.includes(kind);
}

/** The document a command worked in went away under it: its context is gone, or the tab navigated or closed. */
export const DOCUMENT_GONE: readonly CdpFailureKind[] = ['context_gone', 'navigated'];
