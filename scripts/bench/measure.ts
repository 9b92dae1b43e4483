/**
 * Measuring one thing with one tool, turned into a report cell: a missing command or option, a failed call, or a
 * page check that does not hold after the runs all become "n/a" with the reason, never a figure.
 */
import { CommandFailed } from './exec.js';
import { na, NONE, time, type Cell } from './report.js';
import { describeAction, type Action, type BenchTool } from './tool.js';
import { sample, stats, timed, type Plan } from './timing.js';

export interface Bench {
  plan: Plan;
  /** Absolute URL of a fixture path on the bench's fixture server. */
  url(path: string): string;
  relay: BenchTool;
  peer: BenchTool | undefined;
  log(line: string): void;
}

/** A page fact read through the tool before and after the runs; returns a problem, or undefined when it holds. */
export interface Check {
  expression: string;
  holds(before: unknown, after: unknown, calls: number): string | undefined;
}

export function reason(err: unknown): string {
  if (err instanceof CommandFailed) return err.message;
  return err instanceof Error ? err.message.split('\n')[0] ?? err.message : String(err);
}

export interface ActionOptions {
  plan?: Plan;
  /** Untimed before every run, to give each run the same work (e.g. uncheck before check). */
  prepare?: Action;
  check?: Check;
  /** Receives the output of every timed run (the last one wins), e.g. for token counts. */
  output?: (stdout: string) => void;
  /** Text every run must print (else the run failed, whatever its exit code). */
  expectOutput?: string;
}

/** Time `action` as one CLI call per run (a function gives each run its own action, e.g. a fresh URL). */
export async function measureAction(bench: Bench, tool: BenchTool, action: Action | (() => Action), options: ActionOptions = {}): Promise<Cell> {
  const plan = options.plan ?? bench.plan;
  const next = typeof action === 'function' ? action : () => action;
  const first = next();
  const why = (await tool.unsupported(first)) ?? (options.prepare ? await tool.unsupported(options.prepare) : undefined);
  if (why) return na(why);
  bench.log(`  ${tool.name}: ${describeAction(first)}`);
  const { prepare, check, output, expectOutput } = options;
  try {
    const before = check ? await tool.evaluate(check.expression) : undefined;
    const figures = await sample(plan, {
      prepare: prepare ? async () => void (await tool.run(prepare)) : undefined,
      run: async () => {
        const result = await tool.run(next());
        if (expectOutput !== undefined && !result.stdout.includes(expectOutput)) {
          const firstLine = result.stdout.split('\n').find((l) => l.trim()) ?? '';
          throw new Error(`printed no "${expectOutput}" (${result.stdout.length} chars: ${firstLine.slice(0, 120)})`);
        }
        output?.(result.stdout);
        return result.ms;
      },
    });
    if (check) {
      const problem = check.holds(before, await tool.evaluate(check.expression), plan.warmups + plan.runs);
      if (problem) return na(`ran, but the page disagrees: ${problem}`);
    }
    return time(figures);
  } catch (err) {
    return na(reason(err));
  }
}

/** A command against `node -e 0` taken in alternation: medians of the per-pair difference and ratio. */
export interface OverFloor {
  overMs: number;
  ratio: number;
}

/**
 * `action` and the floor (`node -e 0`) one right after the other, in alternating order, per run. On a noisy 2-core
 * machine a floor measured minutes apart from the command can be off by tens of ms (seen: node -e 0 at a median of
 * 153 ms [69–529 ms] while commands ran at 117–175 ms); a pair shares the load of its moment. A string: why not.
 */
export async function measureOverFloor(bench: Bench, tool: BenchTool, action: Action, floor: () => Promise<number>, prepare?: Action): Promise<OverFloor | string> {
  const why = await tool.unsupported(action);
  if (why) return why;
  bench.log(`  ${tool.name}: ${describeAction(action)}, paired with node -e 0`);
  const over: number[] = [];
  const ratio: number[] = [];
  try {
    for (let i = 0; i < bench.plan.warmups + bench.plan.runs; i++) {
      if (prepare) await tool.run(prepare);
      const command = async (): Promise<number> => (await tool.run(action)).ms;
      // Alternate which goes first, so neither always runs right after the other's process exits.
      let commandMs: number;
      let floorMs: number;
      if (i % 2 === 0) {
        commandMs = await command();
        floorMs = await floor();
      } else {
        floorMs = await floor();
        commandMs = await command();
      }
      if (i < bench.plan.warmups) continue;
      over.push(commandMs - floorMs);
      ratio.push(commandMs / floorMs);
    }
  } catch (err) {
    return reason(err);
  }
  return { overMs: stats(over).median, ratio: stats(ratio).median };
}

export interface SequenceFigures {
  cell: Cell;
  /** Median time of each step across the timed runs (empty when the sequence failed). */
  stepMedians: number[];
}

/**
 * Time a multi-step sequence (an agent loop) as one sample per run: the wall time of the whole sequence. `steps`
 * returns the time of each of its own steps, kept to show where the time goes.
 */
export async function measureSequence(bench: Bench, tool: BenchTool, label: string, steps: (tool: BenchTool) => Promise<number[]>, check?: Check): Promise<SequenceFigures> {
  bench.log(`  ${tool.name}: ${label}`);
  const perStep: number[][] = [];
  // sample() runs the warm-ups first: their step times are not kept.
  let warm = bench.plan.warmups;
  try {
    const cellStats = await sample(bench.plan, {
      run: async () => {
        let stepTimes: number[] = [];
        const ms = await timed(async () => void (stepTimes = await steps(tool)));
        if (warm > 0) warm--;
        else stepTimes.forEach((t, i) => (perStep[i] ??= []).push(t));
        return ms;
      },
    });
    if (check) {
      const problem = check.holds(undefined, await tool.evaluate(check.expression), bench.plan.warmups + bench.plan.runs);
      if (problem) return { cell: na(`ran, but the page disagrees: ${problem}`), stepMedians: [] };
    }
    return { cell: time(cellStats), stepMedians: perStep.map((xs) => stats(xs).median) };
  } catch (err) {
    return { cell: na(reason(err)), stepMedians: [] };
  }
}

/** Run `perTool` for chrome-relay, then for the peer (when measured): the two columns of one row. */
export async function both(bench: Bench, perTool: (tool: BenchTool) => Promise<Cell>): Promise<{ relay: Cell; peer: Cell }> {
  const relay = await perTool(bench.relay);
  const peer = bench.peer ? await perTool(bench.peer) : NONE;
  return { relay, peer };
}

/** Checks used on the small page. */
export const grewBy = (expression: string): Check => ({
  expression,
  holds: (before, after, calls) =>
    typeof before === 'number' && typeof after === 'number' && after - before === calls ? undefined : `${expression} went from ${String(before)} to ${String(after)} over ${calls} calls`,
});

export const equals = (expression: string, expected: unknown): Check => ({
  expression,
  holds: (_before, after) => (after === expected ? undefined : `${expression} is ${JSON.stringify(after)}, expected ${JSON.stringify(expected)}`),
});
