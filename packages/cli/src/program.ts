/**
 * The command tree: one command per tool entry of the registry (declareCommand.ts), plus the few
 * hand-written commands that are more than a tool call (commands/*.ts).
 *
 * Start-up stays lazy (agents run the CLI once per action): only the command that runs is declared in
 * full — its schema read for its flags — and only if argv names no tool command are the hand-written
 * ones registered. `--help`, no command or an unknown one declares every tool command by name and
 * summary only (so help and "unknown command" list them all).
 */
import { Command } from 'commander';
import { isToolName, TOOLS, VERSION, type CliTask, type ToolName } from '@chrome-relay/protocol';
import { OPTION_PARSERS } from './args.js';
import { commandWordsOf } from './argvScan.js';
import { PROGRAM_OPTIONS } from './programOptions.js';
import { TOOL_COMMANDS } from './commandSpec.js';
import { declareCommand } from './declareCommand.js';
import { registerAliases } from './aliases.js';
import { registerBatchCommand } from './commands/batch.js';
import { registerBridgeCommands } from './commands/bridge.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerSetupCommands } from './commands/setup.js';

/**
 * `--help` in groups, in the order a newcomer needs them: start a browser first. Tool commands fall in by their
 * entry's task; hand-written ones are named here. Within a group, the order of this table, then the registry's.
 */
const HELP_GROUPS: readonly { readonly heading: string; readonly tasks: readonly CliTask[]; readonly commands: readonly string[] }[] = [
  { heading: 'Start here:', tasks: ['setup'], commands: ['launch', 'stop', 'status', 'mcp', 'skill'] },
  { heading: 'Read the page:', tasks: ['read'], commands: [] },
  { heading: 'Act on it:', tasks: ['act', 'keyboard'], commands: ['batch'] },
  { heading: 'Navigate and wait:', tasks: ['navigate', 'page'], commands: [] },
  { heading: 'Console, network, recording:', tasks: ['observe'], commands: [] },
  { heading: 'Workspaces, tab groups, leases:', tasks: ['organize', 'leases'], commands: [] },
  { heading: "Your own Chrome, and upkeep:", tasks: [], commands: ['setup', 'install', 'uninstall', 'update', 'reconnect', 'doctor', 'extension'] },
];

/** The group of a top-level command (a group command such as `record` by its first tool's task), and its rank in it. */
function helpPlace(name: string): { group: number; rank: number } {
  const named = HELP_GROUPS.findIndex((group) => group.commands.includes(name));
  // A named command leads a group of its own (launch first), and follows the tool commands of a shared one (batch).
  if (named >= 0) return { group: named, rank: (HELP_GROUPS[named]?.tasks.length === 0 || named === 0 ? 0 : 1000) + (HELP_GROUPS[named]?.commands.indexOf(name) ?? 0) };
  const tool = TOOL_COMMANDS.find((t) => TOOLS[t].cli?.command.split(' ')[0] === name);
  const task = tool === undefined ? undefined : TOOLS[tool].cli?.task;
  const group = HELP_GROUPS.findIndex((g) => task !== undefined && g.tasks.includes(task));
  return { group: group >= 0 ? group : HELP_GROUPS.length, rank: 100 + (tool === undefined ? 0 : TOOL_COMMANDS.indexOf(tool)) };
}

/** Order the program's commands by help group and give each its heading (commander lists groups as first met). */
function groupForHelp(program: Command): void {
  const placed = program.commands.map((cmd) => ({ cmd, place: helpPlace(cmd.name()) }));
  placed.sort((a, b) => a.place.group - b.place.group || a.place.rank - b.place.rank);
  (program.commands as Command[]).splice(0, program.commands.length, ...placed.map((p) => p.cmd));
  for (const { cmd, place } of placed) {
    const heading = HELP_GROUPS[place.group]?.heading;
    if (heading !== undefined) cmd.helpGroup(heading);
    // The listing shows a command's first clause; its own --help the whole summary.
    cmd.summary(firstClause(cmd.description()));
  }
}

