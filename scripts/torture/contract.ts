/**
 * What every CLI invocation owes its caller, checked on each one the suite makes:
 * - it ends (no hang) with exit 0 or 1 — never a signal, never another code;
 * - no stack trace anywhere on stdout or stderr;
 * - exit 1: stderr is exactly one human line `chrome-relay: <code>: …` and the `{"relayError":…}` block
 *   (relayNotice lines aside), the block valid against the closed set (code, phase, a details.reason from
 *   its list for reasoned codes), never internal_error;
 * - exit 0: something printed on stdout (an exit 0 that says nothing is a silent success).
 */
import { ERROR_REASONS, isReasonedCode, RelayErrorDataSchema, type RelayErrorData } from '../../packages/protocol/src/index.js';

export interface Outcome {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

export type ViolationKind =
  | 'hang'
  | 'exit_code'
  | 'stack_trace'
  | 'internal_error'
  | 'error_block'
  | 'human_line'
  | 'silent_success'
  | 'expectation';

export interface Violation {
  kind: ViolationKind;
  detail: string;
}

export interface Checked {
  error: RelayErrorData | undefined;
  violations: Violation[];
}

/** A V8 stack frame line, or Node's internal module paths. */
const STACK = /^\s+at (?:async )?\S.*(?:\(.*:\d+:\d+\)|:\d+:\d+)$|node:internal\//m;
const HUMAN = /^chrome-relay: ([a-z_]+): \S/;

export function checkOutcome(outcome: Outcome): Checked {
  const violations: Violation[] = [];
  let error: RelayErrorData | undefined;
  if (outcome.timedOut) violations.push({ kind: 'hang', detail: `no exit after ${outcome.ms} ms` });
  else if (outcome.code !== 0 && outcome.code !== 1) violations.push({ kind: 'exit_code', detail: `exit ${outcome.code ?? `signal ${outcome.signal}`}` });
  for (const [name, text] of [['stdout', outcome.stdout], ['stderr', outcome.stderr]] as const) {
    const stack = STACK.exec(text);
    if (stack) violations.push({ kind: 'stack_trace', detail: `${name}: ${stack[0].trim().slice(0, 160)}` });
  }
  if (outcome.code === 1) {
    const lines = outcome.stderr.split('\n').filter((line) => line !== '');
    const blocks = lines.filter((line) => line.startsWith('{"relayError"'));
    const human = lines.filter((line) => !line.startsWith('{"relayError"') && !line.startsWith('{"relayNotice"'));
    if (blocks.length !== 1 || lines.at(-1) !== blocks[0]) {
      violations.push({ kind: 'error_block', detail: `${blocks.length} relayError blocks; stderr ends with ${JSON.stringify(lines.at(-1)?.slice(0, 120))}` });
    }
    if (human.length !== 1 || !HUMAN.test(human[0] ?? '')) {
      violations.push({ kind: 'human_line', detail: `${human.length} human lines: ${JSON.stringify(human.slice(0, 3).map((l) => l.slice(0, 120)))}` });
    }
    const block = blocks[0];
    if (block !== undefined) {
      error = parseBlock(block, violations);
      const humanCode = HUMAN.exec(human[0] ?? '')?.[1];
      if (error && humanCode !== undefined && humanCode !== error.code) {
        violations.push({ kind: 'human_line', detail: `human line says ${humanCode}, block says ${error.code}` });
      }
    }
  }
  if (outcome.code === 0 && outcome.stdout.trim() === '') violations.push({ kind: 'silent_success', detail: 'exit 0 with nothing on stdout' });
  return { error, violations };
}

function parseBlock(line: string, violations: Violation[]): RelayErrorData | undefined {
  let parsed: unknown;
  try {
    parsed = (JSON.parse(line) as { relayError: unknown }).relayError;
  } catch {
    violations.push({ kind: 'error_block', detail: `not JSON: ${line.slice(0, 120)}` });
    return undefined;
  }
  const data = RelayErrorDataSchema().safeParse(parsed);
  if (!data.success) {
    violations.push({ kind: 'error_block', detail: `not a relayError: ${data.error.issues[0]?.message ?? ''} in ${line.slice(0, 200)}` });
    return undefined;
  }
  const error = data.data;
  if (error.code === 'internal_error') violations.push({ kind: 'internal_error', detail: error.message.slice(0, 300) });
  if (isReasonedCode(error.code)) {
    const reason = error.details.reason;
    if (typeof reason !== 'string' || !Object.prototype.hasOwnProperty.call(ERROR_REASONS[error.code], reason)) {
      violations.push({ kind: 'error_block', detail: `${error.code} with details.reason ${JSON.stringify(reason)} outside its list` });
    }
  }
  return error;
}

/** What a directed case expects beyond the contract (the code, a detail, an exit). */
export interface Expectation {
  exit?: 0 | 1;
  code?: string | readonly string[];
  details?: Record<string, unknown>;
  retryable?: boolean;
  /** A regular expression the human message must match. */
  message?: RegExp;
}

export function checkExpectation(checked: Checked, outcome: Outcome, expect: Expectation): Violation[] {
  const problems: string[] = [];
  if (expect.exit !== undefined && outcome.code !== expect.exit) problems.push(`exit ${outcome.code}, expected ${expect.exit}`);
  const error = checked.error;
  if (expect.code !== undefined) {
    const codes = typeof expect.code === 'string' ? [expect.code] : expect.code;
    if (!error || !codes.includes(error.code)) problems.push(`code ${error?.code ?? '(none)'}, expected ${codes.join('|')}`);
  }
  if (expect.details && error) {
    for (const [key, value] of Object.entries(expect.details)) {
      if (JSON.stringify(error.details[key]) !== JSON.stringify(value)) problems.push(`details.${key} ${JSON.stringify(error.details[key])}, expected ${JSON.stringify(value)}`);
    }
  }
  if (expect.retryable !== undefined && error && error.retryable !== expect.retryable) problems.push(`retryable ${error.retryable}, expected ${expect.retryable}`);
  if (expect.message && error && !expect.message.test(error.message)) problems.push(`message ${JSON.stringify(error.message.slice(0, 200))} does not match ${expect.message}`);
  return problems.map((detail) => ({ kind: 'expectation' as const, detail }));
}
