/**
 * Questions about the tool entries (tools.ts) that read their plain fields only, never their
 * schemas. Kept apart from the entries so that the CLI's fast path (packages/cli/build.mjs) can pair
 * them with entries whose schemas load on first use.
 */
import { TOOLS, type ToolName } from './tools.js';
import type { TabUse } from './toolSpec.js';

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(TOOLS, name);
}

export const TOOL_NAMES = Object.keys(TOOLS) as ToolName[];

/**
 * Not an agent's command (entry `internal`): no `chrome-relay <name>` command, not in SKILL.md or the
 * MCP tool list, refused as batch steps. `restart_host` cuts every agent's call in flight, so only
 * `update` sends it; `ping` is doctor's round trip; `rearm` is what `chrome-relay reconnect` sends.
 * (The swap was once called `reconnect` on the wire: that name is retired, so a host or extension
 * from before cannot mistake the harmless re-arm for the swap.)
 */
export function isInternalTool(name: string): boolean {
  return isToolName(name) && TOOLS[name].internal === true;
}

/** Answered by the native host itself (entry `answeredBy`), without the extension. */
export function isHostTool(name: string): boolean {
  return isToolName(name) && TOOLS[name].answeredBy === 'host';
}

/** The tool the native host sends to learn whether the extension answers (entry `probe`); the registry has one. */
export function probeTool(): ToolName {
  const [probe, ...more] = TOOL_NAMES.filter((name) => TOOLS[name].probe === true);
  if (probe === undefined || more.length > 0) throw new Error(`the registry must have exactly one probe tool, not ${more.length + (probe === undefined ? 0 : 1)}`);
  return probe;
}

/**
 * The entry's tabUse, else the convention: a tool with a `tab` param acts in a tab. `paramNames`
 * spares building the params schema when the caller knows them (the CLI's are worked out at build).
 */
export function tabUseOf(name: string, paramNames?: readonly string[]): TabUse {
  if (!isToolName(name)) return 'none';
  const declared = TOOLS[name].tabUse;
  if (declared !== undefined) return declared;
  const hasTab = paramNames === undefined ? Object.prototype.hasOwnProperty.call(TOOLS[name].params.shape, 'tab') : paramNames.includes('tab');
  return hasTab ? 'page' : 'none';
}

/**
 * The words an agent types to run a tool: its command path (`record stop` for record_stop), else its name
 * (an internal tool, or a command that is no tool, such as `doctor`). Errors name a tool this way, the way the
 * agent called it; over MCP, where tools are called by name, the server turns the words back (mcpWords.ts).
 */
export function commandOf(tool: string): string {
  return (isToolName(tool) ? TOOLS[tool].cli?.command : undefined) ?? tool;
}

/** A tool as a message names it: its command words in backticks (the form the MCP server rewrites to the tool's name). */
export function toolLabel(tool: string): string {
  return `\`${commandOf(tool)}\``;
}
