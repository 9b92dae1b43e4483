/**
 * `details.reason`: the closed sub-cases of the codes that cover several situations with different
 * fixes. An agent branches on `code` first and on `details.reason` second, so each reason is as
 * permanent as a code: add, never rename or remove. Each carries its own move (what fits *this*
 * situation); messages at the throw site say the same move in context.
 *
 * Plain data, no zod: the CLI's start-up path may read it.
 */
import { ERROR_TABLE, RelayError, type ErrorCode, type RelayErrorOptions } from './errors.js';

export interface ReasonInfo {
  /** What happened, in one sentence. */
  readonly meaning: string;
  /** What an agent should do next in this situation. Every message of this reason says it (scripts/reasonMoves.test.ts). */
  readonly move: string;
  /** Whether repeating the identical call can succeed without changing anything, when it differs from the code's. */
  readonly retryable?: boolean;
  /**
   * For a move that names no command: words of it every message of this reason carries (one of them at least), so
   * a test can hold each throw site to saying the move. A move that names commands is held to naming them all.
   */
  readonly says?: readonly string[];
}

export const ERROR_REASONS = {
  target_conflict: {
    ref_tab_mismatch: {
      meaning: 'A --tab/--workspace/--group flag names another tab than the one the ref belongs to.',
      move: 'Drop the flag: a ref already carries its tab.',
      says: ['drop'],
    },
    multiple_targets: {
      meaning: 'Two targets were given at once (e.g. --tab and --workspace, or two refs in different tabs).',
      move: 'Give one target.',
      says: ['give one'],
    },
    leased: {
      meaning: 'The tab or workspace is leased by another agent.',
      move: 'Use another tab (`chrome-relay navigate <url>` opens one), or wait until details.expiresAt; if the owner is stuck, ask the person, who frees leases from the extension\'s toolbar popup.',
    },
    dialog_open: {
      meaning: 'A JavaScript dialog (alert, confirm, prompt, beforeunload) is open in the tab and blocks it.',
      move: 'Answer it with `chrome-relay dialog accept` or `chrome-relay dialog dismiss`, then repeat the command.',
    },
    name_taken: {
      meaning: 'A workspace or tab group with that name already exists.',
      move: 'Use the existing one, or pick another name.',
      says: ['another name'],
    },
    ambiguous_name: {
      meaning: 'The name matches several things (tab groups, or connected browser profiles).',
      move: 'Make the name unique, or pass --profile <user-data-dir> to choose the browser.',
      says: ['unique', '--profile'],
    },
    several_launched: {
      meaning: 'Several browsers `chrome-relay launch` started from this home are running, and `stop` named none of them.',
      move: 'Name one with `chrome-relay stop --user-data-dir <profile>` (the profiles are in details.profiles), or stop them all with `chrome-relay stop --all`.',
    },
    agent_mismatch: {
      meaning: 'The call names one agent identity in its parameters and runs as another.',
      move: 'Give one identity (--agent or CHROME_RELAY_AGENT).',
      says: ['one identity'],
    },
    paused_by_user: {
      meaning: 'The person using the browser paused chrome-relay from the extension.',
      move: 'Stop and tell the person; commands work again once they press Resume in the extension.',
      says: ['tell them', 'tell the person'],
    },
    site_blocked: {
      meaning:
        "The tab shows (or the command would open) a site on the person's block list in the extension's options, and chrome-relay never attaches to it; or the command aims inside a frame of the page that shows one (details.frame, details.origin), which chrome-relay never reads or acts in, or a screenshot could not paint such a frame over and so returned no image.",
      move: 'Leave that site alone: work in another tab, or with the rest of the page around a blocked frame; or ask the person to remove the rule (details.rule) in the extension options.',
      says: ['remove the rule'],
    },
    not_agent_tab: {
      meaning:
        'The tab is one of the person\'s own: agents work only in tabs chrome-relay opened (and windows those open), tabs the person shared from the toolbar popup, or tabs in a "chrome-relay" tab group ("agent tabs only", on by default).',
      move: 'Open your own tab with `chrome-relay navigate <url>`, or ask the person to share this one ("Let agents use this tab" in the popup).',
    },
    person_page: {
      meaning: 'The tab shows, or the URL is, a page of a browser extension (chrome-relay\'s own popup and options, or another extension\'s): the person\'s controls, never an agent\'s.',
      move: 'Leave it alone and work in your own tabs; settings and Pause change only when the person changes them.',
      says: ['your own tabs'],
    },
    browser_page: {
      meaning:
        "The URL is, or the tab shows, one of the browser's own pages (chrome:, about: other than about:blank, devtools:, view-source: and the like): the person's settings, passwords, history and extensions, and pages that end or crash the browser. Agents never open or act in them.",
      move: 'Work in web pages (http or https, `chrome-relay navigate <url>`); if you need something from the browser itself, ask the person.',
    },
    local_files: {
      meaning: "The URL is, or the tab shows, a local file (file:): the person's files, which agents open only when the person allows it in the extension's options (off by default).",
      move: "Ask the person to turn on \"Let agents open local files\" in chrome-relay's options, or serve the file over http; never copy it somewhere else to get around this.",
      says: ['ask the person'],
    },
    js_off: {
      meaning: "The person turned agents' JavaScript off in the extension's options, so `js` and `wait --fn` (code in the page's main world) are refused.",
      move: 'Do it with the other commands (`chrome-relay snapshot`, `chrome-relay get`, `chrome-relay wait`), or ask the person to allow JavaScript in the options.',
    },
    recording: {
      meaning: 'The tab is being recorded (`record start`), and this command would change what the recording shows (a --full screenshot resizes the viewport).',
      move: 'Drop the option that needs it (a plain screenshot comes from the recording), or run `chrome-relay record stop` first.',
    },
    remote_agents_off: {
      meaning:
        "The call came through a bridge (an agent on another machine, in a container or in WSL: details.via), and the person turned such agents off in chrome-relay's options.",
      move: 'Stop and tell the person; calls through a bridge work again once they turn "Agents on other machines" back on in the extension\'s options.',
      says: ['tell the person'],
      retryable: false,
    },
    input_overlap: {
      meaning:
        "Other input reached the page while this pointer action was delivered (input chrome-relay did not queue, such as an earlier extension instance's), so chrome-relay cannot tell whether this action reached its element.",
      move: 'Check the page with `chrome-relay snapshot` before repeating the action: it may have happened.',
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
      move: 'Act on it without a pointer: `chrome-relay fill`, `chrome-relay select`, or `chrome-relay focus` then `chrome-relay keys`.',
    },
    scope_missing: {
      meaning: 'The --scope/-s given to a snapshot names nothing on the page.',
      move: 'Snapshot without -s to see the page, then scope to an existing ref or selector.',
      says: ['without --scope', 'without -s'],
    },
    no_editable_focus: {
      meaning: '`type` found nothing editable focused in the tab, so there is nowhere to type; nothing was typed.',
      move: 'Focus the field first: `chrome-relay type -s @e7 "text"`, or click it, then type.',
      // Focus does not come back by itself: the same call finds the same nothing.
      retryable: false,
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
      says: ['retry'],
    },
    busy: {
      meaning:
        "The call waited its turn on the tab past its deadline: another chrome-relay operation there held it (a snapshot of a slow page, or another call's input: input calls on one tab run one at a time). It never started, so it did nothing.",
      move: 'Retry in a moment (nothing was done); with several agents in one tab, give each its own tab.',
      says: ['retry'],
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
    promise_pending: {
      meaning: '`js` ran the expression and it returned a promise that had not settled by the deadline (it may never settle).',
      move: 'Return a value that settles (or one that is not a promise), or give a larger --timeout if it is merely slow; the expression ran, so check the page with `chrome-relay snapshot` before running one that changes it again.',
      retryable: false,
    },
    download_path_pending: {
      meaning: 'The download completed, but the browser had not said where it saved the file before the deadline.',
      move: 'Run `chrome-relay wait --download` again with a larger --timeout: the same download is reported.',
    },
  },
  extension_not_connected: {
    no_host: {
      meaning: 'No native host is running: the browser is closed, or the extension is not loaded.',
      move: "If you drive the person's own browser, ask them to open it (`chrome-relay doctor` says why it is not connected); otherwise run `chrome-relay launch` to start a dedicated one.",
    },
    starting: {
      meaning: 'A native host runs, but the extension has not greeted it yet (the browser or its service worker is starting).',
      move: 'Retry in a moment; if it persists run `chrome-relay doctor`.',
    },
    host_not_installed: {
      meaning: 'The native host is not installed where the browser looks for it (a launcher or host manifest is missing or broken), so the browser cannot start it.',
      move: 'Run the fix doctor names (`chrome-relay install`, or `chrome-relay update` for a broken launcher), then restart the browser.',
      retryable: false,
    },
    circuit_open: {
      meaning: 'The extension stopped answering (several calls in a row timed out), so calls now fail fast.',
      move: 'Run `chrome-relay doctor`; then `chrome-relay reconnect` re-arms the connection without restarting the browser.',
    },
    home_not_private: {
      meaning:
        "chrome-relay's home or its run folder (CHROME_RELAY_HOME, else ~/.chrome-relay) belongs to another user, is a symlink, or others can write it or a folder above it, so what it holds (host descriptors, sockets, the launcher) may be another user's: the CLI neither reads it nor sends anything there.",
      move: 'Run `chrome-relay doctor`: it names the folder, its owner and the fix (a home of your own, not writable by others).',
      retryable: false,
    },
    client_not_authorized: {
      meaning: "The native host refused this client: on Windows a host answers only clients that prove they can read this user's chrome-relay secret, and this one did not (another user, or a secret file changed since the host started).",
      move: 'Run chrome-relay as the user whose browser runs the host; if you are that user, run `chrome-relay doctor`, and restart the browser if the secret file changed.',
      retryable: false,
    },
    no_bridge: {
      meaning: 'Nothing listens on the socket CHROME_RELAY_ENDPOINT (or --endpoint) names: the bridge on the person\'s machine is not running, or the socket is not forwarded or mounted here.',
      move: 'Ask the person to start `chrome-relay bridge --listen <path>` on their machine (and to forward or mount that socket where you run), then retry.',
    },
    link_failed: {
      meaning:
        "The link CHROME_RELAY_ENDPOINT names (ssh://, or cmd:<command>) ended before a bridge answered on it: ssh could not connect or log in, or the command failed, or chrome-relay is not on the far side's PATH. details.linkSaid holds the last lines it wrote.",
      move: 'Fix what details.linkSaid says (try the same `ssh` by hand), or set CHROME_RELAY_ENDPOINT to a working endpoint; retrying as is fails the same way.',
      says: ['linkSaid'],
      retryable: false,
    },
    host_outdated: {
      meaning:
        "The native host (or the extension) running in the person's browser is from a chrome-relay older than the bridge relaying to it (a protocol from before calls from other machines): it cannot take a bridged call, so the bridge sent it nothing. The person updated chrome-relay, and their browser still runs the host it started before.",
      move: "Ask the person to run `chrome-relay update` on their machine (it restarts the running host on the installed version), or to restart their browser or reload chrome-relay's extension (chrome://extensions) so the new host starts; then retry.",
      retryable: false,
    },
    not_paired: {
      meaning:
        "The bridge on the person's machine refused this client: its socket is private to the person's user, or it was started with --paired and this client did not present the pairing secret (CHROME_RELAY_PAIRING).",
      move: 'Ask the person for the pairing secret of their bridge (it runs with --paired; the secret is in chrome-relay\'s home, bridge/pairing) and set CHROME_RELAY_PAIRING to it.',
      says: ['CHROME_RELAY_PAIRING'],
      retryable: false,
    },
  },
  native_host_disconnected: {
    browser_closed: {
      meaning:
        'The browser the native host served has exited (the person closed it, or it crashed), taking the host with it. Nothing starts a new host until that browser runs again.',
      move: "Tell the person their browser closed and ask them to reopen it (nothing restarts it by itself); only for a browser `chrome-relay launch` started (details.launched) run `chrome-relay launch` again. A mutating command may have acted: check the page with `chrome-relay snapshot` once it is back.",
      retryable: false,
    },
    host_exited: {
      meaning: 'The native host process ended mid-call (killed, crashed, stopped, or replaced by `chrome-relay update`) while its browser runs; the extension starts a new host within a second.',
      move: 'Retry in a moment: while the browser runs, the extension starts a new host within a second.',
      says: ['retry'],
    },
    worker_stopped: {
      meaning:
        "The browser closed its side of the native host while it runs: chrome-relay's service worker stopped (Chrome suspended it) or the extension reloaded. It comes back with the browser's next event: within about a second for a browser `chrome-relay launch` started, within 30 s for an installed extension.",
      move: 'Retry in a moment; if it keeps failing run `chrome-relay doctor`.',
    },
    host_busy: {
      meaning: 'The native host holds too many unfinished requests, so it closed this connection before reading the call: nothing was started.',
      move: 'Retry in a moment, with fewer calls at once.',
      says: ['fewer calls'],
    },
    client_closed: {
      meaning: 'The MCP client closed its session (its stdin ended) before the call answered; nobody is left to read the answer.',
      move: 'Nothing to do in this session; in a new one, check the page with `chrome-relay snapshot` before re-issuing a mutating call.',
      retryable: false,
    },
    link_lost: {
      meaning:
        "The link to the person's machine (the ssh connection, the command on its stdio, the socket, or the bridge at its far end) closed while the call was in flight. The next call opens the link again.",
      move: 'Retry in a moment (the next call connects again); a mutating command may have acted, so check the page with `chrome-relay snapshot` before re-issuing it.',
    },
    host_unsafe: {
      meaning:
        "`chrome-relay doctor` found the native host's socket or named pipe open to other users of this machine (wrong file modes, or a pipe that answers clients without this user's secret).",
      move: 'Ask the person to apply the fix `chrome-relay doctor` prints, then restart the browser; do not drive it meanwhile.',
      retryable: false,
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

/** Whether a failure of this reason is retryable: the reason's own answer, else the code's. */
export function reasonRetryable<C extends ReasonedCode>(code: C, reason: ErrorReason<C>): boolean {
  return reasonInfo(code, reason).retryable ?? ERROR_TABLE[code].retryable;
}

/**
 * A RelayError of a reasoned code with its `details.reason` set, retryable as the reason says unless the
 * caller knows better. The message stays the caller's: it says the move in the words of this situation (the
 * table's move is the generic form).
 */
export function reasonedError<C extends ReasonedCode>(
  code: C,
  reason: ErrorReason<C>,
  message: string,
  options: RelayErrorOptions = {},
): RelayError {
  return new RelayError(code, message, { ...options, retryable: options.retryable ?? reasonRetryable(code, reason), details: { ...options.details, reason } });
}
