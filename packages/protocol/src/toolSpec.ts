/**
 * A tool entry is the whole description of a tool: its wire contract (params and result as zod),
 * who answers it, the policies the extension applies around it, and its command-line shape. The
 * CLI, the MCP server, `--help`, docs/tools.md and SKILL.md are all generated from these entries,
 * and the extension's dispatcher reads its policies from them: nothing is described twice.
 *
 * The schemas are built on first use. The CLI starts once per agent action, and building every
 * tool's zod schemas at start-up cost ~40 ms (more than Node's own start on these machines); one call
 * needs one tool's schemas. Everything else on the entry is plain static data, cheap to read.
 */
import type * as z from 'zod';
import type { CliShape } from './cliShape.js';
import type { McpGroup } from './mcpGroups.js';

/**
 * How a tool uses tabs:
 * - page: acts in one tab; without one, the remembered tab;
 * - page_or_new: the same, but without one it opens a new tab (navigate);
 * - close: closes `tabs`; without them, the remembered tab;
 * - none: acts in no tab. Its `tab` param, if any, names what it manages (a lease), so it is never
 *   filled in by default.
 * Default (tabUseOf): `page` when the params have a `tab`, else `none`.
 */
export type TabUse = 'page' | 'page_or_new' | 'close' | 'none';

export interface ToolPolicy {
  /**
   * Whether the tool changes the page or the browser (input, navigation, tabs, dialogs, leases…).
   * A mutating call cut off by `timeout` or `native_host_disconnected` may or may not have acted, so
   * it is reported non-retryable with "check the page first" (interrupted.ts); a read-only one stays
   * retryable. Required, so every new tool decides.
   */
  readonly mutates: boolean;
  /** Destroys something that cannot be brought back by the agent (closes tabs, windows): MCP's destructiveHint. */
  readonly destructive?: true;
  /** The native host answers it itself, without the extension (works with no browser connected). */
  readonly answeredBy?: 'host';
  /**
   * Answered by the extension's service worker alone, with no page and nothing changed, so its answer proves the
   * extension runs: the native host sends it to find that out (its half-open probes, `rearm`), and forwards it while
   * every other call fails fast because the extension stopped answering (doctor's round trip).
   */
  readonly probe?: true;
  /**
   * Its answer ends the native host: the extension drops its port and connects again, so Chrome starts the host
   * installed now (what `update` sends). The host refuses new calls and lets those in flight finish (bounded) before it
   * forwards it.
   */
  readonly endsHost?: true;
  /**
   * Sent by chrome-relay's own commands only (doctor, update, reconnect): no command of its name, not
   * in SKILL.md or the MCP tool list, refused as a batch step.
   */
  readonly internal?: true;
  /** How it uses tabs, when the convention (a `tab` param means `page`) is not it. */
  readonly tabUse?: TabUse;
  /**
   * `self`: the tool deals with an open JavaScript dialog itself, so the dispatcher's dialog
   * precondition leaves it alone (dialog answers it; close must work on a tab whose dialog is open).
   */
  readonly dialog?: 'self';
  /**
   * `exempt`: reads only chrome-relay's bookkeeping, or checks leases itself; no lease check before it.
   * `named_workspace`: the tool acts on the workspace its `name` param names (workspace_close), whose lease is checked
   * besides its tabs'.
   */
  readonly leases?: 'exempt' | 'named_workspace';
  /**
   * A health check or the host's plumbing, not an agent's action on the person's tabs: Pause does not stop it
   * (doctor's round trip, update's host swap) and the popup's history leaves it out.
   */
  readonly health?: true;
  /**
   * The tool loads the URL its `url` param names: that URL passes the one URL gate (policy/urlGate.ts: schemes that
   * open safely, the browser's and extensions' own pages, local files, the site block list) before it runs.
   */
  readonly loads?: 'url';
  /**
   * The result lists tabs (`tabs`), tab groups (`groups`) or workspaces (`workspaces`): the dispatcher shows only what
   * the agent may act on (every tab of a group), and counts the rest (`otherTabs`, `otherGroups`), never their URLs
   * or titles.
   */
  readonly lists?: 'tabs' | 'groups' | 'workspaces';
  /**
   * The tabs the tool names through its params besides the tab it acts in, by param name: ids of tabs it changes
   * (`tabIds`), an existing tab group (`group`) or workspace (`workspace`) whose every tab it changes or closes. They
   * become the call's tabs (targeting/resolveCall.ts), so the person's limits and leases apply to each of them exactly
   * as to a `--tab`, with no code of the tool's own.
   */
  readonly reaches?: { readonly tabIds?: string; readonly group?: string; readonly workspace?: string };
  /**
   * The param that carries JavaScript the agent wrote, run in the page's main world (`js`, `wait --fn`): refused
   * while the person has turned agents' JavaScript off in the options.
   */
  readonly agentCode?: string;
  /**
   * The tool sends input to its tab (pointer, keys, text) or moves its focus. Such calls take turns per tab: the
   * dispatcher runs one at a time and queues the rest within their own deadline, so what each one reports is what
   * the page received (input/inputLanes.ts). An Input.* command sent outside such a call is refused.
   */
  readonly input?: true;
}

/**
 * The tool as `chrome-relay mcp` serves it. The description is written for a model reading the tool
 * list before its first call: one or two short sentences on what the tool does and when to pick it.
 * What every tool shares (tab, ref, snapshot, how failures read) is said once, in the server's
 * instructions, and CLI spellings (flags, `@e12`) have no place in it.
 */
export interface McpFace {
  /** Served by default (`core`), or when `chrome-relay mcp --caps` names its group (mcpGroups.ts). */
  readonly group: McpGroup;
  readonly description: string;
}

export interface ToolSchemas<P extends z.ZodType, R extends z.ZodType> {
  readonly params: P;
  readonly result: R;
}

export interface ToolSpec<P extends z.ZodType, R extends z.ZodType> extends ToolPolicy, ToolSchemas<P, R> {
  /** What the tool does, in full, for an agent: docs/tools.md and the protocol tool list (MCP reads `mcp.description`). */
  readonly description: string;
  /** Its command line; absent only for internal tools. */
  readonly cli?: CliShape;
  /** Its MCP face; absent only for internal tools. */
  readonly mcp?: McpFace;
}

type EntryInput<P extends z.ZodType, R extends z.ZodType> = ToolPolicy & {
  readonly description: string;
  readonly schemas: () => ToolSchemas<P, R>;
} & ({ readonly internal: true; readonly cli?: undefined; readonly mcp?: undefined } | { readonly internal?: undefined; readonly cli: CliShape; readonly mcp: McpFace });

/** Declare a tool entry; the schemas are built the first time params or result is read. */
export function toolEntry<P extends z.ZodType, R extends z.ZodType>(input: EntryInput<P, R>): ToolSpec<P, R> {
  const { schemas, ...rest } = input;
  let built: ToolSchemas<P, R> | undefined;
  const spec = (): ToolSchemas<P, R> => (built ??= schemas());
  return {
    ...rest,
    get params() {
      return spec().params;
    },
    get result() {
      return spec().result;
    },
  };
}
