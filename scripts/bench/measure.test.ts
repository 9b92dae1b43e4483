import { describe, expect, it } from 'vitest';
import { CommandFailed, type Exec } from './exec.js';
import { equals, grewBy, measureAction, measureSequence, type Bench } from './measure.js';
import type { Action, BenchTool } from './tool.js';

/** A tool that answers from a script: every call returns the next duration; the page is a plain object. */
class FakeTool implements BenchTool {
  readonly name = 'fake';
  readonly calls: string[] = [];
  page: Record<string, unknown> = { clicks: 0 };
  constructor(
    private readonly durations: number[],
    private readonly options: { missing?: string; stdout?: string; failAt?: number } = {},
  ) {}
  async unsupported(action: Action): Promise<string | undefined> {
    return action.kind === this.options.missing ? `no ${action.kind} here` : undefined;
  }
  async run(action: Action): Promise<Exec> {
    this.calls.push(action.kind);
    const ms = this.durations.shift() ?? 1;
    const result = { ms, code: 0, stdout: this.options.stdout ?? 'ok', stderr: '' };
    if (this.calls.length === this.options.failAt) throw new CommandFailed(['fake', action.kind], { ...result, code: 1, stderr: 'boom: it broke\nmore' });
    if (action.kind === 'click') this.page.clicks = Number(this.page.clicks) + 1;
    return result;
  }
  async evaluate(expression: string): Promise<unknown> {
    return this.page[expression];
  }
  async stop(): Promise<void> {}
}

const benchWith = (tool: BenchTool): Bench => ({ plan: { warmups: 1, runs: 3 }, url: (p) => `http://x${p}`, relay: tool, peer: undefined, log: () => undefined });

describe('measureAction', () => {
  it('times the runs after the warm-ups and checks the page afterwards', async () => {
    const tool = new FakeTool([500, 10, 30, 20]);
    const cell = await measureAction(benchWith(tool), tool, { kind: 'click', ref: 'e1' }, { check: grewBy('clicks') });
    expect(cell).toEqual({ kind: 'time', stats: { median: 20, min: 10, max: 30, n: 3 } });
    expect(tool.calls).toEqual(['click', 'click', 'click', 'click']);
  });

  it('runs the prepare action before every run, untimed', async () => {
    const tool = new FakeTool([1, 100, 1, 100, 1, 100, 1, 100]);
    const cell = await measureAction(benchWith(tool), tool, { kind: 'check', ref: 'e1' }, { prepare: { kind: 'uncheck', ref: 'e1' } });
    expect(tool.calls).toEqual(['uncheck', 'check', 'uncheck', 'check', 'uncheck', 'check', 'uncheck', 'check']);
    expect(cell).toMatchObject({ kind: 'time', stats: { median: 100 } });
  });

  it('is n/a with the reason when the tool lacks the command, without running anything', async () => {
    const tool = new FakeTool([], { missing: 'hover' });
    expect(await measureAction(benchWith(tool), tool, { kind: 'hover', ref: 'e1' })).toEqual({ kind: 'na', reason: 'no hover here' });
    expect(tool.calls).toEqual([]);
  });

  it('is n/a with the first stderr line when a call fails', async () => {
    const tool = new FakeTool([], { failAt: 2 });
    expect(await measureAction(benchWith(tool), tool, { kind: 'tabs' })).toEqual({ kind: 'na', reason: '`fake tabs` exited 1: boom: it broke' });
  });

  it('is n/a when the page disagrees: exit 0 is not enough', async () => {
    const tool = new FakeTool([]);
    const cell = await measureAction(benchWith(tool), tool, { kind: 'fill', ref: 'e1', value: 'x' }, { check: equals('value', 'x') });
    expect(cell).toEqual({ kind: 'na', reason: 'ran, but the page disagrees: value is undefined, expected "x"' });
  });

  it('is n/a when a snapshot does not show the page', async () => {
    const tool = new FakeTool([], { stdout: '(empty page)' });
    const cell = await measureAction(benchWith(tool), tool, { kind: 'snapshot', interactive: true }, { expectOutput: 'Details 1' });
    expect(cell).toEqual({ kind: 'na', reason: 'printed no "Details 1" (12 chars: (empty page))' });
  });

  it('gives each run its own action when given a function', async () => {
    const tool = new FakeTool([]);
    const urls: string[] = [];
    let n = 0;
    await measureAction(benchWith(tool), tool, () => {
      const url = `u${++n}`;
      urls.push(url);
      return { kind: 'open', url };
    });
    // One to ask the tool whether it can, then one per warm-up and run.
    expect(urls).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
  });
});

describe('measureSequence', () => {
  it('keeps the per-step times of the timed runs only', async () => {
    const tool = new FakeTool([]);
    let run = 0;
    const figures = await measureSequence(benchWith(tool), tool, 'loop', async () => {
      run++;
      return run === 1 ? [999, 999] : [run, 10 * run];
    });
    expect(figures.cell.kind).toBe('time');
    expect(figures.stepMedians).toEqual([3, 30]);
  });

  it('is n/a when a step fails', async () => {
    const tool = new FakeTool([]);
    const figures = await measureSequence(benchWith(tool), tool, 'loop', async () => {
      throw new Error('no ref for button "Open"');
    });
    expect(figures).toEqual({ cell: { kind: 'na', reason: 'no ref for button "Open"' }, stepMedians: [] });
  });
});
