/**
 * The command table of the fast path: every tool command's options, level by level (program, group,
 * command), read off the commander declarations themselves (program.ts, declareCommand.ts), so the
 * fast parse (commandLine.ts) knows exactly the flags commander knows. The build makes it once
 * (packages/cli/build.mjs) and bakes it into dist/call.cjs; tests make it from the sources.
 *
 * Only what the fast parse copies is allowed here: a value-taking option, a boolean, a negated
 * boolean, a converter from args.ts OPTION_PARSERS. Anything else commander can do (optional or
 * variadic values, environment variables, conflicts, implied values, presets) fails the build, so a
 * new kind of option cannot slip past the fast parse and be read differently from commander.
 */
import type { Command, Option } from 'commander';
import { OPTION_PARSERS, type OptionParserName } from '../args.js';
import { TOOL_COMMANDS } from '../commandSpec.js';
import { buildProgram } from '../program.js';
import { TOOLS } from '@chrome-relay/protocol';

export interface TableOption {
  /** `-i`, when it has a short spelling. */
  readonly short?: string;
  /** `--interactive`. */
  readonly long?: string;
  /** Where commander stores its value: `interactive`, `maxChars`, `elide` for --no-elide. */
  readonly attribute: string;
  /** Takes the next argument (or `=value`) as its value. */
  readonly takesValue: boolean;
  /** `--no-x`: sets false. */
  readonly negate: boolean;
  /** Must be given (commander's requiredOption). */
  readonly mandatory: boolean;
  /** The converter commander runs on its value. */
  readonly parser?: OptionParserName;
  /** Handled by commander alone (-V, --version): the fast path leaves the whole command line to it. */
  readonly commanderOnly?: true;
}

export interface TableLevel {
  /** The command's name at this level; '' for the program. */
  readonly name: string;
  readonly options: readonly TableOption[];
  /** Its option values before parsing (commander's defaults: a --no-x alone starts true). */
  readonly initial: Readonly<Record<string, unknown>>;
}

export interface TableCommand {
  readonly tool: string;
  /** The command's words: `['record', 'stop']`. */
  readonly path: readonly string[];
  /** Each word's command, as declared when this command runs. */
  readonly levels: readonly TableLevel[];
}

export interface CommandTable {
  /** The program's own options: the same whichever command runs. */
  readonly program: TableLevel;
  readonly commands: readonly TableCommand[];
}

function parserName(option: Option): OptionParserName | undefined {
  if (option.parseArg === undefined) return undefined;
  const name = (Object.keys(OPTION_PARSERS) as OptionParserName[]).find((key) => (OPTION_PARSERS[key] as unknown) === option.parseArg);
  if (name === undefined) throw new Error(`${option.flags}: its converter is not in OPTION_PARSERS (args.ts), so the fast path cannot apply it`);
  return name;
}

/** Fields commander sets but its typings leave out. */
interface OptionInternals {
  conflictsWith?: readonly string[];
  implied?: unknown;
}

function tableOption(option: Option, version: boolean): TableOption {
  const internals = option as unknown as OptionInternals;
  const unsupported = [
    option.optional && 'an optional value',
    option.variadic && 'a variadic value',
    option.envVar !== undefined && 'an environment variable',
    (internals.conflictsWith?.length ?? 0) > 0 && 'conflicts',
    internals.implied !== undefined && 'implied values',
    option.presetArg !== undefined && 'a preset',
    !option.negate && option.defaultValue !== undefined && 'a default',
  ].filter((reason): reason is string => typeof reason === 'string');
  if (unsupported.length > 0 && !version) throw new Error(`${option.flags} has ${unsupported.join(', ')}: teach the fast path (fast/commandLine.ts) first`);
  const parser = parserName(option);
  return {
    ...(option.short === undefined ? {} : { short: option.short }),
    ...(option.long === undefined ? {} : { long: option.long }),
    attribute: option.attributeName(),
    takesValue: option.required,
    negate: option.negate,
    mandatory: option.mandatory,
    ...(parser === undefined ? {} : { parser }),
    ...(version ? { commanderOnly: true as const } : {}),
  };
}

function tableLevel(cmd: Command, name: string): TableLevel {
  const versionFlag = cmd.parent === null ? '--version' : undefined;
  return { name, options: cmd.options.map((option) => tableOption(option, option.long === versionFlag)), initial: { ...cmd.opts() } };
}

/** The table of every tool command, from the commander program each one runs in. */
export function commandTable(): CommandTable {
  const program = tableLevel(buildProgram([]), '');
  const commands = TOOL_COMMANDS.map((tool) => {
    const path = TOOLS[tool].cli?.command.split(' ') ?? [];
    const running = buildProgram(['node', 'chrome-relay', ...path]);
    if (JSON.stringify(tableLevel(running, '')) !== JSON.stringify(program)) throw new Error(`${tool}: the program's options differ when it runs`);
    const levels: TableLevel[] = [];
    let at: Command = running;
    for (const word of path) {
      const next = at.commands.find((c) => c.name() === word);
      if (next === undefined) throw new Error(`${tool}: no command ${word} under ${at.name()}`);
      levels.push(tableLevel(next, word));
      at = next;
    }
    return { tool, path, levels };
  });
  return { program, commands };
}
