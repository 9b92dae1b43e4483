/**
 * `pnpm test:torture`: chrome-relay under hostile input, faults and load, through the built CLI, host and
 * extension (e2e/harness.ts), seeded and bounded, printing its figures. Run after the main suite in CI.
 *
 *   pnpm test:torture [--seed N] [--headful] [--quick] [--only phase,phase]
 *
 * Phases (see each module): argv fuzz without a browser (≥ 2,000 invocations) · stdin frames of the host ·
 * directed cases and argv fuzz against a live browser (≥ 500) · socket frames by class · 8 agents × 100
 * commands · a second local user · faults. Every generated input comes from the seed (printed first);
 * tab ids are the browser's. Exit 0 only when no phase broke the contract; every failure is listed with
 * what reproduces it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, startRelay } from '../../e2e/harness.js';
import { agents } from './agents.js';
import { liveArgv, liveDirected, offlineArgv } from './argvFuzz.js';
import { faults, stopBrowser, type Relaunched } from './faults.js';
import { createRng } from '@chrome-relay/protocol/src/testing/prng.js';
import { Report } from './report.js';
import { secondUser } from './secondUser.js';
import { socketFuzz } from './socketFuzz.js';
import { stdinFuzz } from './stdinFuzz.js';
import type { LiveSuite, Suite } from './suite.js';

const PHASES = ['offline', 'stdin', 'directed', 'live', 'socket', 'agents', 'user', 'faults'] as const;
type PhaseName = (typeof PHASES)[number];

interface Options {
  seed: number;
  headless: boolean;
  quick: boolean;
  only: Set<PhaseName>;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { seed: Math.floor(Math.random() * 2 ** 31), headless: true, quick: false, only: new Set(PHASES) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--seed') options.seed = Number(argv[++i]);
    else if (arg?.startsWith('--seed=')) options.seed = Number(arg.slice(7));
    else if (arg === '--headful') options.headless = false;
    else if (arg === '--quick') options.quick = true;
    else if (arg === '--only') options.only = new Set((argv[++i] ?? '').split(',').filter((p): p is PhaseName => (PHASES as readonly string[]).includes(p)));
    else throw new Error(`unknown argument ${arg}; usage: pnpm test:torture [--seed N] [--headful] [--quick] [--only ${PHASES.join(',')}]`);
  }
  if (!Number.isSafeInteger(options.seed)) throw new Error('--seed takes an integer');
  return options;
}

function chromiumVersion(): string {
  try {
    return execFileSync('/usr/lib/chromium/chromium', ['--version'], { encoding: 'utf8', timeout: 20_000 }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * CPU seconds of this process and of the children it waited for (every CLI process, the hand-run hosts), from
 * /proc (utime, stime, cutime, cstime in clock ticks of 1/100 s): with the wall time it tells a slow run on a busy
 * machine from a slow suite. The browser is not counted (launch detaches it).
 */
function cpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
  } catch {
    return null;
  }
}

const options = parseArgs(process.argv.slice(2));
const started = Date.now();
const log = (line: string): void => void process.stderr.write(`[torture ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${line}\n`);
const scratch = mkdtempSync(join(tmpdir(), 'cr-torture-'));
const report = new Report();
const suite: Suite = { rng: createRng(options.seed), report, scratch, workers: 2, log };
const wants = (phase: PhaseName): boolean => options.only.has(phase);
const counts = options.quick ? { offline: 300, live: 100 } : { offline: 2000, live: 500 };
const relaunched: Relaunched = { pid: null };
let stopRelay: (() => Promise<void>) | null = null;

process.once('SIGINT', () => {
  log('interrupted: cleaning up');
  void (stopRelay?.() ?? Promise.resolve()).finally(() => {
    stopBrowser(relaunched.pid);
    rmSync(scratch, { recursive: true, force: true });
    process.exit(130);
  });
});

log(`seed ${options.seed} (rerun: pnpm test:torture --seed ${options.seed})`);
try {
  if (wants('offline')) {
    log(`argv fuzz without a browser: ${counts.offline} invocations`);
    await offlineArgv(suite, counts.offline);
  }
  if (wants('stdin')) {
    log('stdin frames of the host');
    await stdinFuzz(suite);
  }
  const live = ['directed', 'live', 'socket', 'agents', 'user', 'faults'].some((p) => wants(p as PhaseName));
  if (live) {
    log(`starting a browser (${options.headless ? 'headless' : 'headful'})`);
    const relay = await startRelay({ headless: options.headless });
    stopRelay = () => relay.stop();
    const liveSuite: LiveSuite = { ...suite, relay, headless: options.headless };
    if (wants('directed')) {
      log('directed cases');
      await liveDirected(liveSuite);
    }
    if (wants('live')) {
      log(`argv fuzz against the browser: ${counts.live} invocations`);
      await liveArgv(liveSuite, counts.live);
    }
    let idleCheck: (() => Promise<void>) | null = null;
    if (wants('socket')) {
      log('socket frames by class');
      idleCheck = await socketFuzz(liveSuite);
    }
    if (wants('agents')) {
      log('8 agents × 100 commands');
      await agents(liveSuite);
    }
    if (idleCheck) {
      log('waiting for the host to close the 500 idle connections');
      await idleCheck();
    }
    if (wants('user')) {
      log('a second local user');
      await secondUser(liveSuite);
    }
    if (wants('faults')) {
      log('faults');
      await faults(liveSuite, relaunched);
    }
  }
} catch (error) {
  report.fail('suite', 'run', `the suite itself failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await (stopRelay?.() ?? Promise.resolve()).catch(() => undefined);
  stopBrowser(relaunched.pid);
  rmSync(scratch, { recursive: true, force: true });
}

const elapsed = (Date.now() - started) / 1000;
const header = [
  `# chrome-relay torture, seed ${options.seed}${options.quick ? ' (quick)' : ''}`,
  `machine: ${process.platform} ${process.arch}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ${chromiumVersion()} ${options.headless ? 'headless' : 'headful'}`,
  `cli: ${CLI}; ${suite.workers} CLI processes at a time; total ${elapsed.toFixed(0)} s wall, ${cpuSeconds()?.toFixed(0) ?? '?'} s CPU (suite and CLI processes; load average at the end ${loadavg()[0]?.toFixed(1) ?? '?'})`,
];
process.stdout.write(report.render(header));
log(report.passed ? `passed in ${elapsed.toFixed(0)} s` : `FAILED: ${report.failures.length} failure(s) (seed ${options.seed})`);
process.exitCode = report.passed ? 0 : 1;
