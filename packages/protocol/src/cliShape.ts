/**
 * The command-line shape of a tool, declared on its entry (toolSpec.ts) as plain static data: the CLI
 * builds its commander command from it without building any zod schema (start-up stays lazy), and
 * only the one command that runs reads its schema to parse and check values.
 *
 * Conventions, so a new param needs no declaration at all:
 * - every param not filled otherwise is a flag named after it, camelCase → `--kebab-case`; the
 *   schema says whether it takes a value (a boolean or `true` literal does not), a number is parsed
 *   as one, and every range or choice is checked by the schema itself (so CLI and schema agree);
 * - `tab`, `workspace` and `group` come from the target flags (`--tab` etc., before or after the
 *   command name), `agent` from `--agent`/$CHROME_RELAY_AGENT: they are never plain flags;
 * - a param named in REF_PARAMS takes `@e12` (the `@` is dropped).
 * Declare a flag only to rename it (`--wait-timeout` fills `timeoutMs`), give it a short alias, make
 * it set a constant (`--double` sets clickCount 2), or parse its value specially.
 */

/** Params that hold refs (`@e12` on the command line, `e12` on the wire); each carries the tab it was issued in. */
export const REF_PARAMS = ['ref', 'scopeRef', 'from', 'to', 'frame'] as const;

/** Params the CLI fills from the call's target and identity, never from a flag of their own name. */
export const ENVELOPE_PARAMS = ['tab', 'workspace', 'group', 'agent'] as const;

/** Value parsers the CLI knows (cli/src/valueParsers.ts); named here so the entry stays data. */
export type CliParser =
  /** `Shift,Control` (case-insensitive, Ctrl/Cmd accepted) → ['Shift', 'Control'] */
  | 'modifiers'
  /** `@e3` → the param (a ref); anything else → the `selector` param named by `otherwise` */
  | 'refOrSelector'
  /** a positional that takes an argument only when it is a ref (`@e3`); any other argument goes to the next one */
  | 'refIfGiven'
  /** existing regular files, made absolute from the current directory */
  | 'files'
  /** an existing writable directory, made absolute from the current directory */
  | 'dir';

export interface CliArg {
  /** The param the positional fills (an array param takes the rest of the arguments). */
  readonly param: string;
  /** Shown in the usage line and named in errors (default: the param). */
  readonly label?: string;
  /** Optional even when the schema requires the param (another flag may fill it: `upload --via`). */
  readonly optional?: true;
  readonly help?: string;
  readonly parse?: CliParser;
}

export interface CliFlag {
  /** Commander spelling: `--wait-timeout`, `-s, --target`, `--no-elide` (a value placeholder is added for value flags). */
  readonly flag: string;
  /** The param it fills. */
  readonly param: string;
  /** A constant: the flag takes no value and sets the param to this (`--double` → clickCount 2). */
  readonly value?: string | number | boolean;
  /** Other params it sets at the same time (`--into-view @e4` → ref e4 and intoView true). */
  readonly also?: Readonly<Record<string, string | number | boolean>>;
  readonly parse?: CliParser;
  /** For parse `refOrSelector`: the param a non-ref value fills. */
  readonly otherwise?: string;
  /** Placeholder in help (default: the param's kind, e.g. `<ms>` for a number). */
  readonly placeholder?: string;
  /** Help text (default: the param's schema description). */
  readonly help?: string;
}

/**
 * How the CLI presents the result (cli/src/outputs.ts). Each kind may add CLI-only flags:
 * - json: the result as JSON;
 * - action: JSON; with --snapshot (shaped by -i, -d, -s, --max-chars) followed by a snapshot of the
 *   same tab, taken by the extension right after the action, in the same call;
 * - snapshot: the tree as text (--max-chars, --urls; --json for the raw result);
 * - image: the capture written to a file (-o/--out, --base64), its path printed;
 * - frames: frames written into a directory (--out), optionally a GIF (--gif, --fps);
 * - body: a response body, or with -o/--out written to a file;
 * - har: the HAR log written to -o/--out;
 * - download: like action; a completed download is moved into the armed directory;
 * - status: JSON, with what `chrome-relay launch` started from this home (`launched`: browsers and their X
 *   displays, running or not), which only the CLI knows.
 */
export type CliOutput = 'json' | 'action' | 'snapshot' | 'image' | 'frames' | 'body' | 'har' | 'download' | 'status';

/** Where SKILL.md lists the command (grouped by task). */
export type CliTask = 'setup' | 'read' | 'act' | 'keyboard' | 'navigate' | 'page' | 'observe' | 'organize' | 'leases';

export interface CliShape {
  /** The command path: `snapshot`, `group create`. */
  readonly command: string;
  /** One line for `--help` listings and SKILL.md. */
  readonly summary: string;
  readonly task: CliTask;
  readonly args?: readonly CliArg[];
  readonly flags?: readonly CliFlag[];
  readonly output?: CliOutput;
  /**
   * A param that is the call's own time budget: filled from the global --timeout, and the call's
   * deadline is set WAIT_REPORT_MS above it so the tool can still report (wait).
   */
  readonly budget?: string;
  /** Full command lines (`chrome-relay …`); the first is SKILL.md's. A test parses every one. */
  readonly examples: readonly [string, ...string[]];
}

/** `clickCount` → `--click-count`. */
export function flagNameOf(param: string): string {
  return `--${param.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Commands that only group tool commands (`record start`, `lease claim`): their one-line help. */
export const CLI_GROUPS: Readonly<Record<string, string>> = {
  record: 'Record the tab as screencast frames, and a GIF through ffmpeg.',
  network: 'Requests of the tab (captured since chrome-relay attached to it); sensitive headers redacted.',
  workspace: "Named, unfocused windows for agents (never take the human's focus).",
  group: 'Native tab groups, by name.',
  lease: 'Per-agent leases on tabs and workspaces (expire after --ttl seconds idle).',
};
