/**
 * Hyperfine-style sampling: untimed warm-ups, then N timed runs; report the median with min and max.
 * The median, not the mean: one run stalled by another process on a 2-core machine must not move the figure.
 */

export interface Stats {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function stats(samples: readonly number[]): Stats {
  if (samples.length === 0) throw new Error('stats of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const at = (i: number): number => sorted[i] ?? Number.NaN;
  const median = sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
  return { median, min: at(0), max: at(sorted.length - 1), n: sorted.length };
}

export interface Plan {
  warmups: number;
  runs: number;
}

export interface Sampled {
  /** Runs one sample and returns its duration in ms (the sample decides what is timed). */
  run(): Promise<number>;
  /** Untimed, before every warm-up and run: hyperfine's --prepare (reset state so each run does the same work). */
  prepare?: () => Promise<void>;
}

export async function sample(plan: Plan, sampled: Sampled): Promise<Stats> {
  for (let i = 0; i < plan.warmups; i++) {
    await sampled.prepare?.();
    await sampled.run();
  }
  const xs: number[] = [];
  for (let i = 0; i < plan.runs; i++) {
    await sampled.prepare?.();
    xs.push(await sampled.run());
  }
  return stats(xs);
}

/** Wall time of an async step, in ms. */
export async function timed(step: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await step();
  return Number(process.hrtime.bigint() - started) / 1e6;
}
