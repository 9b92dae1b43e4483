import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../program.js';
import { commandOf, parseFast, ParseFailure, type FastCommandLine } from './commandLine.js';
import { commandTable, type TableCommand } from './commandTable.js';

const table = commandTable();

type Reading = { kind: 'ok'; path: string; args: readonly string[]; opts: Record<string, unknown>; withGlobals: Record<string, unknown> } | { kind: 'error'; message: string };

/** What commander makes of argv: the command that would run, its arguments and options (nothing is run). */
async function commanderReading(args: readonly string[]): Promise<Reading> {
  const argv = ['node', 'chrome-relay', ...args];
  const program = buildProgram(argv);
  program.configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined });
  let ran: Command | undefined;
  const intercept = (cmd: Command): void => {
    cmd.configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined });
    cmd.action((...actionArgs: unknown[]) => {
      ran = actionArgs.at(-1) as Command;
    });
    for (const sub of cmd.commands) intercept(sub);
  };
  for (const cmd of program.commands) intercept(cmd);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  if (ran === undefined) return { kind: 'error', message: 'nothing ran' };
  const path: string[] = [];
  for (let at: Command | null = ran; at?.parent; at = at.parent) path.unshift(at.name());
  return { kind: 'ok', path: path.join(' '), args: ran.args, opts: { ...ran.opts() }, withGlobals: { ...ran.optsWithGlobals() } };
}

function fastReading(parsed: FastCommandLine | ParseFailure): Reading {
  if (parsed instanceof ParseFailure) return { kind: 'error', message: (parsed.error as Error).message };
  return { kind: 'ok', path: parsed.path, args: parsed.positionals, opts: { ...parsed.opts }, withGlobals: { ...parsed.withGlobals } };
}

/** Compare one command line; returns whether the fast path took it. */
async function agrees(args: readonly string[]): Promise<boolean> {
  const fast = parseFast(table, ['node', 'chrome-relay', ...args]);
  if (fast === undefined) return false;
  const theirs = await commanderReading(args);
  expect({ args, reading: fastReading(fast) }).toEqual({ args, reading: theirs });
  return true;
}

const byTool = (tool: string): TableCommand => {
  const found = table.commands.find((c) => c.tool === tool);
  if (found === undefined) throw new Error(`no ${tool}`);
  return found;
};

describe('the fast parse reads a tool command line as commander does', () => {
  it('covers every tool command, with no option it cannot copy', () => {
    expect(table.commands.length).toBeGreaterThan(40);
    for (const command of table.commands) expect(command.levels.length).toBe(command.path.length);
  });

  it('takes the everyday forms, options before and after the command', async () => {
    const everyday = [
      ['tabs'],
      ['click', '@e12'],
      ['click', '@e12', '--snapshot', '-i'],
      ['--tab', '5', 'click', '@e3'],
      ['click', '@e3', '--tab', '5'],
      ['--json', 'snapshot', '-i', '-d', '3'],
      ['snapshot', '--max-chars=500', '--urls'],
      ['fill', '@e14', 'some value', '--json'],
      ['type', 'hello world', '-s', '@e7'],
      ['--timeout', '5000', '--agent', 'a1', 'hover', '@e3'],
      ['navigate', 'https://example.com', '--snapshot', '-i'],
      ['record', 'stop', '--out', '/tmp/frames'],
      ['network', 'body', '12'],
      ['--workspace', 'w', 'keys', 'Enter'],
      ['select', '@e4', 'a', 'b'],
    ];
    for (const args of everyday) expect(await agrees(args), args.join(' ')).toBe(true);
  });

  it('fails where commander fails, with the same error (a converter refusing a value)', async () => {
    for (const args of [['--tab', 'x', 'click', '@e1'], ['click', '@e1', '--tab', '0'], ['snapshot', '--max-chars', '5'], ['--timeout', '-1', 'tabs']]) {
      const fast = parseFast(table, ['node', 'chrome-relay', ...args]);
      expect(fast, args.join(' ')).toBeInstanceOf(ParseFailure);
      expect(await agrees(args)).toBe(true);
    }
  });

  it('leaves to commander what it would do more with: help, version, --, grouped or unknown flags, missing values', () => {
    const declined = [
      ['click', '@e1', '--help'],
      ['-h', 'tabs'],
      ['--version', 'tabs'],
      ['click', '--', '-x'],
      ['snapshot', '-id', '2'],
      ['click', '@e1', '--bogus'],
      ['snapshot', '-d'],
      ['click', '@e1', '--tab', '3', '--tab', '4'],
      ['help', 'click'],
      ['launch'],
      ['record', 'stop'],
      ['fill', '@e1', '-5'],
      [],
    ];
    for (const args of declined) expect(parseFast(table, ['node', 'chrome-relay', ...args]), args.join(' ')).toBeUndefined();
  });

  it('picks the longest command path, as program.ts does', () => {
    expect(commandOf(table, ['node', 'cr', 'network', 'body', '3'])?.tool).toBe('network_body');
    expect(commandOf(table, ['node', 'cr', '--tab', '4', 'network'])?.tool).toBe('network');
    expect(commandOf(table, ['node', 'cr', 'nothing'])).toBeUndefined();
  });

  it('agrees with commander on thousands of generated command lines', async () => {
    // A fixed seed: a failure names its command line, and the next run repeats it.
    let seed = 20261125;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const values = ['5', 'x', '@e3', '-1', '0', '1e3', 'a b', '', '=', '--tab', '-i'];
    let taken = 0;
    let tried = 0;
    for (let round = 0; round < 2500; round++) {
      const command = table.commands[random(table.commands.length)] ?? byTool('tabs');
      const spellings = [table.program, ...command.levels].flatMap((level) => level.options.flatMap((o) => [o.long, o.short].filter((s): s is string => s !== undefined)));
      const tokens: string[] = [];
      const length = random(6);
      for (let i = 0; i < length; i++) {
        const pick = random(10);
        if (pick < 5 && spellings.length > 0) {
          const spelling = spellings[random(spellings.length)] ?? '--json';
          tokens.push(random(4) === 0 && spelling.startsWith('--') ? `${spelling}=${values[random(values.length)]}` : spelling);
        } else tokens.push(values[random(values.length)] ?? 'x');
      }
      const at = random(tokens.length + 1);
      const args = [...tokens.slice(0, at), ...command.path, ...tokens.slice(at)];
      tried++;
      if (await agrees(args)) taken++;
    }
    // The fast path must take most of these, or agreeing would prove little.
    expect(taken / tried).toBeGreaterThan(0.3);
  }, 120_000);
});
