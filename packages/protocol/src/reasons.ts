/**
 * `details.reason`: the closed sub-cases of the codes that cover several situations with different
 * fixes. An agent branches on `code` first and on `details.reason` second, so each reason is as
 * permanent as a code: add, never rename or remove. Each carries its own move (what fits *this*
 * situation); messages at the throw site say the same move in context.
 *
 * Plain data, no zod: the CLI's start-up path may read it.
 */
import { RelayError, type ErrorCode, type RelayErrorOptions } from './errors.js';

export interface ReasonInfo {
  /** What happened, in one sentence. */
  readonly meaning: string;
  /** What an agent should do next in this situation. */
  readonly move: string;
}

export const ERROR_REASONS = {
  target_conflict: {
    ref_tab_mismatch: {
      meaning: 'A --tab/--workspace/--group flag names another tab than the one the ref belongs to.',
      move: 'Drop the flag: a ref already carries its tab.',
    },
    multiple_targets: {
      meaning: 'Two targets were given at once (e.g. --tab and --workspace, or two refs in different tabs).',
      move: 'Give one target.',
    },
    leased: {
      meaning: 'The tab or workspace is leased by another agent.',
      move: 'Use another tab (`chrome-relay navigate <url>` opens one), or wait until details.expiresAt; a human can run `chrome-relay lease release --tab <id> --force`.',
    },
    dialog_open: {
      meaning: 'A JavaScript dialog (alert, confirm, prompt, beforeunload) is open in the tab and blocks it.',
      move: 'Answer it with `chrome-relay dialog accept` or `chrome-relay dialog dismiss`, then repeat the command.',
    },
    name_taken: {
      meaning: 'A workspace or tab group with that name already exists.',
      move: 'Use the existing one, or pick another name.',
    },
    ambiguous_name: {
      meaning: 'The name matches several things (tab groups, or connected browser profiles).',
      move: 'Make the name unique, or pass --profile <user-data-dir> to choose the browser.',
    },
    agent_mismatch: {
      meaning: 'The call names one agent identity in its parameters and runs as another.',
      move: 'Give one identity (--agent or CHROME_RELAY_AGENT).',
    },
    paused_by_user: {
      meaning: 'The person using the browser paused chrome-relay from the extension.',
      move: 'Stop and tell the person; commands work again once they press Resume in the extension.',
    },
    site_blocked: {
      meaning:
        "The tab shows (or the command would open) a site on the person's block list in the extension's options, and chrome-relay never attaches to it; or the command aims inside a frame of the page that shows one (details.frame, details.origin), which chrome-relay never reads or acts in, or a screenshot could not paint such a frame over and so returned no image.",
      move: 'Leave that site alone: work in another tab, or with the rest of the page around a blocked frame; or ask the person to remove the rule (details.rule) in the extension options.',
    },
    not_agent_tab: {
      meaning: 'The person allows agents only in tabs chrome-relay opened or that they put into a "chrome-relay" tab group, and this tab is neither.',
      move: 'Open your own tab with `chrome-relay navigate <url>`, or ask the person to drag this tab into a tab group named "chrome-relay".',
    },
    recording: {
      meaning: 'The tab is being recorded (`record start`), and this command would change what the recording shows (a --full screenshot resizes the viewport).',
      move: 'Drop the option that needs it (a plain screenshot comes from the recording), or run `chrome-relay record stop` first.',
    },
  },
  stale_ref: {
    unknown_ref: {
      meaning: 'chrome-relay never issued this ref, or forgot it (a newer snapshot, an extension reload).',
      move: 'Run `chrome-relay snapshot` and use the refs it prints.',
    },
    navigated: {
      meaning: 'The tab (or the frame holding the element) loaded a new document since the snapshot.',
      move: 'Run `chrome-relay snapshot` of the new page and use its refs.',
    },
    vanished: {
      meaning: 'The element left the page and nothing provably the same replaced it.',
      move: 'Run `chrome-relay snapshot`; the element may be gone for good.',
    },
    ambiguous: {
      meaning: 'The element was re-rendered and several elements could be its copy.',
      move: 'Run `chrome-relay snapshot` and pick the right one of the new refs.',
    },
    changed: {
      meaning: 'The element is still there but its role or name changed, so it is no longer what the snapshot showed.',
      move: 'Run `chrome-relay snapshot` and check that it is still the element you want.',
    },
    hidden: {
      meaning: 'The element is in the page but hidden right now (e.g. a collapsed menu or a re-render in progress).',
      move: 'Open whatever reveals it (hover the menu, expand the section) or `chrome-relay wait` for it, then use the same ref.',
    },
  },
  element_not_found: {
    no_match: {
      meaning: 'No element matches the selector, text or query given.',
      move: 'Check it against a fresh `chrome-relay snapshot`, or `chrome-relay wait --selector` for it.',
    },
    not_visible: {
      meaning: 'The element exists but has no visible box to act on (hidden, collapsed or zero-sized).',
      move: 'Reveal it first (scroll, expand, hover its menu) or `chrome-relay wait` for it, then retry.',
    },
    out_of_reach: {
      meaning: 'The element is in the page but lies past the edge it can scroll to (layout pushed it there; the snapshot marks it [offscreen]): no pointer reaches it.',
      move: 'Act on it without a pointer: `fill`, `select`, or `focus` then `keys`.',
    },
    scope_missing: {
      meaning: 'The --scope/-s given to a snapshot names nothing on the page.',
      move: 'Snapshot without -s to see the page, then scope to an existing ref or selector.',
    },
    no_editable_focus: {
      meaning: '`type` found nothing editable focused in the tab, so there is nowhere to type.',
      move: 'Focus the field first: `chrome-relay type -s @e7 "text"`, or click it, then type.',
    },
  },
  timeout: {
    page_busy: {
      meaning: 'The page did not answer in time (a busy main thread, or a dialog).',
      move: 'Check the tab with `chrome-relay snapshot`, then retry; a mutating command may already have acted.',
    },
    navigating: {
      meaning: 'The tab kept navigating while the command ran.',
      move: 'Wait for the page to settle (`chrome-relay wait --load`), then retry.',
    },
    condition_not_met: {
      meaning: 'What `wait` waited for did not happen within its --timeout.',
      move: 'Check the page with `chrome-relay snapshot`; retry with a larger --timeout if it is merely slow.',
    },
    extension_unresponsive: {
      meaning: 'The extension took the call but did not answer before the deadline.',
      move: 'Run `chrome-relay doctor`; a mutating command may already have acted, so snapshot first.',
    },
    host_unresponsive: {
      meaning: 'The native host did not answer before the deadline.',
      move: 'Run `chrome-relay doctor`.',
    },
    no_frame: {
      meaning: 'The tab produced no frame to capture before the deadline.',
      move: 'Retry; if the tab is minimised or crashed, bring it back first.',
    },
    busy: {
      meaning: 'Another chrome-relay operation on the same tab (a snapshot of a slow page) held it too long.',
      move: 'Retry in a moment.',
    },
    not_closed: {
      meaning: 'A tab did not close before the deadline (it may be asking "Leave site?").',
      move: 'Run `chrome-relay tabs` to see what is still open; answer any dialog with `chrome-relay dialog`.',
    },
    not_connected: {
      meaning: 'A browser or extension that was started did not connect before the deadline.',
      move: 'Run `chrome-relay doctor` and read the log it names.',
    },
    host_not_replaced: {
      meaning: 'After `update`, the browser did not swap the old native host for the installed one before the deadline.',
      move: 'Run `chrome-relay doctor`; restarting the browser always starts the installed host.',
    },
    download_path_pending: {
      meaning: 'The download completed, but the browser had not said where it saved the file before the deadline.',
      move: 'Run `chrome-relay wait --download` again with a larger --timeout: the same download is reported.',
    },
  },
  extension_not_connected: {
    no_host: {
      meaning: 'No native host is running: the browser is closed, or the extension is not loaded.',
      move: 'Run `chrome-relay launch`, or `chrome-relay doctor` for your own browser.',
    },
    starting: {
      meaning: 'A native host runs, but the extension has not greeted it yet (the browser or its service worker is starting).',
      move: 'Retry in a moment; if it persists run `chrome-relay doctor`.',
    },
    host_not_installed: {
      meaning: 'The native host is not installed where the browser looks for it (a launcher or host manifest is missing or broken), so the browser cannot start it.',
      move: 'Run the fix doctor names (`chrome-relay install`, or `chrome-relay update` for a broken launcher), then restart the browser.',
    },
    circuit_open: {
      meaning: 'The extension stopped answering (several calls in a row timed out), so calls now fail fast.',
      move: 'Run `chrome-relay doctor`; then `chrome-relay reconnect` re-arms the connection without restarting the browser.',
    },
  },
} as const satisfies { readonly [C in ErrorCode]?: { readonly [reason: string]: ReasonInfo } };

