/**
 * `chrome-relay mcp`: the MCP server on stdio (mcp/server.ts). Its code, with the MCP SDK, is a
 * bundle of its own (dist/mcp.cjs) loaded only here, so no other command pays for it at start-up.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Command } from 'commander';
import { commandLineOf, untargeted } from '../callTarget.js';
import { distDir } from '../paths.js';
import type { runMcpServer } from '../mcp/main.js';

interface McpModule {
  runMcpServer: typeof runMcpServer;
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Serve every chrome-relay tool to an MCP client over stdio (one persistent connection to the browser; this session is one agent for leases).')
    .addHelpText('after', '\nExample:\n  $ chrome-relay mcp\n  $ chrome-relay mcp --agent planner --timeout 60000\n\nMCP client config: {"mcpServers": {"chrome-relay": {"command": "chrome-relay", "args": ["mcp"]}}}\n')
    .action(async (_opts: unknown, cmd: Command) => {
      const globals = untargeted(commandLineOf(cmd));
      const load = createRequire(import.meta.url);
      const mcp = load(join(distDir(), 'mcp.cjs')) as McpModule;
      await mcp.runMcpServer({ home: globals.home, profile: globals.profile, agent: globals.agent ?? `mcp-${process.pid}`, timeoutMs: globals.timeoutMs });
    });
}
