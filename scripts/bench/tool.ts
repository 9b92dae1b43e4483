/**
 * The common shape of a tool under test. The suite speaks in actions ("snapshot -i", "click this ref"); each
 * driver maps them to its own command line, so both tools do the same thing on the same page.
 */
import type { Exec } from './exec.js';

/** A composite action's `--snapshot` (printed after the action's result, in the same call): full or `-i`. */
export type AfterSnapshot = 'full' | 'interactive';

/** The flags of a composite action's snapshot. */
export function afterSnapshotFlags(snapshot: AfterSnapshot | undefined): string[] {
  if (snapshot === undefined) return [];
  return snapshot === 'interactive' ? ['--snapshot', '-i'] : ['--snapshot'];
}

/** Refs are kept bare (`e12`); drivers add the `@`. */
export type Action =
  | { kind: 'version' }
  | { kind: 'tabs' }
  | { kind: 'open'; url: string; snapshot?: AfterSnapshot }
  | { kind: 'snapshot'; interactive: boolean; maxChars?: number }
  | { kind: 'click'; ref: string; snapshot?: AfterSnapshot }
  | { kind: 'hover'; ref: string }
  | { kind: 'fill'; ref: string; value: string }
  | { kind: 'type'; ref: string; text: string }
  | { kind: 'keys'; keys: string }
  | { kind: 'check'; ref: string }
  | { kind: 'uncheck'; ref: string }
  | { kind: 'select'; ref: string; value: string };

export interface BenchTool {
  readonly name: string;
  /** Why this tool cannot do the action (no such command or flag in this build), or undefined when it can. */
  unsupported(action: Action): Promise<string | undefined>;
  /** Run the action as one CLI call; throws CommandFailed on a non-zero exit. */
  run(action: Action): Promise<Exec>;
  /** The value of a page expression, read through the tool itself (sanity checks after a measurement). */
  evaluate(expression: string): Promise<unknown>;
  stop(): Promise<void>;
}

/** The action as a short command line, for progress lines and n/a reasons. */
export function describeAction(action: Action): string {
  switch (action.kind) {
    case 'version':
      return '--version';
    case 'tabs':
      return 'tabs';
    case 'open':
      return [`open ${action.url}`, ...afterSnapshotFlags(action.snapshot)].join(' ');
    case 'snapshot':
      return `snapshot${action.interactive ? ' -i' : ''}${action.maxChars !== undefined ? ` --max-chars ${action.maxChars}` : ''}`;
    case 'click':
      return ['click', ...afterSnapshotFlags(action.snapshot), `@${action.ref}`].join(' ');
    case 'hover':
    case 'check':
    case 'uncheck':
      return `${action.kind} @${action.ref}`;
    case 'fill':
      return `fill @${action.ref} ${JSON.stringify(action.value)}`;
    case 'type':
      return `type -s @${action.ref} ${JSON.stringify(action.text)}`;
    case 'keys':
      return `keys ${action.keys}`;
    case 'select':
      return `select @${action.ref} ${JSON.stringify(action.value)}`;
  }
}
