/**
 * The program's own options, which every command accepts: declared once, as data. program.ts declares them on
 * commander from this table, and argvScan.ts reads from it which of them take a value (so the word after one is not
 * the command's name) and which name a target — neither keeps a copy that a new option could miss. Plain data with
 * no imports at run time: the loader reads it on every start.
 */
import type { OptionParserName } from './args.js';

export interface ProgramOption {
  /** Commander's flags: `--tab <id>` (a value), `--json` (a switch), a short spelling first when there is one. */
  readonly flags: string;
  readonly description: string;
  /** The converter commander runs on its value (args.ts OPTION_PARSERS). */
  readonly parser?: OptionParserName;
  /** It names the tab a call acts in (callTarget.ts: where it was typed decides between the program's and the command's). */
  readonly target?: true;
}

export const PROGRAM_OPTIONS: readonly ProgramOption[] = [
  { flags: '--profile <user-data-dir>', description: 'talk to the browser running this profile (when several are connected)' },
  {
    flags: '--endpoint <endpoint>',
    description: 'reach the browser on another machine, in a container or in WSL: unix:<path>, ssh://[user@]host[:port] or cmd:<command line> (default: $CHROME_RELAY_ENDPOINT)',
  },
  { flags: '--timeout <ms>', description: 'deadline for the whole call (default 30000)', parser: 'timeout' },
  { flags: '--json', description: 'the whole result as indented JSON (otherwise: one line for a program, text for a person; snapshots and lists as text)' },
  { flags: '--agent <name>', description: 'agent identity for leases (default: $CHROME_RELAY_AGENT)' },
  { flags: '--tab <id>', description: "act in this tab (a command's own --tab replaces it)", parser: 'tab', target: true },
  { flags: '--workspace <name>', description: "act in this workspace's tab", target: true },
  { flags: '--group <name>', description: "act in this tab group's tab", target: true },
];

/** Pure: the spellings of an option (`-t`, `--tab`) from its commander flags. */
export function spellingsOf(flags: string): string[] {
  return flags.split(/[\s,|]+/).filter((word) => word.startsWith('-'));
}

/** Pure: whether an option takes a value (`<required>` or `[optional]`). */
export function takesValue(flags: string): boolean {
  return /[<[]/.test(flags);
}