function firstClause(text: string): string {
  const cut = /^(.{20,}?)(?:[;:.]\s| \(|, and | — )/.exec(text);
  return (cut?.[1] ?? text).replace(/[.;:,]$/, '');
}

/** The hand-written commands, by module: what each registers (program.test.ts keeps this in sync). */
export const HAND_WRITTEN: readonly { readonly names: readonly string[]; readonly register: (program: Command) => void }[] = [
  { names: ['launch', 'stop', 'setup', 'install', 'uninstall', 'update', 'reconnect', 'doctor', 'skill', 'extension'], register: registerSetupCommands },
  { names: ['batch'], register: registerBatchCommand },
  { names: ['mcp'], register: registerMcpCommand },
  { names: ['bridge', 'link'], register: registerBridgeCommands },
  { names: ['read', 'ax', 'click-ax'], register: registerAliases },
];

/** The command name in argv (after any program-level options), if any. */
export function commandNameOf(argv: readonly string[]): string | undefined {
  return commandWordsOf(argv)[0];
}

/** The tool command argv runs: the longest command path its words start with. */
export function toolCommandOf(argv: readonly string[]): ToolName | undefined {
  let words = commandWordsOf(argv);
  if (words[0] === 'help') words = words.slice(1);
  let best: ToolName | undefined;
  let bestLength = 0;
  for (const tool of TOOL_COMMANDS) {
    const path = TOOLS[tool].cli?.command.split(' ') ?? [];
    if (path.length > bestLength && path.every((word, i) => words[i] === word)) {
      best = tool;
      bestLength = path.length;
    }
  }
  return best;
}

/**
 * The tool an error block names: the command, found after any program-level options; for a group
 * command the protocol tool it runs (`record stop` → record_stop), as the call's own errors name it.
 */
export function toolOf(argv: readonly string[]): string {
  const name = commandNameOf(argv);
  if (name === undefined) return '';
  const tool = toolCommandOf(argv);
  if (tool !== undefined && TOOLS[tool].cli?.command.split(' ')[0] === name) return tool;
  const sub = commandWordsOf(argv)[1];
  return sub !== undefined && isToolName(`${name}_${sub}`) ? `${name}_${sub}` : name;
}

export function buildProgram(argv: readonly string[] = [], options: { validateOnly?: boolean } = {}): Command {
  const context = { argv, validateOnly: options.validateOnly === true };
  const program = new Command('chrome-relay')
    .description('Drive your real, logged-in Chrome from the shell: snapshot → refs → click.')
    .version(VERSION, '-V, --version')
    .showHelpAfterError(false)
    // Commander's own "error: …" line would precede our one-line contract; main.ts prints the error instead.
    // The only other thing commander writes to stderr is the usage of a level given no command: it goes to
    // stdout, like `git` alone (main.ts then fails with invalid_arguments, field command).
    // Set before the subcommands exist: commander copies output settings into each at creation.
    .configureOutput({ outputError: () => undefined, writeErr: (text) => process.stdout.write(text) })
    .exitOverride();
  // The program's own options, from the one table argvScan.ts reads too.
  for (const option of PROGRAM_OPTIONS) {
    if (option.parser === undefined) program.option(option.flags, option.description);
    else program.option(option.flags, option.description, OPTION_PARSERS[option.parser] as (value: string, previous: unknown) => unknown);
  }
  const name = commandNameOf(argv);
  const running = toolCommandOf(argv);
  const handWritten = HAND_WRITTEN.filter((module) => name !== undefined && module.names.includes(name));
  const firstWordOf = (tool: ToolName): string | undefined => TOOLS[tool].cli?.command.split(' ')[0];
  if (running !== undefined && name !== 'help') {
    // Only the running command's group: its siblings by name (a group's usage lists them).
    for (const tool of TOOL_COMMANDS) if (firstWordOf(tool) === name) declareCommand(program, tool, tool === running, context);
  } else if (handWritten.length > 0) {
    for (const module of handWritten) module.register(program);
  } else {
    for (const tool of TOOL_COMMANDS) declareCommand(program, tool, tool === running, context);
    for (const module of HAND_WRITTEN) module.register(program);
    groupForHelp(program);
  }
  for (const cmd of program.commands) {
    cmd.exitOverride();
    for (const sub of cmd.commands) sub.exitOverride();
  }
  return program;
}
