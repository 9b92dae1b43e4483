/**
 * Every tool command is declared here, from its entry: one loop over the registry (program.ts) calls
 * declareCommand per entry. The command that runs is declared in full (its params' kinds come from its
 * schema); every other one only by name and summary, which is all `--help` lists — so start-up builds
 * one tool's schema, not fifty.
 * Running it is toolCommand.ts, shared with the fast path (fast/main.ts).
 */
import type { Command } from 'commander';
import { CLI_GROUPS, TOOLS, type CliShape, type ToolName } from '@chrome-relay/protocol';
import { collectValues, parseTab } from './args.js';
import { commandLineOf } from './callTarget.js';
import { commandSpec, usageOf } from './commandSpec.js';
import { OUTPUTS } from './outputs.js';
import { runToolCommand, type CommandContext } from './toolCommand.js';

type Opts = Record<string, unknown>;

const example = (lines: readonly string[]): string => `\nExample:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

/** The parent of a group command (`record` for `record start`), made once. */
function parentFor(program: Command, path: readonly string[]): Command {
  let at = program;
  for (const name of path) {
    const found = at.commands.find((c) => c.name() === name);
    at = found ?? at.command(name).description(CLI_GROUPS[name] ?? `${name} commands`);
  }
  return at;
}

function cliOf(tool: ToolName): CliShape {
  const cli = TOOLS[tool].cli;
  if (cli === undefined) throw new Error(`${tool} is internal: it has no command`);
  return cli;
}

/** Declare the command of `tool` under `program`: `full` when it is the one that runs (or asks for its help). */
export function declareCommand(program: Command, tool: ToolName, full: boolean, context: CommandContext = { argv: process.argv }): Command {
  const cli = cliOf(tool);
  const words = cli.command.split(' ');
  const name = words.at(-1) ?? tool;
  const parent = parentFor(program, words.slice(0, -1));
  // A command that is also a group (`network` has `network body`) may exist already as a parent.
  const cmd = parent.commands.find((c) => c.name() === name) ?? parent.command(name);
  cmd.description(cli.summary);
  if (!full) return cmd;

  const spec = commandSpec(tool);
  // Commander sees every argument as optional: which param a positional fills depends on the flags
  // given (commandParams.ts), and a missing one is the schema's error, naming it.
  for (const p of spec.positionals) cmd.argument(`[${p.label}${p.list ? '...' : ''}]`, p.help);
  cmd.usage(`[options] ${usageOf(spec)}`.trim());
  for (const flag of spec.flags) {
    if (flag.repeatable) cmd.option(flag.spelling, flag.help, collectValues);
    else cmd.option(flag.spelling, flag.help);
  }
  if (spec.tabUse !== 'none') {
    cmd
      .option('--tab <id>', 'tab to act in (default: the tab chrome-relay last used)', parseTab)
      .option('--workspace <name>', 'act in this workspace (its current tab)')
      .option('--group <name>', 'act in this tab group (its current tab)');
  } else {
    // A tool that manages tabs or workspaces (leases) names them with the same flags.
    if (spec.envelope.has('tab')) cmd.option('--tab <id>', spec.params.get('tab')?.description ?? 'tab', parseTab);
    if (spec.envelope.has('workspace')) cmd.option('--workspace <name>', spec.params.get('workspace')?.description ?? 'workspace');
  }
  OUTPUTS[cli.output ?? 'json'].flags?.(cmd);
  cmd.addHelpText('after', example(cli.examples));
  // Extra arguments are reported by commandParams.ts (field `command`), with the usage.
  cmd.allowExcessArguments(true);
  cmd.action(async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    await runToolCommand(spec, command.args, command.opts<Opts>(), commandLineOf(command), context);
  });
  return cmd;
}
