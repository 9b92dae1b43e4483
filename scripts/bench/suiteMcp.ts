/**
 * `chrome-relay mcp`: what one call costs through one persistent MCP server (an SDK client over stdio, as an
 * MCP client runs it), next to the same command as a fresh CLI process. Timed per call, client-side, from
 * callTool to its answer; the server's own start (process + tool list) is a separate row.
 *
 * And what the server costs a model before its first call: the tool list it reads (tools, characters of the
 * definitions as listed, tokens), by default and with every group (`--caps all`), against the default's bounds.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCP_CORE_BOUNDS } from '@chrome-relay/protocol';
import { CLI } from '../../e2e/harness.js';
import { FIXTURES, uniquePath } from './fixtures.js';
import type { Bench } from './measure.js';
import { count, na, NONE, time, type Cell, type Row, type Section } from './report.js';
import { sample, timed } from './timing.js';
import { countTokens, TOKEN_ENCODING } from './tokens.js';

async function connect(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Client> {
  const client = new Client({ name: 'chrome-relay-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', ...args],
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

interface Listed {
  tools: number;
  chars: number;
  tokens: number;
  instructionsChars: number;
  instructionsTokens: number;
}

/** The tool list and instructions a client hands its model, measured as listed (JSON of tools/list's tools). */
async function listed(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Listed> {
  const client = await connect(env, ...args);
  try {
    const { tools } = await client.listTools();
    const definitions = JSON.stringify(tools);
    const instructions = client.getInstructions() ?? '';
    return { tools: tools.length, chars: definitions.length, tokens: countTokens(definitions), instructionsChars: instructions.length, instructionsTokens: countTokens(instructions) };
  } finally {
    await client.close();
  }
}

function contextRows(label: string, figures: Listed): Row[] {
  return [
    { label: `tools listed, ${label}`, relay: count(figures.tools), peer: NONE },
    { label: `tool definitions, characters, ${label}`, relay: count(figures.chars), peer: NONE },
    { label: `tool definitions, tokens (${TOKEN_ENCODING}), ${label}`, relay: count(figures.tokens), peer: NONE },
    { label: `server instructions, characters, ${label}`, relay: count(figures.instructionsChars), peer: NONE },
    { label: `server instructions, tokens (${TOKEN_ENCODING}), ${label}`, relay: count(figures.instructionsTokens), peer: NONE },
  ];
}

/** The tool list's cost to a model's context, by default and with every group. */
export async function mcpContextSection(bench: Bench, env: NodeJS.ProcessEnv): Promise<Section> {
  bench.log('mcp: tool list size');
  const title = 'MCP tool list: what a model reads before its first call';
  try {
    const core = await listed(env);
    const all = await listed(env, '--caps', 'all');
    const holds = core.tools <= MCP_CORE_BOUNDS.tools && core.chars <= MCP_CORE_BOUNDS.characters;
    return {
      title,
      rows: [...contextRows('default (core)', core), ...contextRows('`--caps all`', all)],
      notes: [
        `default list bounds (≤ ${MCP_CORE_BOUNDS.tools} tools, ≤ ${MCP_CORE_BOUNDS.characters.toLocaleString('en-US')} characters): ${holds ? 'held' : 'NOT HELD'} — ${core.tools} tools, ${core.chars.toLocaleString('en-US')} characters`,
        'characters: JSON of the tools array of tools/list, as an SDK client receives it; the instructions come with initialize',
      ],
    };
  } catch (err) {
    return { title, rows: [{ label: 'tools listed, default (core)', relay: na(err instanceof Error ? err.message : String(err)), peer: NONE }] };
  }
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
    const opened = (await callOk(c, 'navigate', { url: bench.url(uniquePath(FIXTURES.small.path)) })) as { structuredContent?: { tabId?: number } };
    const tabId = opened.structuredContent?.tabId;
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
