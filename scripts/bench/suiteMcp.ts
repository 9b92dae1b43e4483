/**
 * `chrome-relay mcp`: what one call costs through one persistent MCP server (an SDK client over stdio, as an
 * MCP client runs it), next to the same command as a fresh CLI process. Timed per call, client-side, from
 * callTool to its answer; the server's own start (process + tool list) is a separate row.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from '../../e2e/harness.js';
import { FIXTURES, uniquePath } from './fixtures.js';
import type { Bench } from './measure.js';
import { na, NONE, time, type Cell, type Section } from './report.js';
import { sample, timed } from './timing.js';

async function connect(env: NodeJS.ProcessEnv): Promise<Client> {
  const client = new Client({ name: 'chrome-relay-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
      stderr: 'ignore',
    }),
  );
  return client;
}

async function callOk(client: Client, name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) throw new Error(`${name} failed over MCP: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result;
}

export interface McpFigures {
  section: Section;
  tabs: Cell;
}

export async function mcpSection(bench: Bench, env: NodeJS.ProcessEnv, cliTabs: number | undefined): Promise<McpFigures> {
  bench.log('mcp: one persistent server');
  // Calls are cheap: ten times the runs, for a stable median.
  const many = { warmups: Math.max(bench.plan.warmups, 3), runs: bench.plan.runs * 10 };
  let client: Client | undefined;
  try {
    const start = await sample(bench.plan, {
      run: async () => {
        let started: Client | undefined;
        const ms = await timed(async () => {
          started = await connect(env);
          await started.listTools();
        });
        await started?.close();
        return ms;
      },
    });
    client = await connect(env);
    const c = client;
    const tabs = await sample(many, { run: () => timed(() => callOk(c, 'tabs', {})) });
    const opened = (await callOk(c, 'navigate', { url: bench.url(uniquePath(FIXTURES.small.path)) })) as { content: { text?: string }[] };
    const tabId = (JSON.parse(opened.content[0]?.text ?? '{}') as { tabId?: number }).tabId;
    const snap = await sample(many, { run: () => timed(() => callOk(c, 'snapshot', { tab: tabId, interactive: true })) });
    const tabsCell = time(tabs);
    return {
      tabs: tabsCell,
      section: {
        title: 'MCP server (`chrome-relay mcp`, one process, one socket to the host)',
        rows: [
          { label: 'server start → tools listed (fresh process)', relay: time(start), peer: NONE },
          { label: '`tabs` per call', relay: tabsCell, peer: NONE, ...(cliTabs !== undefined ? { ratioTo: { name: 'CLI `tabs` process', value: cliTabs } } : {}) },
          { label: '`snapshot` interactive, small page, per call', relay: time(snap), peer: NONE },
        ],
      },
    };
  } catch (err) {
    const why = na(err instanceof Error ? err.message : String(err));
    return { tabs: why, section: { title: 'MCP server (`chrome-relay mcp`)', rows: [{ label: '`tabs` per call', relay: why, peer: NONE }] } };
  } finally {
    await client?.close();
  }
}
