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
 * - json: the result (one line of JSON for a program, indented with --json; a person reads a line of text);
 * - list: a list an agent only reads (tabs, console, network…): text, one line per item; --json the structure;
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
export type CliOutput = 'json' | 'list' | 'action' | 'snapshot' | 'image' | 'frames' | 'body' | 'har' | 'download' | 'status';

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

/**
 * What each short flag means: one meaning per letter, wherever it is accepted (a test holds every command of
 * the CLI to this table, cli/src/shortFlags.test.ts). `longs` are the long names it may go with; `element`
 * says its value names an element: a ref param (a ref, or where the command also reads by selector, a CSS
 * selector: parse `refOrSelector`).
 */
export const SHORT_FLAGS: Readonly<Record<string, { readonly meaning: string; readonly longs: readonly string[]; readonly element?: true }>> = {
  '-s': {
    meaning: 'the element this command is about or works in: a ref (@e12 or e12), or a CSS selector where the command reads by selector',
    longs: ['--scope', '--selector', '--target'],
    element: true,
  },
  '-i': { meaning: 'actionable elements only (in the snapshot printed)', longs: ['--interactive'] },
  '-d': { meaning: 'how deep the printed snapshot goes', longs: ['--depth'] },
  '-o': { meaning: 'the file to write', longs: ['--out'] },
  '-V': { meaning: "chrome-relay's version", longs: ['--version'] },
  '-h': { meaning: 'the help of the command', longs: ['--help'] },
};

/** One positional of a usage line: `<ref>`, `[attribute]`, `<tabs...>`. */
export function argUsage(arg: { readonly label: string; readonly optional: boolean; readonly list: boolean }): string {
  const name = `${arg.label}${arg.list ? '...' : ''}`;
  return arg.optional ? `[${name}]` : `<${name}>`;
}

/**
 * The usage line of a tool's command, `chrome-relay fill <ref> <value>`: what a "missing argument" message
 * shows, on the command line and, turned into a call by the MCP server's wording, over MCP. Whether an argument
 * is optional or takes several values comes from its param (`info`).
 */
export function usageLine(cli: CliShape, info: (param: string) => { readonly optional: boolean; readonly list: boolean }): string {
  const args = (cli.args ?? []).map((arg) => argUsage({ label: arg.label ?? arg.param, optional: arg.optional === true || info(arg.param).optional, list: info(arg.param).list }));
  return ['chrome-relay', cli.command, ...args].join(' ');
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
