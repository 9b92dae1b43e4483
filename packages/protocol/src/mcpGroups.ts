import { RelayError } from './errors.js';

/**
 * The MCP server's tool groups. Every tool list an MCP client reads costs the model's context before
 * its first call, so `chrome-relay mcp` serves the `core` group (what a page task needs) and adds the
 * others only when its command line names them (`--caps network,record`). A tool's group is declared
 * on its entry (toolSpec.ts `mcp.group`); this table says what each group is for, once, for the
 * server's help, docs/tools.md and SKILL.md.
 */

export const MCP_GROUPS = {
  core: 'Open, read and act on pages: what a page task needs.',
  'tabs-admin': 'Workspaces (unfocused windows), native tab groups and per-agent leases on tabs.',
  network: 'Requests the tab made, response bodies and a HAR log (credentials redacted).',
  record: 'Record the tab as screencast frames.',
  devtools: "Run JavaScript in the page, read its console, measure an element's box.",
  extra: 'Less used page actions: forward, reload, focus, downloads, and the connection status.',
} as const;

export type McpGroup = keyof typeof MCP_GROUPS;

/** The groups `--caps` may name (core is always served); `all` names every one. */
export const MCP_CAPS = (Object.keys(MCP_GROUPS) as McpGroup[]).filter((group) => group !== 'core');

export const MCP_CAPS_ALL = 'all';

/**
 * `--caps a,b` → the groups served, core first. An unknown name is invalid_arguments naming it and the
 * groups there are: a misspelt group must not silently serve less.
 */
export function parseCaps(raw: string | undefined): McpGroup[] {
  const names = (raw ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => name !== MCP_CAPS_ALL && !Object.prototype.hasOwnProperty.call(MCP_GROUPS, name));
  if (unknown.length > 0) {
    throw new RelayError('invalid_arguments', `--caps: there is no group ${unknown.map((n) => JSON.stringify(n)).join(', ')}; the groups are ${MCP_CAPS.join(', ')} (or ${MCP_CAPS_ALL}).`, {
      tool: 'mcp',
      phase: 'cli',
      details: { field: 'caps', unknown, groups: [...MCP_CAPS] },
    });
  }
  return ['core', ...MCP_CAPS.filter((group) => names.includes(group) || names.includes(MCP_CAPS_ALL))];
}

/** How many tools and characters of tool definitions the default list may cost (checked by tests and `pnpm bench`). */
export const MCP_CORE_BOUNDS = { tools: 20, characters: 16_000 } as const;
