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
import { isToolName, TOOLS, VERSION, type ToolName } from '@chrome-relay/protocol';
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
  }
  for (const cmd of program.commands) {
    cmd.exitOverride();
    for (const sub of cmd.commands) sub.exitOverride();
  }
  return program;
}
