/**
 * Which tab a command acts on, resolved the same way for every command: `--tab`, `--workspace` or
 * `--group`, given before the command name (program level) or on it (command level; it wins and a
 * `target_overridden` notice says so). `--tab` means the same in both places: it becomes the tool's
 * `tab` param. Workspace/group travel as the call's envelope `target` and the extension resolves
 * them (targeting/resolveCall.ts). A command that acts on no tab refuses a target instead of
 * ignoring it. Also the agent identity.
 */
import type { Command } from 'commander';
import { reasonedError, RelayError, type Notice } from '@chrome-relay/protocol';
import { parseTab } from './args.js';
import { scanArgv } from './argvScan.js';
import { resolveGlobals, type GlobalOptions } from './globalOptions.js';
import { printNotice } from './output.js';

export interface CallTarget {
  tab?: number | undefined;
  workspace?: string | undefined;
  group?: string | undefined;
}

/** Globals plus the envelope fields; runTool forwards `target` and `agent` once the host accepts them. */
export interface TargetedGlobals extends GlobalOptions {
  target?: CallTarget | undefined;
  agent?: string | undefined;
}

function cliError(code: 'invalid_arguments', message: string, details: Record<string, unknown>): RelayError {
  return new RelayError(code, message, { phase: 'cli', details });
}

function describe(target: CallTarget): string {
  if (target.tab !== undefined) return `--tab ${target.tab}`;
  if (target.workspace !== undefined) return `--workspace ${target.workspace}`;
  return `--group ${target.group ?? ''}`;
}

function setKeys(target: CallTarget): (keyof CallTarget)[] {
  return (Object.keys(target) as (keyof CallTarget)[]).filter((k) => target[k] !== undefined);
}

function single(level: string, target: CallTarget): CallTarget | undefined {
  const set = setKeys(target);
  if (set.length > 1) {
    throw reasonedError('target_conflict', 'multiple_targets', `${set.map((k) => `--${k}`).join(' and ')} were both given ${level}; give one target.`, { phase: 'cli', details: { ...target } });
  }
  const key = set[0];
  return key === undefined ? undefined : { [key]: target[key] };
}

/**
 * One target for the call. Two on the same level → target_conflict; a command-level target
 * replaces a program-level one (notice when they differ). A --tab, wherever it was typed, is the
 * tool's `tab` param; a workspace or group goes into the envelope.
 */
export function resolveCallTarget(program: CallTarget, sub: CallTarget): { tab?: number; target?: CallTarget; notice?: Notice } {
  const outer = single('before the command', program);
  const inner = single('on the command', sub);
  const notice: Notice | undefined =
    outer && inner && describe(outer) !== describe(inner)
      ? { notice: 'target_overridden', message: `${describe(inner)} on the command replaces ${describe(outer)} given before it.` }
      : undefined;
  const chosen = inner ?? outer;
  const out: { tab?: number; target?: CallTarget; notice?: Notice } = {};
  if (notice) out.notice = notice;
  if (chosen === undefined) return out;
  if (chosen.tab !== undefined) out.tab = chosen.tab;
  else out.target = chosen;
  return out;
}

/**
 * Target flags given before the command name and after it, from the one scan of argv (argvScan.ts): commander assigns
 * an option both the program and the command define to the program wherever it appears, which would hide which level
 * it was typed at.
 */
export function targetFlagsByPosition(argv: readonly string[]): { before: CallTarget; after: CallTarget } {
  const before: CallTarget = {};
  const after: CallTarget = {};
  for (const { key, value, beforeCommand } of scanArgv(argv).targets) {
    if (value === undefined) continue; // commander reports the missing value itself
    const target = beforeCommand ? before : after;
    if (key === 'tab') target.tab = parseTab(value);
    else target[key] = value;
  }
  return { before, after };
}

/**
 * What the code after the parse reads of a command line: commander's Command has it (commandLineOf),
 * and so does the fast path's own parse of a tool command (fast/commandLine.ts).
 */
export interface ParsedCommandLine {
  /** The command as typed, without the program: `record stop`. */
  readonly path: string;
  /** The command's options merged with the program's, the program's winning (commander's optsWithGlobals). */
  readonly withGlobals: Readonly<Record<string, unknown>>;
}

export function commandLineOf(cmd: Command): ParsedCommandLine {
  return { path: commandPath(cmd), withGlobals: cmd.optsWithGlobals() };
}

/** Globals with target and agent resolved; prints the override notice. Returns the tab param too. */
export function targeted(line: ParsedCommandLine, argv: readonly string[] = process.argv): { globals: TargetedGlobals; tab: number | undefined } {
  const { before, after } = targetFlagsByPosition(argv);
  const resolved = resolveCallTarget(before, after);
  if (resolved.notice) printNotice(resolved.notice);
  const globals: TargetedGlobals = { ...resolveGlobals(line.withGlobals), target: resolved.target };
  return { globals, tab: resolved.tab };
}

/**
 * Globals of a command that acts on no tab (tabs, status, workspace/group management): a
 * --tab/--workspace/--group given anyway is invalid_arguments, never silently ignored.
 */
export function untargeted(line: ParsedCommandLine, argv: readonly string[] = process.argv, home: 'trusted' | 'report' = 'trusted'): TargetedGlobals {
  const { before, after } = targetFlagsByPosition(argv);
  const given = setKeys({ ...before, ...after })[0];
  if (given !== undefined) throw targetNotApplicable(line.path, given);
  return resolveGlobals(line.withGlobals, home);
}

/** A --tab/--workspace/--group given to the command `path`, which acts on no tab. */
export function targetNotApplicable(path: string, given: string): RelayError {
  return cliError('invalid_arguments', `--${given} does not apply to \`${path}\`: it acts on no tab. Drop --${given}.`, { field: given });
}

export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let at: Command | null = cmd; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

export const targetOptions = (cmd: Command): Command =>
  cmd
    .option('--tab <id>', 'tab to act on (default: the tab chrome-relay last used)', parseTab)
    .option('--workspace <name>', 'act in this workspace (its current tab)')
    .option('--group <name>', 'act in this tab group (its current tab)');

