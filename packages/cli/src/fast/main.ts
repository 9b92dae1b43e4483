/**
 * dist/call.cjs, the fast path of a tool command (`click @e3`, `tabs`, `snapshot -i`): the command
 * line is read from the command table baked in at build time (commandLine.ts) instead of by
 * commander, and the call then runs through the very code the full CLI runs (toolCommand.ts). So an
 * agent's call loads neither commander nor any hand-written command, nor builds a schema.
 *
 * The loader (src/loader/main.ts) calls runFast; false means "not mine" (help, setup commands,
 * anything the fast parse declines), and the loader runs the full CLI (dist/cli.cjs) instead, before
 * anything was printed or sent.
 */
import { exitWith } from '../exit.js';
import { commandSpec } from '../commandSpec.js';
import { runToolCommand } from '../toolCommand.js';
import type { ToolName } from '@chrome-relay/protocol';
import { parseFast, ParseFailure } from './commandLine.js';
import type { CommandTable } from './commandTable.js';

/** Set by packages/cli/build.mjs: commandTable(), worked out from the commander declarations, as JSON text (parsed faster than compiled). */
declare const __CLI_FAST_TABLE__: string;

/** Runs argv when it is a tool command the fast parse reads; false when the full CLI must. */
export function runFast(argv: readonly string[]): boolean {
  const parsed = parseFast(JSON.parse(__CLI_FAST_TABLE__) as CommandTable, argv);
  if (parsed === undefined) return false;
  const tool = parsed.tool as ToolName;
  const run = parsed instanceof ParseFailure ? Promise.reject(parsed.error) : runToolCommand(commandSpec(tool), parsed.positionals, parsed.opts, parsed, { argv });
  exitWith(run.then(() => 0), tool);
  return true;
}
