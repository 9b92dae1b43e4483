/**
 * Running a tool command once its command line is parsed, by commander (declareCommand.ts) or by the
 * fast path (fast/main.ts): flags and positionals → params (commandParams.ts), the target and agent
 * from --tab/--workspace/--group/--agent (callTarget.ts), the output kind's checks, the call, the
 * output kind's rendering (outputs.ts).
 */
import { reasonedError, RelayError, type AfterSnapshot } from '@chrome-relay/protocol';
import { invalidArgument } from './args.js';
import { withOwnBudget } from './callBudget.js';
import { targeted, untargeted, type ParsedCommandLine, type TargetedGlobals } from './callTarget.js';
import { checkParams, paramsFromCommandLine, type CommandLineParams } from './commandParams.js';
import type { CommandSpec } from './commandSpec.js';
import { AGENT_ENV } from './globalOptions.js';
import { OUTPUTS } from './outputs.js';
import { runTool, runToolThenSnapshot } from './runTool.js';

type Opts = Record<string, unknown>;

/** What the program was built for: its argv (targets are read by position), and whether to stop after validating. */
export interface CommandContext {
  readonly argv: readonly string[];
  /** Parse, map and check with the schema, then stop before any file is touched or call is made (docsCommands.test.ts). */
  readonly validateOnly?: boolean;
}

/** The target flags and agent identity → envelope params and the call's globals. */
function envelopeOf(spec: CommandSpec, params: Record<string, unknown>, line: ParsedCommandLine, argv: readonly string[]): TargetedGlobals {
  const use = spec.tabUse;
  let globals: TargetedGlobals;
  if (use === 'none' && (spec.envelope.has('tab') || spec.envelope.has('workspace'))) {
    // The tab or workspace it manages (a lease), typed before or after the command name.
    const { globals: all, tab } = targeted(line, argv);
    if (all.target?.group !== undefined) throw invalidArgument('group', 'a lease is on a tab or a workspace, not a group: give --tab <id> or --workspace <name>.');
    if (tab !== undefined) params.tab = tab;
    if (all.target?.workspace !== undefined) params.workspace = all.target.workspace;
    globals = { ...all, target: undefined };
  } else if (use === 'none') {
    globals = untargeted(line, argv);
  } else {
    const { globals: all, tab } = targeted(line, argv);
    globals = all;
    if (use === 'close') {
      const ids = params.tabs as number[] | undefined;
      if (tab !== undefined && ids !== undefined && !(ids.length === 1 && ids[0] === tab)) {
        throw reasonedError('target_conflict', 'multiple_targets', `--tab ${tab} and the ids ${ids.join(' ')} were both given; give one target: name the tabs to close once.`, {
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

export async function runToolCommand(spec: CommandSpec, positionals: readonly string[], opts: Readonly<Opts>, line: ParsedCommandLine, context: CommandContext): Promise<void> {
  const filled = paramsFromCommandLine(spec, positionals, opts);
  const globals = envelopeOf(spec, filled.params, line, context.argv);
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
