/**
 * The fast path's parse of a tool command line: what commander would make of it (the same options,
 * values, converters and operands, level by level), without loading commander or declaring any
 * command. It follows commander's own rules (Command.parseOptions, then _parseCommand at each
 * level): a level's known options are taken wherever they appear, the first unknown option and all
 * that follows are handed down to the next level, and an option both levels define belongs to the
 * upper one.
 *
 * It declines (returns undefined) wherever commander would do more than assign values: help,
 * version, `--`, short flags run together (`-ic`), an option it does not know, a missing value or
 * required option, a command that is not a tool command. A declined command line goes to the full
 * CLI, which then does exactly what it always did. So a decline costs time, never behaviour; the
 * test (commandLine.test.ts) holds every accepted command line to commander's reading of it.
 */
import { OPTION_PARSERS } from '../args.js';
import { commandWordsOf } from '../argvScan.js';
import type { CommandTable, TableCommand, TableLevel, TableOption } from './commandTable.js';

export interface FastCommandLine {
  readonly tool: string;
  /** The command's own arguments (commander's `command.args`). */
  readonly positionals: readonly string[];
  /** The command's own option values (commander's `command.opts()`). */
  readonly opts: Readonly<Record<string, unknown>>;
  /** Its options merged with every level above, upper levels winning (commander's `optsWithGlobals()`). */
  readonly withGlobals: Readonly<Record<string, unknown>>;
  readonly path: string;
}

/** A converter threw: commander would have thrown the same, at the same point. */
export class ParseFailure {
  constructor(
    readonly tool: string,
    readonly error: unknown,
  ) {}
}

const DECLINE = undefined;
const HELP_TOKENS: ReadonlySet<string> = new Set(['-h', '--help']);
const maybeOption = (arg: string): boolean => arg.length > 1 && arg.startsWith('-');

/** The tool command whose words argv starts with (the longest, as program.ts toolCommandOf picks). */
export function commandOf(table: CommandTable, argv: readonly string[]): TableCommand | undefined {
  const words = commandWordsOf(argv);
  let best: TableCommand | undefined;
  for (const command of table.commands) {
    if ((best === undefined || command.path.length > best.path.length) && command.path.every((word, i) => words[i] === word)) best = command;
  }
  return best;
}

function findOption(level: TableLevel, flag: string): TableOption | undefined {
  return level.options.find((option) => option.long === flag || option.short === flag);
}

interface LevelParse {
  operands: string[];
  unknown: string[];
  values: Record<string, unknown>;
}

/**
 * Commander's parseOptions for one level; undefined where the fast path declines. A converter's
 * error is kept in `failure` (the first one, as commander throws the first) and parsing goes on, so
 * that a decline found later still wins: the full CLI then reports what commander reports.
 */
function parseLevel(level: TableLevel, args: readonly string[], leaf: boolean, failure: { first?: unknown }): LevelParse | undefined {
  const operands: string[] = [];
  const unknown: string[] = [];
  const values: Record<string, unknown> = { ...level.initial };
  const assigned = new Set<string>();
  let dest = operands;
  const assign = (option: TableOption, value: string | undefined): boolean => {
    if (option.commanderOnly === true) return false;
    const repeatable = option.parser === 'collect';
    if (assigned.has(option.attribute) && !repeatable) return false;
    assigned.add(option.attribute);
    if (value === undefined) {
      values[option.attribute] = !option.negate;
      return true;
    }
    if (option.parser === undefined) {
      values[option.attribute] = value;
      return true;
    }
    try {
      values[option.attribute] = (OPTION_PARSERS[option.parser] as (value: string, previous: unknown) => unknown)(value, values[option.attribute]);
    } catch (error) {
      failure.first ??= error;
    }
    return true;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--' || HELP_TOKENS.has(arg)) return DECLINE;
    if (maybeOption(arg)) {
      const exact = findOption(level, arg);
      if (exact !== undefined) {
        if (!exact.takesValue) {
          if (!assign(exact, undefined)) return DECLINE;
          continue;
        }
        const value = args[i + 1];
        if (value === undefined || HELP_TOKENS.has(value) || value === '--') return DECLINE;
        i++;
        if (!assign(exact, value)) return DECLINE;
        continue;
      }
      // `-ic` or `-d3`: a short flag with more after it.
      if (arg.length > 2 && arg[1] !== '-' && findOption(level, arg.slice(0, 2)) !== undefined) return DECLINE;
      const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
      if (eq > 2) {
        const named = findOption(level, arg.slice(0, eq));
        if (named?.takesValue === true) {
          if (!assign(named, arg.slice(eq + 1))) return DECLINE;
          continue;
        }
      }
      // An option this level does not know: at the command itself an error (or, for a negative
      // number, an argument); above it, handed down with everything after it.
      if (leaf) return DECLINE;
      dest = unknown;
    }
    dest.push(arg);
  }
  if (level.options.some((option) => option.mandatory && !assigned.has(option.attribute))) return DECLINE;
  return { operands, unknown, values };
}

/** argv (with node and the script first) as commander would read it, or undefined to leave it to commander. */
export function parseFast(table: CommandTable, argv: readonly string[]): FastCommandLine | ParseFailure | undefined {
  const command = commandOf(table, argv);
  if (command === undefined) return DECLINE;
  const failure: { first?: unknown } = {};
  const values: Record<string, unknown>[] = [];
  let operands: string[] = [];
  let unknown: readonly string[] = argv.slice(2);
  const levels = [table.program, ...command.levels];
  for (const [depth, level] of levels.entries()) {
    const leaf = depth === levels.length - 1;
    const parsed = parseLevel(level, unknown, leaf, failure);
    if (parsed === undefined) return DECLINE;
    values.push(parsed.values);
    operands = [...operands, ...parsed.operands];
    unknown = parsed.unknown;
    if (leaf) break;
    // Commander dispatches on the first operand: it must be this command's next word.
    const next = levels[depth + 1];
    if (next === undefined || operands[0] !== next.name) return DECLINE;
    operands = operands.slice(1);
  }
  // The command's own word may name a subcommand of it (`network body`): commander would run that one.
  if (unknown.length > 0 || table.commands.some((other) => other.path.length > command.path.length && command.path.every((w, i) => other.path[i] === w) && other.path[command.path.length] === operands[0])) {
    return DECLINE;
  }
  if ('first' in failure) return new ParseFailure(command.tool, failure.first);
  const opts = values.at(-1) ?? {};
  const withGlobals = Object.assign({}, ...values.slice().reverse()) as Record<string, unknown>;
  return { tool: command.tool, positionals: operands, opts, withGlobals, path: command.path.join(' ') };
}
