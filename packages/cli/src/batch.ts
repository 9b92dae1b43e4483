/**
 * `batch`: several commands in one call. stdin holds a JSON array of steps, each either
 * `{"command": "click", "args": ["@e12"]}` (any CLI command, run exactly as if typed) or
 * `{"tool": "snapshot", "params": {...}}` (a protocol tool, params validated like everywhere).
 * Steps run in order; the first failure stops the batch unless --no-bail. Every step's result
 * carries its own closed code, so an agent sees exactly which step did what.
 *
 * A command step runs the CLI itself as a child process with the batch's global options in front:
 * the step then behaves byte-for-byte like the command typed alone (notices, files, exit code).
 */
import { isInternalTool, RelayError, isToolName, parseRef, type RelayErrorData } from '@chrome-relay/protocol';
import { withOwnBudget } from './callBudget.js';
import { runTool } from './runTool.js';
import type { GlobalOptions } from './globalOptions.js';

export type BatchStep = { command: string; args?: string[] } | { tool: string; params?: Record<string, unknown> };

const MAX_STEPS = 100;

/**
 * Setup and operator commands: they start browsers, write or remove installs, swap hosts, diagnose. A batch
 * is a sequence of agent actions read from stdin (often generated); none of these belongs in one — `launch`
 * from stdin JSON starts a browser with whatever flags the JSON carries. Run them by themselves.
 */
export const OPERATOR_COMMANDS: readonly string[] = ['launch', 'stop', 'setup', 'install', 'uninstall', 'update', 'reconnect', 'doctor', 'skill', 'extension', 'mcp'];

