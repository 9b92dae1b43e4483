/** Command-line options of `pnpm bench`. Pure: parsed from argv, errors as values. */

export interface BenchOptions {
  /** Also measure agent-browser (installed into a scratch directory) and print the ratio column. */
  peers: boolean;
  runs: number;
  warmups: number;
  /** Few runs, for a quick look (figures are noisier). */
  quick: boolean;
  /** Run the browsers headful under Xvfb instead of --headless=new. */
  headful: boolean;
  /** Only the characters an agent reads per command (no timing). */
  chars: boolean;
  help: boolean;
}

export const USAGE = `usage: pnpm bench [--peers] [--runs N] [--warmups N] [--quick] [--headful] [--chars]
  --peers       also run agent-browser (npm, installed outside the repo) on the same pages and print ratios
  --runs N      timed runs per figure (default 10; --quick: 3)
  --warmups N   untimed runs before them (default 2; --quick: 1)
  --quick       fewer runs, for a quick look
  --headful     browsers with a window under Xvfb (default: --headless=new; also BENCH_HEADFUL=1)
  --chars       only the characters an agent reads per command (E2E_CLI=<build> measures another build)`;

const DEFAULTS = { runs: 10, warmups: 2 };
const QUICK = { runs: 3, warmups: 1 };

function count(flag: string, value: string | undefined, min: number): number | string {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min) return `${flag} needs a whole number ≥ ${min}, got ${value ?? 'nothing'}`;
  return n;
}

export function parseBenchArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): BenchOptions | { error: string } {
  let peers = false;
  let quick = false;
  let help = false;
  let chars = false;
  let headful = env.BENCH_HEADFUL === '1';
  let runs: number | undefined;
  let warmups: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--peers') peers = true;
    else if (flag === '--quick') quick = true;
    else if (flag === '--headful') headful = true;
    else if (flag === '--chars') chars = true;
    else if (flag === '--help' || flag === '-h') help = true;
    else if (flag === '--runs' || flag === '--warmups') {
      const n = count(flag, value(), flag === '--runs' ? 1 : 0);
      if (typeof n === 'string') return { error: n };
      if (flag === '--runs') runs = n;
      else warmups = n;
    } else if (/^\d+$/.test(arg) && runs === undefined) {
      // The old interface: `bench.ts 20` meant 20 runs.
      const n = count('runs', arg, 1);
      if (typeof n === 'string') return { error: n };
      runs = n;
    } else return { error: `unknown argument ${arg}` };
  }
  const base = quick ? QUICK : DEFAULTS;
  return { peers, quick, headful, help, chars, runs: runs ?? base.runs, warmups: warmups ?? base.warmups };
}
