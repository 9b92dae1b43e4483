/**
 * `chrome-relay mcp` through an MCP client from the official SDK, over stdio against the BUILT CLI —
 * what an agent in an MCP client gets. Page state is observed over DevTools only. The protocol-level
 * checks (malformed lines, stdin ending) drive the process's stdio directly, as a client's bugs would.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_CAPS, MCP_CORE_BOUNDS, TOOL_NAMES, TOOLS } from '@chrome-relay/protocol';
import { CLI, runCli, startRelay, until, type Relay } from './harness.js';
import { mcpClient, read, refFor, stringEnv } from './helpers.js';

let relay: Relay;
const clients: Client[] = [];
const raws: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  relay = await startRelay();
}, 90_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  for (const raw of raws) if (raw.exitCode === null && raw.signalCode === null) raw.kill();
  await relay?.stop();
});


async function connect(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Client> {
  const client = await mcpClient(env, ...args);
  clients.push(client);
  return client;
}

type Content = { type: string; text?: string; data?: string; mimeType?: string };
interface RelayErrorBlock {
  code: string;
  message: string;
  tool: string;
  details: Record<string, unknown>;
  retryable: boolean;
}
interface Called {
  isError: boolean;
  text: string;
  images: Content[];
  structured: Record<string, unknown> | undefined;
  error: RelayErrorBlock | undefined;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Called> {
  const result = await client.callTool({ name, arguments: args });
  const content = (result.content ?? []) as Content[];
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  return {
    isError: result.isError === true,
    text: content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n'),
    images: content.filter((c) => c.type === 'image'),
    structured,
    error: structured?.relayError as RelayErrorBlock | undefined,
  };
}

const agentTools = TOOL_NAMES.filter((name) => TOOLS[name].internal !== true);
const toolsOf = (group: string): string[] => agentTools.filter((name) => TOOLS[name].mcp?.group === group);

/** `chrome-relay mcp` on raw pipes: write lines, read every JSON line it answers. */
function rawServer(env: NodeJS.ProcessEnv, ...args: string[]) {
  const child = spawn(process.execPath, [CLI, 'mcp', ...args], { env: stringEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  raws.push(child);
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    stderr: () => stderr,
    send: (line: string): void => void child.stdin.write(`${line}\n`),
    answer: async (id: number | string | null, what: string): Promise<Record<string, unknown>> =>
      (await until(() => lines.find((l) => l.id === id && ('result' in l || 'error' in l)), 10_000, `the answer to ${what}`)) ?? {},
  };
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const callLine = (id: number, name: string, args: Record<string, unknown>): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('chrome-relay mcp', () => {
  it('starts and lists its tools with no browser; calls fail as tool errors with the CLI block, then work once a browser connects (no restart)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cr-mcp-home-'));
    // --no-launch: the server starts no browser of its own (first-hour.e2e.ts covers the browser on demand).
    const client = await connect({ ...relay.env, CHROME_RELAY_HOME: home }, '--no-launch');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['navigate', 'snapshot', 'click', 'fill', 'screenshot']));
    for (const internal of ['ping', 'rearm', 'restart_host']) expect(names).not.toContain(internal);
    expect(tools.find((t) => t.name === 'click')?.annotations).toMatchObject({ readOnlyHint: false });
    expect(tools.find((t) => t.name === 'snapshot')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'close')?.annotations).toMatchObject({ destructiveHint: true });

    const offline = await call(client, 'tabs');
    expect(offline.isError).toBe(true);
    expect(offline.error).toMatchObject({ code: 'extension_not_connected', tool: 'tabs', details: { reason: 'no_host' } });
    expect(offline.text.split('\n')[0]).toMatch(/^chrome-relay: extension_not_connected: /);
    const bad = await call(client, 'click', { ref: 'nope' });
    expect(bad.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'ref' } });

    // The browser's host publishes its descriptor in the run dir: that is all a connecting browser does.
    mkdirSync(home, { recursive: true });
    rmSync(join(home, 'run'), { recursive: true, force: true });
    symlinkSync(join(relay.home, 'run'), join(home, 'run'));
    const online = await call(client, 'tabs');
    expect(online.isError, online.text).toBe(false);
    expect(online.structured).toMatchObject({ windows: expect.any(Array) });
  });

  it("the default tool list fits a model's context: the core tools, within their count and characters; shared params said once, in the instructions", async () => {
    const client = await connect(relay.env);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(toolsOf('core'));
    expect(tools.length).toBeLessThanOrEqual(MCP_CORE_BOUNDS.tools);
    expect(JSON.stringify(tools).length).toBeLessThanOrEqual(MCP_CORE_BOUNDS.characters);
    // `tab` is described once, in the instructions, not in every tool.
    expect(tools.find((t) => t.name === 'click')?.inputSchema.properties?.tab).not.toHaveProperty('description');
    const instructions = client.getInstructions() ?? '';
    for (const shared of ['- tab:', '- ref:', '- snapshot:', '--caps']) expect(instructions).toContain(shared);
  });

  it('every --caps group adds the tools it says, all adds every group, and an unknown group is refused', async () => {
    const core = toolsOf('core');
    for (const group of MCP_CAPS) {
      const client = await connect(relay.env, '--caps', group);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names, group).toEqual(agentTools.filter((name) => core.includes(name) || toolsOf(group).includes(name)));
      expect(toolsOf(group).length, group).toBeGreaterThan(0);
      await client.close();
    }
    const all = await connect(relay.env, '--caps', 'all');
    expect((await all.listTools()).tools.map((t) => t.name)).toEqual(agentTools);
    await all.close();

    const refused = await runCli(['mcp', '--caps', 'network,nope'], relay.env);
    expect(refused.code).toBe(1);
    expect(refused.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'caps', unknown: ['nope'] } });
  });

  it('navigate → snapshot → click, each with structured results (the --json object); an action with snapshot: true returns the page after it', async () => {
    const client = await connect(relay.env);
    const url = relay.server.url(`/button.html?mcp=${Date.now().toString(36)}`);
    const nav = await call(client, 'navigate', { url, newTab: true });
    expect(nav.isError, nav.text).toBe(false);
    expect(nav.structured).toMatchObject({ tabId: expect.any(Number), url, ready: true, newTab: true });
    const tabId = nav.structured?.tabId as number;
    expect(JSON.parse(nav.text)).toEqual(nav.structured);

    const first = await call(client, 'snapshot', { tab: tabId });
    expect(first.isError, first.text).toBe(false);
    // The text is what `chrome-relay snapshot` prints; structuredContent what `--json` prints.
    const cli = await relay.cli('snapshot', '--tab', String(tabId));
    expect(first.text.replace(/\[ref=e\d+\]/g, '')).toBe(cli.stdout.trimEnd().replace(/\[ref=e\d+\]/g, ''));
    expect(first.structured).toMatchObject({ tabId, url, title: 'Button fixture', tree: expect.any(Array) });
    const button = refFor(first.text, /button "Increment"/).slice(1);

    const clicked = await call(client, 'click', { ref: button, snapshot: true });
    expect(clicked.isError, clicked.text).toBe(false);
    const page = await relay.page('mcp=');
    expect(await read<number>(page, 'window.clicks')).toBe(1);
    expect(await read<boolean[]>(page, 'window.trusted')).toEqual([true]);
    expect(clicked.structured).toMatchObject({ result: { tabId, ref: button, navigated: false }, snapshot: { tabId, tree: expect.any(Array) } });
    const [resultLine, ...snapshotLines] = clicked.text.split('\n');
    // The text is the compact line: the false flags that only say nothing happened are left out of it.
    expect({ healed: false, navigated: false, ...(JSON.parse(resultLine ?? '') as object) }).toEqual(clicked.structured?.result);
    expect(snapshotLines.join('\n')).toContain('"Clicked 1"');

    const plain = await call(client, 'click', { ref: button });
    expect(plain.structured).toMatchObject({ tabId, ref: button });
    await until(async () => (await read<number>(page, 'window.clicks')) === 2, 5000, 'the second click');

    const shot = await call(client, 'screenshot', { tab: tabId });
    expect(shot.isError, shot.text).toBe(false);
    expect(shot.images).toHaveLength(1);
    expect(shot.images[0]?.mimeType).toBe('image/png');
    expect(Buffer.from(shot.images[0]?.data ?? '', 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(shot.structured).toMatchObject({ tabId, format: 'png' });
    expect(shot.structured).not.toHaveProperty('data');
  });

  it('an error is an isError result naming MCP tools and params, with the closed code and details.reason in structuredContent', async () => {
    const client = await connect(relay.env);
    const nav = await call(client, 'navigate', { url: relay.server.url(`/button.html?mcperr=${Date.now().toString(36)}`) });
    const tabId = nav.structured?.tabId as number;
    const button = refFor((await call(client, 'snapshot', { tab: tabId })).text, /button "Increment"/).slice(1);
    expect((await call(client, 'navigate', { url: relay.server.url('/nav-b.html'), tab: tabId })).isError).toBe(false);

    const stale = await call(client, 'click', { ref: button });
    expect(stale.isError).toBe(true);
    expect(stale.error).toMatchObject({ code: 'stale_ref', tool: 'click', details: { reason: 'navigated' } });
    expect(stale.error?.message).toContain('Call `snapshot`');
    expect(stale.text).toContain('Call `snapshot`');
    expect(stale.text).not.toMatch(/`chrome-relay|@e\d/);

    expect((await call(client, 'close', { tabs: [tabId] })).isError).toBe(false);
    const gone = await call(client, 'snapshot', { tab: tabId });
    expect(gone.error).toMatchObject({ code: 'target_not_found' });
    expect(gone.text).toContain('`tabs`');
    expect(gone.text).not.toContain('chrome-relay tabs');

    const notServed = await call(client, 'lease_claim', { tab: tabId });
    expect(notServed.error).toMatchObject({ code: 'unsupported_tool', details: { group: 'tabs-admin' } });
    // chrome-relay's own commands are no agent's, whatever --caps says: restart_host would cut every agent's calls.
    const hostPid = relay.hostPid();
    const internal = await call(await connect(relay.env, '--caps', 'all'), 'restart_host');
    expect(internal.error).toMatchObject({ code: 'unsupported_tool', details: { tool: 'restart_host' } });
    expect(relay.hostPid()).toBe(hostPid);
  });

  it('answers a malformed line with -32700, an invalid request with -32600 and a call without a tool name with -32602, and serves on', async () => {
    const server = rawServer(relay.env);
    server.send('{"jsonrpc":"2.0","id":1,"method":');
    server.send('{"jsonrpc":"2.0","id":5}');
    server.send('[{"jsonrpc":"2.0","id":6,"method":"ping"}]');
    expect(await server.answer(null, 'the malformed line')).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(await server.answer(5, 'the request without a method')).toMatchObject({ error: { code: -32600 } });
    await until(() => server.lines.filter((l) => l.id === null).length === 2, 10_000, 'the answer to the batch');
    expect(server.lines.filter((l) => l.id === null).map((l) => (l.error as { code: number }).code)).toEqual([-32700, -32600]);
    server.send(INITIALIZE);
    expect(await server.answer(1, 'initialize')).toMatchObject({ result: { serverInfo: { name: 'chrome-relay' } } });
    // A request of a known method with params it cannot take: invalid params, not an internal error.
    server.send(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { arguments: {} } }));
    expect(await server.answer(8, 'tools/call without a name')).toMatchObject({ error: { code: -32602 } });
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
  });

  it('ends within 2 s when stdin closes, after answering the call still in flight with a failure', async () => {
    const server = rawServer(relay.env);
    server.send(INITIALIZE);
    await server.answer(1, 'initialize');
    server.send(INITIALIZED);
    // A first call opens the socket to the host: today it is what kept the process alive.
    server.send(callLine(2, 'navigate', { url: relay.server.url(`/button.html?mcpeof=${Date.now().toString(36)}`) }));
    const nav = await server.answer(2, 'navigate');
    expect((nav.result as { isError?: boolean } | undefined)?.isError, JSON.stringify(nav)).not.toBe(true);
    server.send(callLine(3, 'wait', { text: 'this text never appears', timeoutMs: 60_000 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.stdin.end();
    const closedAt = Date.now();
    const exit = await Promise.race([server.exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 2000))]);
    expect(exit, `exit after stdin closed (${Date.now() - closedAt} ms); stderr: ${server.stderr()}`).toBe(0);
    const waited = server.lines.find((l) => l.id === 3) as { result?: { isError?: boolean; structuredContent?: { relayError?: RelayErrorBlock } } } | undefined;
    expect(waited?.result?.isError).toBe(true);
    expect(waited?.result?.structuredContent?.relayError).toMatchObject({ code: 'native_host_disconnected', tool: 'wait', details: { reason: 'client_closed', cause: 'client_closed' } });
  });

  it('leases separate two MCP sessions: each session is its own agent', async () => {
    const alice = await connect(relay.env, '--agent', 'alice', '--caps', 'tabs-admin');
    const bob = await connect(relay.env);
    const nav = await call(alice, 'navigate', { url: relay.server.url(`/button.html?lease=${Date.now().toString(36)}`), newTab: true });
    const tabId = nav.structured?.tabId as number;
    const claim = await call(alice, 'lease_claim', { tab: tabId });
    expect(claim.isError, claim.text).toBe(false);
    expect(claim.structured).toMatchObject({ lease: { owner: 'alice', target: String(tabId) } });

    const snap = await call(alice, 'snapshot', { tab: tabId });
    const button = refFor(snap.text, /button "Increment"/).slice(1);
    const blocked = await call(bob, 'click', { ref: button });
    expect(blocked.error).toMatchObject({ code: 'target_conflict', details: { reason: 'leased', owner: 'alice' } });
    const page = await relay.page('lease=');
    expect(await read<number>(page, 'window.clicks')).toBe(0);

    expect((await call(alice, 'click', { ref: button })).isError).toBe(false);
    await until(async () => (await read<number>(page, 'window.clicks')) === 1, 5000, "the owner's click");
    const released = await call(alice, 'lease_release', { tab: tabId });
    expect(released.isError, released.text).toBe(false);
    expect((await call(bob, 'click', { ref: button })).isError).toBe(false);
  });
});
