/**
 * Every tool command is declared here, from its entry: one loop over the registry (program.ts) calls
 * declareCommand per entry. The command that runs is declared in full (its params' kinds come from its
 * schema); every other one only by name and summary, which is all `--help` lists — so start-up builds
 * one tool's schema, not fifty.
 *
 * Running a tool command: flags and positionals → params (commandParams.ts), the target and agent
 * from --tab/--workspace/--group/--agent (callTarget.ts), the schema's check, the output kind's
 * checks, the call, the output kind's rendering (outputs.ts).
 */
import type { Command } from 'commander';
import { CLI_GROUPS, reasonedError, RelayError, TOOLS, type AfterSnapshot, type CliShape, type ToolName } from '@chrome-relay/protocol';
import { invalidArgument, parseTab } from './args.js';
import { withOwnBudget } from './callBudget.js';
import { targeted, untargeted, type TargetedGlobals } from './callTarget.js';
import { checkParams, paramsFromCommandLine, type CommandLineParams } from './commandParams.js';
import { commandSpec, usageOf, type CommandSpec } from './commandSpec.js';
import { AGENT_ENV } from './globalOptions.js';
import { OUTPUTS } from './outputs.js';
import { runTool, runToolThenSnapshot } from './runTool.js';

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

/** What the program was built for: its argv (targets are read by position), and whether to stop after validating. */
export interface CommandContext {
  readonly argv: readonly string[];
  /** Parse, map and check with the schema, then stop before any file is touched or call is made (docsCommands.test.ts). */
  readonly validateOnly?: boolean;
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
    if (flag.repeatable) cmd.option(flag.spelling, flag.help, (value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
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
    await runToolCommand(spec, command.args, command.opts<Opts>(), command, context);
  });
  return cmd;
}

/** The target flags and agent identity → envelope params and the call's globals. */
function envelopeOf(spec: CommandSpec, params: Record<string, unknown>, cmd: Command, argv: readonly string[]): TargetedGlobals {
  const use = spec.tabUse;
  let globals: TargetedGlobals;
  if (use === 'none' && (spec.envelope.has('tab') || spec.envelope.has('workspace'))) {
    // The tab or workspace it manages (a lease), typed before or after the command name.
    const { globals: all, tab } = targeted(cmd, argv);
    if (all.target?.group !== undefined) throw invalidArgument('group', 'a lease is on a tab or a workspace, not a group: give --tab <id> or --workspace <name>.');
    if (tab !== undefined) params.tab = tab;
    if (all.target?.workspace !== undefined) params.workspace = all.target.workspace;
    globals = { ...all, target: undefined };
  } else if (use === 'none') {
    globals = untargeted(cmd, argv);
  } else {
    const { globals: all, tab } = targeted(cmd, argv);
    globals = all;
    if (use === 'close') {
      const ids = params.tabs as number[] | undefined;
      if (tab !== undefined && ids !== undefined && !(ids.length === 1 && ids[0] === tab)) {
        throw reasonedError('target_conflict', 'multiple_targets', `--tab ${tab} and the ids ${ids.join(' ')} were both given; name the tabs to close once.`, {
          phase: 'cli',
          details: { tab, tabs: ids },
        });
      }
      if (tab !== undefined) params.tabs = [tab];
    } else if (tab !== undefined) params.tab = tab;
  }
  if (spec.envelope.has('agent') && globals.agent !== undefined) params.agent = globals.agent;
  if (spec.envelope.has('agent') && globals.agent === undefined && spec.params.get('agent')?.optional === false) {
    throw invalidArgument('agent', `\`${spec.cli.command}\` needs an agent identity: pass --agent NAME or set ${AGENT_ENV}.`);
  }
  return globals;
}

/**
 * A call failed: when the command line itself is invalid, that is the answer, naming the flag or
 * argument (the extension's own check names wire params, and a call that never reached it never
 * checked them); otherwise the call's own failure.
 */
function commandLineError(spec: CommandSpec, filled: CommandLineParams, error: unknown): unknown {
  if (!(error instanceof RelayError)) return error;
  try {
    checkParams(spec, filled);
  } catch (invalid) {
    return invalid;
  }
  return error;
}

async function runToolCommand(spec: CommandSpec, positionals: readonly string[], opts: Opts, cmd: Command, context: CommandContext): Promise<void> {
  const filled = paramsFromCommandLine(spec, positionals, opts);
  const globals = envelopeOf(spec, filled.params, cmd, context.argv);
  // A tool with a budget of its own (wait): --timeout is that budget; the call's deadline goes around it.
  const own = withOwnBudget(spec.tool, filled.params, globals.timeoutMs);
  filled.params = own.params;
  const callGlobals = { ...globals, timeoutMs: own.timeoutMs };
  const output = OUTPUTS[spec.cli.output ?? 'json'];
  const snapshot = output.snapshotAfter?.(opts);
  if (context.validateOnly === true) {
    checkParams(spec, filled);
    return;
  }
  const prepared = await output.before?.(opts);
  let result: Record<string, unknown>;
  let after: AfterSnapshot | undefined;
  try {
    // The params are checked by the extension, first thing (and by the schema here on failure only:
    // building it costs more at start-up than the whole call).
    if (snapshot === undefined) result = (await runTool(spec.tool, filled.params as never, callGlobals)) as Record<string, unknown>;
    else ({ result, snapshot: after } = (await runToolThenSnapshot(spec.tool, filled.params as never, callGlobals, snapshot)) as { result: Record<string, unknown>; snapshot: AfterSnapshot });
  } catch (error) {
    throw commandLineError(spec, filled, error);
  }
  const params = filled.params;
  // Rendering sees the globals of the command (its --json), with the deadline the agent gave.
  await output.render(result, { tool: spec.tool, opts, params, globals, prepared, after });
}