function stepError(index: number, message: string): RelayError {
  return new RelayError(
    'invalid_arguments',
    `batch: step ${index} ${message}; each step is {"command": "...", "args": [...]} or {"tool": "...", "params": {...}}.`,
    { phase: 'cli', details: { field: `stdin.${index}` } },
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validate one step by hand (the CLI bundle carries no schema library); unknown keys are an error. */
function parseStep(value: unknown, index: number): BatchStep {
  if (!isPlainObject(value)) throw stepError(index, 'must be an object');
  const keys = Object.keys(value);
  if ('command' in value) {
    const extra = keys.filter((k) => k !== 'command' && k !== 'args');
    if (extra.length) throw stepError(index, `has unknown key "${extra[0]}"`);
    if (typeof value.command !== 'string' || !/^[a-z][a-z-]*$/.test(value.command)) throw stepError(index, 'command must be a command name like "click"');
    if (value.command === 'batch') throw stepError(index, 'cannot be another batch');
    if (OPERATOR_COMMANDS.includes(value.command)) throw stepError(index, `names \`${value.command}\`, a setup command: run \`chrome-relay ${value.command}\` by itself, not in a batch`);
    if (value.args !== undefined && !(Array.isArray(value.args) && value.args.every((a) => typeof a === 'string'))) throw stepError(index, 'args must be an array of strings');
    return value.args === undefined ? { command: value.command } : { command: value.command, args: value.args as string[] };
  }
  if ('tool' in value) {
    const extra = keys.filter((k) => k !== 'tool' && k !== 'params');
    if (extra.length) throw stepError(index, `has unknown key "${extra[0]}"`);
    if (typeof value.tool !== 'string' || !isToolName(value.tool)) throw stepError(index, `names unknown tool ${JSON.stringify(value.tool)}`);
    // restart_host would cut every agent's calls in flight: only `update` may send it.
    if (isInternalTool(value.tool)) throw stepError(index, `names ${value.tool}, which only chrome-relay's own commands use`);
    if (value.params !== undefined && !isPlainObject(value.params)) throw stepError(index, 'params must be an object');
    return value.params === undefined ? { tool: value.tool } : { tool: value.tool, params: value.params };
  }
  throw stepError(index, 'needs "command" or "tool"');
}

export function parseBatch(text: string): BatchStep[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RelayError('invalid_arguments', `batch: stdin is not JSON (${(error as Error).message}); give an array like [{"command":"tabs"}].`, { phase: 'cli', details: { field: 'stdin' } });
  }
  if (!Array.isArray(json) || json.length === 0 || json.length > MAX_STEPS) {
    throw new RelayError('invalid_arguments', `batch: stdin must be a JSON array of 1–${MAX_STEPS} steps.`, { phase: 'cli', details: { field: 'stdin' } });
  }
  return json.map(parseStep);
}

/**
 * How a command step is named in the batch's answer: the command, its flags and refs, and `…` for every other word.
 * Those words are what the agent typed into the page or the address bar — a `fill` step's password, a token in a
 * URL — and an answer never echoes a secret (the step's own result masks what it must). The agent wrote the steps and
 * knows them; `index` says which one this is.
 */
export function stepLabel(command: string, args: readonly string[]): string {
  const end = args.indexOf('--');
  const words = args.map((arg, at) => {
    // After `--` every word is a value, however it looks.
    if (end !== -1 && at >= end) return at === end ? arg : '…';
    // A ref as the one grammar reads it, written with the `@` only refs carry: a value that merely looks like one (`@e0`,
    // a bare `e5`) may be what the agent typed, and is not shown.
    if (arg.startsWith('@') && parseRef(arg) !== null) return arg;
    if (/^--?[A-Za-z][\w-]*$/.test(arg)) return arg;
    const flag = /^(--?[A-Za-z][\w-]*)=/.exec(arg);
    return flag?.[1] === undefined ? '…' : `${flag[1]}=…`;
  });
  return [command, ...words].join(' ');
}

export interface StepResult {
  index: number;
  step: string;
  ok: boolean;
  result?: unknown;
  error?: RelayErrorData;
  notices?: unknown[];
}

/** Split one child's stderr into its relayError and relayNotice blocks. */
function parseChildStderr(stderr: string): { error?: RelayErrorData; notices: unknown[] } {
  const out: { error?: RelayErrorData; notices: unknown[] } = { notices: [] };
  for (const line of stderr.split('\n')) {
    if (line.startsWith('{"relayError"')) out.error = (JSON.parse(line) as { relayError: RelayErrorData }).relayError;
    else if (line.startsWith('{"relayNotice"')) out.notices.push((JSON.parse(line) as { relayNotice: unknown }).relayNotice);
  }
  return out;
}

export interface BatchRunner {
  runCommand(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  runTool(tool: string, params: Record<string, unknown>): Promise<unknown>;
}

/**
 * Run the steps. With `text` (the batch prints text), a command step's result is what the command printed and a tool
 * step's is `text` of its result; without it, both are structures (command steps then run with --json).
 */
export async function runBatch(
  steps: readonly BatchStep[],
  bail: boolean,
  runner: BatchRunner,
  text?: (tool: string, result: unknown) => string,
): Promise<{ ok: boolean; results: StepResult[]; stoppedAt: number | null }> {
  const results: StepResult[] = [];
  for (const [index, step] of steps.entries()) {
    let result: StepResult;
    if ('command' in step) {
      const label = stepLabel(step.command, step.args ?? []);
      const child = await runner.runCommand([step.command, ...(step.args ?? [])]);
      const { error, notices } = parseChildStderr(child.stderr);
      result = child.code === 0 ? { index, step: label, ok: true, result: text === undefined ? structureOf(child.stdout) : child.stdout.replace(/\n$/, '') } : {
        index,
        step: label,
        ok: false,
        error: error ?? new RelayError('internal_error', `Step exited with ${child.code} without an error block: ${child.stderr.slice(0, 500)}`, { phase: 'cli' }).toData(),
      };
      if (notices.length) result.notices = notices;
    } else {
      try {
        const value = await runner.runTool(step.tool, step.params ?? {});
        result = { index, step: step.tool, ok: true, result: text === undefined ? value : text(step.tool, value) };
      } catch (error) {
        result = { index, step: step.tool, ok: false, error: RelayError.from(error, step.tool, 'cli').toData() };
      }
    }
    results.push(result);
    if (!result.ok && bail) return { ok: false, results, stoppedAt: index };
  }
  return { ok: results.every((r) => r.ok), results, stoppedAt: null };
}

/** What a command step printed with --json: its structure (a command without one, e.g. `skill`, its text). */
function structureOf(stdout: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    return stdout;
  }
}

/** Runs steps through this very CLI (child processes) and runTool. */
export function processRunner(cliPath: string, globalArgs: readonly string[], globals: GlobalOptions): BatchRunner {
  return {
    runCommand: async (args) => {
      // Loaded on use: child_process costs ~7 ms at start-up, and most CLI runs never spawn anything.
      const { execFile } = await import('node:child_process');
      return new Promise((resolvePromise) => {
        execFile(process.execPath, [cliPath, ...globalArgs, ...args], { maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolvePromise({ code, stdout, stderr });
        });
      });
    },
    runTool: (tool, params) => {
      if (!isToolName(tool)) throw new RelayError('invalid_arguments', `Unknown tool "${tool}".`, { phase: 'cli', details: { field: 'tool' } });
      const call = withOwnBudget(tool, params, globals.timeoutMs);
      return runTool(tool, call.params as never, { ...globals, timeoutMs: call.timeoutMs });
    },
  };
}