export type ReasonedCode = keyof typeof ERROR_REASONS;
export type ErrorReason<C extends ReasonedCode> = keyof (typeof ERROR_REASONS)[C] & string;

/** Every code whose failures must carry a `details.reason` from its list. */
export const REASONED_CODES = Object.keys(ERROR_REASONS) as ReasonedCode[];

export function isReasonedCode(code: ErrorCode): code is ReasonedCode {
  return Object.prototype.hasOwnProperty.call(ERROR_REASONS, code);
}

/** The reasons of a code, in table order. */
export function reasonsOf<C extends ReasonedCode>(code: C): ErrorReason<C>[] {
  return Object.keys(ERROR_REASONS[code]) as ErrorReason<C>[];
}

export function reasonInfo<C extends ReasonedCode>(code: C, reason: ErrorReason<C>): ReasonInfo {
  return (ERROR_REASONS[code] as Record<string, ReasonInfo>)[reason] as ReasonInfo;
}

/**
 * A RelayError of a reasoned code with its `details.reason` set. The message stays the caller's: it
 * says the move in the words of this situation (the table's move is the generic form).
 */
export function reasonedError<C extends ReasonedCode>(
  code: C,
  reason: ErrorReason<C>,
  message: string,
  options: RelayErrorOptions = {},
): RelayError {
  return new RelayError(code, message, { ...options, details: { ...options.details, reason } });
}
