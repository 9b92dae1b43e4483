/**
 * `chrome-relay mcp`: the MCP server on stdio (mcp/server.ts). Its code, with the MCP SDK, is a
 * bundle of its own (dist/mcp.cjs) loaded only here, so no other command pays for it at start-up.
 */
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { MCP_CAPS, MCP_CAPS_ALL, MCP_GROUPS, parseCaps } from '@chrome-relay/protocol';
import { commandLineOf, untargeted } from '../callTarget.js';
import { distDir } from '../paths.js';
import type { BrowserOnDemand, runMcpServer } from '../mcp/main.js';

interface McpModule {
  runMcpServer: typeof runMcpServer;
  BrowserOnDemand: typeof BrowserOnDemand;
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Serve chrome-relay to an MCP client over stdio: the core tools, and the groups --caps names (one persistent connection to the browser; this session is one agent for leases; it ends when stdin closes).')
    .option('--caps <groups>', `also serve these tool groups, comma-separated: ${MCP_CAPS.join(', ')}, or ${MCP_CAPS_ALL}`)
    .option('--no-launch', "never start a browser: without one connected, calls fail with extension_not_connected (by default the first call that needs a browser starts chrome-relay's dedicated one, when none at all is connected, and it ends with the server)")
    .option('--headless', 'the browser it starts runs without a window')
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
        '  $ chrome-relay mcp --no-launch          # only a browser that is already connected (your own Chrome)',
        '',
        'MCP client config: {"mcpServers": {"chrome-relay": {"command": "chrome-relay", "args": ["mcp"]}}}',
        '',
      ].join('\n');
    })
    .action(async (opts: { caps?: string; launch: boolean; headless?: boolean }, cmd: Command) => {
      // The server starts whatever the home; a home that is not this user's own fails each call, saying why (homeTrust.ts),
      // and never gets a browser started on demand (that failure is not `no_host`).
      const globals = untargeted(commandLineOf(cmd), process.argv, 'report');
      const groups = parseCaps(opts.caps);
      const load = createRequire(import.meta.url);
      const mcp = load(join(distDir(), 'mcp.cjs')) as McpModule;
      // The browser of an endpoint is the person's, elsewhere: never one of our own in its place.
      const onDemand = opts.launch && globals.endpoint === undefined ? new mcp.BrowserOnDemand({ home: globals.home, headless: opts.headless === true, userHome: homedir() }) : undefined;
      // A client that ends the server with a signal instead of closing stdin: the browser it started goes too.
      const ending = (signal: NodeJS.Signals): void => {
        void (onDemand?.stop() ?? Promise.resolve()).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
      };
      process.once('SIGTERM', ending);
      process.once('SIGINT', ending);
      process.once('SIGHUP', ending);
      await mcp.runMcpServer({ home: globals.home, profile: globals.profile, agent: globals.agent ?? `mcp-${process.pid}`, timeoutMs: globals.timeoutMs, groups, endpoint: globals.endpoint, onDemand });
    });
}
