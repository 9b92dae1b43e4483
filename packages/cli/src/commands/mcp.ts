/**
 * `chrome-relay mcp`: the MCP server on stdio (mcp/server.ts). Its code, with the MCP SDK, is a
 * bundle of its own (dist/mcp.cjs) loaded only here, so no other command pays for it at start-up.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Command } from 'commander';
import { MCP_CAPS, MCP_CAPS_ALL, MCP_GROUPS, parseCaps } from '@chrome-relay/protocol';
import { commandLineOf, untargeted } from '../callTarget.js';
import { distDir } from '../paths.js';
import type { runMcpServer } from '../mcp/main.js';

interface McpModule {
  runMcpServer: typeof runMcpServer;
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Serve chrome-relay to an MCP client over stdio: the core tools, and the groups --caps names (one persistent connection to the browser; this session is one agent for leases; it ends when stdin closes).')
    .option('--caps <groups>', `also serve these tool groups, comma-separated: ${MCP_CAPS.join(', ')}, or ${MCP_CAPS_ALL}`)
    .addHelpText('after', () => {
      const groups = (Object.keys(MCP_GROUPS) as (keyof typeof MCP_GROUPS)[]).map((group) => `  ${group.padEnd(11)} ${MCP_GROUPS[group]}${group === 'core' ? ' Always served.' : ''}`);
      return [
        '',
        'Tool groups:',
        ...groups,
        '',
        'Example:',
        '  $ chrome-relay mcp',
        '  $ chrome-relay mcp --caps tabs-admin,network',
        '  $ chrome-relay mcp --agent planner --timeout 60000',
        '',
        'MCP client config: {"mcpServers": {"chrome-relay": {"command": "chrome-relay", "args": ["mcp"]}}}',
        '',
      ].join('\n');
    })
    .action(async (opts: { caps?: string }, cmd: Command) => {
      // The server starts whatever the home; a home that is not this user's own fails each call, saying why (homeTrust.ts).
      const globals = untargeted(commandLineOf(cmd), process.argv, 'report');
      const groups = parseCaps(opts.caps);
      const load = createRequire(import.meta.url);
      const mcp = load(join(distDir(), 'mcp.cjs')) as McpModule;
      await mcp.runMcpServer({ home: globals.home, profile: globals.profile, agent: globals.agent ?? `mcp-${process.pid}`, timeoutMs: globals.timeoutMs, groups, endpoint: globals.endpoint });
    });
}
