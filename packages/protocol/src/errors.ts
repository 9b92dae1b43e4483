/**
 * The closed error set. Codes are permanent (agents branch on them); messages may improve.
 * Every failure anywhere in chrome-relay becomes exactly one of these codes. `internal_error`
 * means a bug in chrome-relay: bad input from a user or agent must never reach it.
 */
import * as z from 'zod';
import { escapeLine, toSafeJson } from './escape.js';
import { lazy } from './lazy.js';

export const ERROR_CODES = [
  'stale_ref',
  'click_intercepted',
  'element_not_found',
  'target_conflict',
  'target_not_found',
  'invalid_arguments',
  'timeout',
  'cdp_error',
  'chrome_api_error',
  'extension_not_connected',
  'native_host_disconnected',
  'external_dependency_missing',
  'partial_success_disallowed',
  'unsupported_tool',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
export const ErrorCodeSchema = lazy(() => z.enum(ERROR_CODES));

export interface ErrorCodeInfo {
  /** What happened, in one sentence. */
  readonly meaning: string;
  /** Whether repeating the identical call can succeed without changing anything. */
  readonly retryable: boolean;
  /**
   * What an agent should do next. For a code with reasons (reasons.ts) each reason has its own move; this one
   * must hold for every reason, including one added after an agent was written.
   */
  readonly move: string;
}

export const ERROR_TABLE: { readonly [C in ErrorCode]: ErrorCodeInfo } = {
  stale_ref: {
    meaning: 'The ref no longer identifies a live element chrome-relay can prove is the same one (the page navigated, the element vanished, or a re-find was ambiguous).',
    retryable: false,
    move: 'Run `chrome-relay snapshot` again and use its new refs: a dead ref never comes back (only a `hidden` one works again, once its element shows).',
  },
  click_intercepted: {
    meaning:
      'The click, hover or drag did not reach the target: another element (modal, cookie banner, sticky header, an overlay shown on hover or press, a decoy) covered it or took the pointer; whatever went elsewhere was cancelled. details.when: before_pointer (nothing reached the target), after_pointer (the pointer reached it, then something else took the point), on_press (the target got the press but not the release, and the press visibly did nothing: a press that opened, toggled or selected the control is a success that says so in `acted`), on_drop (a drag: the source took the press and was dragged, but the release or the drop went to another element). details.interceptor names the covering element briefly: { nodeName, backendNodeId, ref, id, role, name } (role and a name of at most 40 characters as a snapshot shows them; never raw page text). details.gaveWay: nothing covered the target, it shrank, moved or hid under the pointer and the input went to the element holding it (a ref click or hover tries such an element again for about 2 s first).',
    retryable: false,
    move: 'Dismiss or close the covering element: details.interceptor.ref is its ref, usable at once (`chrome-relay snapshot -s <ref>` shows it and what is inside it, such as its close button), then retry the same ref. After when=on_press or on_drop, check the page first (the target\'s press handlers ran; a dragged element may have moved). Without details.interceptor, another frame took the input: snapshot and retry once. With details.gaveWay there is nothing to dismiss: screenshot to see the target, then retry once.',
  },
  element_not_found: {
    meaning: 'There is no element to act on: nothing matches the selector or query given, the element has no visible box, or (for `type`) nothing editable has focus; details.reason says which.',
    retryable: true,
    move: 'Look again with `chrome-relay snapshot`: reveal the element or `chrome-relay wait` for it, or focus a field first; `retryable` says whether the same call can work unchanged.',
  },
  target_conflict: {
    meaning:
      "The call cannot go where it aims: its targets or names contradict each other or are taken, another agent holds a lease, a dialog, a recording or other input is in the way, or the person refuses it (paused, a blocked site, their own tab or page); details.reason says which.",
    retryable: false,
    move: "Never work around it. A contradiction in the call (a flag, a name, an agent) is yours to fix; a lease, a dialog or a recording asks you to wait, answer it or work in another tab; the person's decisions (paused, a blocked site, their own tab or page) are theirs: stop and tell them, or work elsewhere.",
  },
  target_not_found: {
    meaning: 'The tab, window, workspace or group named does not exist (it may have been closed).',
    retryable: false,
    move: 'Run `chrome-relay tabs` to list what exists and pick a live target.',
  },
  invalid_arguments: {
    meaning: 'The command was called with arguments that cannot be valid (details.field names the one). For `js`, an expression whose value cannot be returned as JSON is this code too, after it ran (details.mayHaveActed).',
    retryable: false,
    move: 'Fix the argument named in details.field (see `chrome-relay <command> --help`).',
  },
  timeout: {
    meaning: 'The operation did not finish before its deadline (details.reason says which wait ran out).',
    retryable: true,
    move: 'Check the page with `chrome-relay snapshot` before retrying: a mutating command cut off mid-way answers retryable false, as it may already have acted.',
  },
  cdp_error: {
    meaning: 'The Chrome DevTools Protocol rejected a command chrome-relay sent to the page.',
    retryable: true,
    move: 'Retry once; if it persists, the page may be in a state CDP cannot act on (crashed, or still loading).',
  },
  chrome_api_error: {
    meaning: 'A chrome.* extension API call failed (permissions, a closed window, a restricted page). A tab chrome-relay may not automate — chrome:// pages, the Web Store, another extension\'s pages, or a tab another debugger owns — is this code with retryable false.',
    retryable: true,
    move: 'Read details.apiMessage; if retryable, retry once; otherwise pick another target (`chrome-relay navigate <url>` opens a tab chrome-relay can drive).',
  },
  extension_not_connected: {
    meaning: 'No chrome-relay native host is reachable: the browser is not running, or the extension is not loaded, not connected or not answering; details.reason says which.',
    retryable: true,
    move: "Run `chrome-relay doctor` to see why. A person's browser that is closed is theirs to open; `chrome-relay launch` starts a separate, dedicated one.",
  },
  native_host_disconnected: {
    meaning: 'The call lost its native host midway; details.reason says why: the browser closed (nothing restarts it), the host exited (a new one comes within a second), or the extension\'s service worker stopped (it comes back with the browser\'s next event).',
    retryable: true,
    move: "If the browser closed, it is the person's to reopen; otherwise retry in a moment. A mutating command answers retryable false with details.mayHaveActed: check the page with `chrome-relay snapshot` before re-issuing it.",
  },
  external_dependency_missing: {
    meaning: 'A program chrome-relay needs for this command is not installed.',
    retryable: false,
    move: 'Install the program named in details.dependency, or use the documented flag that skips it.',
  },
  partial_success_disallowed: {
    meaning: 'Only some of the requested targets could be acted on, so nothing was reported as done.',
    retryable: false,
    move: 'Inspect details.applied / details.failed and fix what failed. Only `group create`, `group add` and `group close` take --allow-partial (apply what can be applied).',
  },
  unsupported_tool: {
    meaning: 'The extension does not know this tool (it is older than the CLI, or the tool does not exist).',
    retryable: false,
    move: 'Update the extension (`chrome-relay doctor` shows versions), or check the command name.',
  },
  internal_error: {
    meaning: 'A bug in chrome-relay.',
    retryable: false,
    move: 'Report it with the full stderr block; retrying is unlikely to help.',
  },
};

/** Non-fatal notices, printed on stderr alongside a successful result. */
export const NOTICE_CODES = ['deprecated', 'target_overridden', 'cli_outdated', 'extension_outdated', 'browser_started'] as const;
export type NoticeCode = (typeof NOTICE_CODES)[number];
export const NoticeSchema = lazy(() =>
  z.strictObject({
    notice: z.enum(NOTICE_CODES),
    message: z.string(),
  }),
);
export type Notice = z.infer<ReturnType<typeof NoticeSchema>>;

/**
 * Where in the pipeline a failure happened: the closed list, in pipeline order. Permanent like the codes. One
 * word each, and `resolve` covers every target a call resolves (its tab, its ref's element, its frame).
 */
export const PHASES = ['cli', 'connect', 'transport', 'host', 'validate', 'dispatch', 'resolve', 'act', 'verify', 'wait'] as const;
export type Phase = (typeof PHASES)[number];

export interface PhaseInfo {
  /** Where the call was. */
  readonly meaning: string;
  /** A failure here ends the call before anything of the tool touched a page or the browser. */
  readonly beforeActing: boolean;
}

export const PHASE_TABLE: { readonly [P in Phase]: PhaseInfo } = {
  cli: { meaning: 'In the CLI, before any call: parsing the command line, checking local paths and files.', beforeActing: true },
  connect: { meaning: 'Finding the browser\'s native host and connecting to it; nothing was sent.', beforeActing: true },
  transport: { meaning: 'Between the CLI and the native host: the request or its answer on the socket.', beforeActing: false },
  host: { meaning: 'In the native host, relaying the call to the extension and its answer back.', beforeActing: false },
  validate: { meaning: 'Checking the call\'s params against the tool\'s schema.', beforeActing: true },
  dispatch: { meaning: 'In the extension, before the tool runs: the person\'s limits, leases, the tab\'s turn, an open dialog.', beforeActing: true },
  resolve: { meaning: 'Finding what the call names: its tab, the element of its ref, the frame, the selector.', beforeActing: true },
  act: { meaning: 'Doing it: input, navigation, evaluation, a page or browser change.', beforeActing: false },
  verify: { meaning: 'Checking what the action did (where a click landed, the state after it).', beforeActing: false },
  wait: { meaning: 'Waiting for a condition or an event (`wait`, a navigation to settle, a download).', beforeActing: false },
};

export const RelayErrorDataSchema = lazy(() =>
  z.strictObject({
    code: ErrorCodeSchema(),
    message: z.string(),
    tool: z.string(),
    phase: z.enum(PHASES),
    details: z.record(z.string(), z.unknown()),
    retryable: z.boolean(),
  }),
);
export type RelayErrorData = z.infer<ReturnType<typeof RelayErrorDataSchema>>;

export interface RelayErrorOptions {
  tool?: string;
  phase?: Phase;
  details?: Record<string, unknown>;
  retryable?: boolean;
}

/** The one error class. Thrown inside a process, sent as `RelayErrorData` between processes. */
export class RelayError extends Error {
  readonly code: ErrorCode;
  tool: string;
  phase: Phase;
  readonly details: Record<string, unknown>;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: RelayErrorOptions = {}) {
    super(message);
    this.name = 'RelayError';
    this.code = code;
    this.tool = options.tool ?? '';
    this.phase = options.phase ?? 'dispatch';
    this.details = options.details ?? {};
    this.retryable = options.retryable ?? ERROR_TABLE[code].retryable;
  }

  toData(): RelayErrorData {
    return {
      code: this.code,
      message: this.message,
      tool: this.tool,
      phase: this.phase,
      details: this.details,
      retryable: this.retryable,
    };
  }

  static fromData(data: RelayErrorData): RelayError {
    return new RelayError(data.code, data.message, {
      tool: data.tool,
      phase: data.phase,
      details: data.details,
      retryable: data.retryable,
    });
  }

  /**
   * Anything that is not already a RelayError is a bug by definition: wrap it as
   * internal_error, keeping the original text so the report is useful.
   */
  static from(error: unknown, tool = '', phase: Phase = 'dispatch'): RelayError {
    if (error instanceof RelayError) {
      if (!error.tool) error.tool = tool;
      return error;
    }
    const text = error instanceof Error ? error.message : String(error);
    return new RelayError('internal_error', `Unexpected failure: ${text}`, {
      tool,
      phase,
      details: { original: text },
    });
  }
}

/** Parse untrusted error data from the wire; anything malformed becomes internal_error. */
export function parseRelayErrorData(value: unknown, tool = ''): RelayErrorData {
  const parsed = RelayErrorDataSchema().safeParse(value);
  if (parsed.success) return parsed.data;
  return new RelayError('internal_error', 'Received a malformed error from another chrome-relay process.', {
    tool,
    phase: 'transport',
    details: { original: JSON.stringify(value)?.slice(0, 2000) ?? String(value) },
  }).toData();
}

/**
 * The exact stderr text for a failure: one human line, then the machine block. Messages can quote the page
 * (a covering element's name, a dialog's text) or hold commander's line breaks: the human line folds line
 * breaks into spaces and escapes every other control; the block escapes what JSON.stringify leaves raw
 * (escape.ts), so it too stays one line and keeps the message exactly.
 */
export function formatErrorForStderr(data: RelayErrorData): string {
  return `chrome-relay: ${data.code}: ${escapeLine(oneLine(data.message))}\n${toSafeJson({ relayError: data })}\n`;
}

/** Line breaks (every kind a line splitter honours) folded into single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n\v\f\x1c-\x1e\u0085\u2028\u2029]+\s*/g, ' ').trim();
}
