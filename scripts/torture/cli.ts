/**
 * Running the built CLI as a subprocess (what agents run), with a hard deadline: a process still alive
 * at the deadline is a hang, killed and reported. A small pool runs invocations `workers` at a time.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../../e2e/harness.js';
import { checkExpectation, checkOutcome, type Checked, type Expectation, type Outcome, type Violation } from './contract.js';

export interface Invocation {
  argv: string[];
  stdin?: string;
  /** Deadline for the process; past it the invocation is a hang. */
  limitMs?: number;
  expect?: Expectation;
  /** Names a directed case in reports. */
  label?: string;
}

export interface Ran {
  invocation: Invocation;
  outcome: Outcome;
  checked: Checked;
  violations: Violation[];
}

const DEFAULT_LIMIT_MS = 45_000;

/**
 * Where the commands run. A fuzzed argument can land in a slot that names a file to write (a HAR, a screenshot), and
 * a relative one is written where the command runs: in a scratch folder, not the checkout, and deep enough that the
 * corpus's `../../../etc/passwd` still resolves inside it. Removed when the run ends.
 */
const scratchRoot = mkdtempSync(join(tmpdir(), 'cr-torture-cwd-'));
const CWD = join(scratchRoot, 'a', 'b', 'c', 'd');
mkdirSync(CWD, { recursive: true });
process.on('exit', () => rmSync(scratchRoot, { recursive: true, force: true }));
/** Output kept per stream (a fuzzed command may print a lot; the contract only needs the ends). */
const KEEP_BYTES = 8 * 1024 * 1024;

export function runOnce(argv: readonly string[], env: NodeJS.ProcessEnv, options: { stdin?: string | undefined; limitMs?: number | undefined } = {}): Promise<Outcome> {
  const limitMs = options.limitMs ?? DEFAULT_LIMIT_MS;
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...argv], { cwd: CWD, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < KEEP_BYTES) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < KEEP_BYTES) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limitMs);
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}

export async function runChecked(invocation: Invocation, env: NodeJS.ProcessEnv): Promise<Ran> {
  const outcome = await runOnce(invocation.argv, env, { stdin: invocation.stdin, limitMs: invocation.limitMs });
  const checked = checkOutcome(outcome);
  const violations = [...checked.violations, ...(invocation.expect ? checkExpectation(checked, outcome, invocation.expect) : [])];
  return { invocation, outcome, checked, violations };
}

/** Run every invocation, `workers` at a time; results in the order of `invocations`. */
export async function runPool(invocations: readonly Invocation[], env: NodeJS.ProcessEnv, workers: number, onEach?: (ran: Ran, index: number) => void): Promise<Ran[]> {
  const results: Ran[] = new Array<Ran>(invocations.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const index = next++;
      const invocation = invocations[index];
      if (invocation === undefined) return;
      const ran = await runChecked(invocation, env);
      results[index] = ran;
      onEach?.(ran, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, workers) }, worker));
  return results;
}
