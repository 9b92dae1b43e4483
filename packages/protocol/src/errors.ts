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
  /** What an agent should do next. */
  readonly move: string;
}

export const ERROR_TABLE: { readonly [C in ErrorCode]: ErrorCodeInfo } = {
  stale_ref: {
    meaning: 'The ref no longer identifies a live element chrome-relay can prove is the same one (the page navigated, the element vanished, or a re-find was ambiguous).',
    retryable: false,
    move: 'Run `chrome-relay snapshot` again and use the new refs. Never retry the same ref.',
  },
  click_intercepted: {
    meaning:
      'The click, hover or drag did not reach the target: another element (modal, cookie banner, sticky header, an overlay shown on hover or press, a decoy) covered it or took the pointer; whatever went elsewhere was cancelled. details.when: before_pointer (nothing reached the target), after_pointer (the pointer reached it, then something else took the point), on_press (the target got the press but not the release), on_drop (a drag: the source took the press and was dragged, but the release or the drop went to another element).',
    retryable: false,
    move: 'Dismiss or close the interceptor named in details.interceptor (snapshot to find its ref), then retry the same ref; after when=on_press or on_drop, check the page first (the target\'s press handlers ran; a dragged element may have moved).',
  },
  element_not_found: {
    meaning: 'No element matches the selector or query that was given.',
    retryable: true,
    move: 'Check the selector against a fresh `chrome-relay snapshot`, or wait for the element with `chrome-relay wait`.',
  },
  target_conflict: {
    meaning: 'The targets given contradict each other (e.g. a ref from one tab with --tab naming another), the target is leased by another agent, or the person refuses it (paused, a blocked site, not an agent tab); details.reason says which.',
    retryable: false,
    move: 'Drop the contradicting flag: a ref already carries its tab. See details for both targets.',
  },
  target_not_found: {
    meaning: 'The tab, window, workspace or group named does not exist (it may have been closed).',
    retryable: false,
    move: 'Run `chrome-relay tabs` to list what exists and pick a live target.',
  },
  invalid_arguments: {
    meaning: 'The command was called with arguments that cannot be valid.',
    retryable: false,
    move: 'Fix the argument named in details.field (see `chrome-relay <command> --help`).',
  },
  timeout: {
    meaning: 'The operation did not finish before its deadline (details.reason says which wait ran out).',
    retryable: true,
    move: 'Follow the move of details.reason. A mutating command cut off mid-way answers retryable false: it may already have acted, so snapshot and check the page before re-issuing it.',
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
    meaning: 'No chrome-relay native host is reachable: the browser is not running, or the extension is not loaded or not connected.',
    retryable: true,
    move: 'Run `chrome-relay launch` to start a dedicated browser, or `chrome-relay doctor` to diagnose your own.',
  },
  native_host_disconnected: {
    meaning: 'The call lost its native host midway: the host was stopped or crashed, or the browser closed its side (extension reloaded, browser closing). The browser starts a new host when it can.',
    retryable: true,
    move: 'Retry a read-only command in a moment; if it keeps failing run `chrome-relay doctor`. A mutating command answers retryable false: it may already have acted, so snapshot and check the page before re-issuing it.',
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
export const NOTICE_CODES = ['deprecated', 'target_overridden', 'cli_outdated', 'extension_outdated'] as const;
export type NoticeCode = (typeof NOTICE_CODES)[number];
export const NoticeSchema = lazy(() =>
  z.strictObject({
    notice: z.enum(NOTICE_CODES),
    message: z.string(),
  }),
);
export type Notice = z.infer<ReturnType<typeof NoticeSchema>>;

/** Where in the pipeline a failure happened. */
export const PHASES = ['cli', 'connect', 'transport', 'host', 'validate', 'dispatch', 'resolve', 'act', 'verify', 'wait'] as const;
export type Phase = (typeof PHASES)[number];

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
