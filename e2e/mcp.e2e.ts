/**
 * `chrome-relay mcp` through an MCP client from the official SDK, over stdio against the BUILT CLI —
 * what an agent in an MCP client gets. Page state is observed over DevTools only.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, startRelay, until, type Relay } from './harness.js';
import { read, refFor } from './helpers.js';

let relay: Relay;
const clients: Client[] = [];

beforeAll(async () => {
  relay = await startRelay();
}, 90_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await relay?.stop();
});

async function mcpClient(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'chrome-relay-e2e', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type Content = { type: string; text?: string; data?: string; mimeType?: string };
interface Called {
  isError: boolean;
  text: string;
  images: Content[];
  json: unknown;
  error: { code: string; tool: string; details: Record<string, unknown>; retryable: boolean } | undefined;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Called> {
  const result = await client.callTool({ name, arguments: args });
  const content = (result.content ?? []) as Content[];
  const text = content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
  let json: unknown;
  try {
    json = JSON.parse(content.find((c) => c.type === 'text')?.text ?? '');
  } catch {
    json = undefined;
  }
  const block = text.split('\n').find((line) => line.startsWith('{"relayError"'));
  const error = block ? (JSON.parse(block) as { relayError: Called['error'] }).relayError : undefined;
  return { isError: result.isError === true, text, images: content.filter((c) => c.type === 'image'), json, error };
}

describe('chrome-relay mcp', () => {
  it('starts and lists its tools with no browser; calls fail as tool errors with the CLI block, then work once a browser connects (no restart)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cr-mcp-home-'));
    const client = await mcpClient({ ...relay.env, CHROME_RELAY_HOME: home });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['navigate', 'snapshot', 'click', 'fill', 'screenshot', 'lease_claim', 'group_create']));
    for (const internal of ['ping', 'rearm', 'restart_host']) expect(names).not.toContain(internal);
    const click = tools.find((t) => t.name === 'click');
    expect(click?.annotations).toMatchObject({ readOnlyHint: false });
    expect(tools.find((t) => t.name === 'snapshot')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'close')?.annotations).toMatchObject({ destructiveHint: true });
    expect(click?.inputSchema.properties).toHaveProperty('ref');
    expect(tools.find((t) => t.name === 'lease_claim')?.inputSchema.properties).not.toHaveProperty('agent');

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
    expect(online.json).toMatchObject({ windows: expect.any(Array) });
  });

  it('navigate → snapshot → click @ref → snapshot; stale_ref after a navigation; screenshot is an image', async () => {
    const client = await mcpClient(relay.env);
    const url = relay.server.url(`/button.html?mcp=${Date.now().toString(36)}`);
    const nav = await call(client, 'navigate', { url });
    expect(nav.isError, nav.text).toBe(false);
    const tabId = (nav.json as { tabId: number }).tabId;

    const first = await call(client, 'snapshot', { tab: tabId });
    expect(first.isError, first.text).toBe(false);
    // The same text `chrome-relay snapshot` prints.
    expect(first.text).toMatch(/^# "Button fixture" — ".*" \[tab=\d+\]\n/);
    const cli = await relay.cli('snapshot', '--tab', String(tabId));
    expect(first.text.replace(/\[ref=e\d+\]/g, '')).toBe(cli.stdout.trimEnd().replace(/\[ref=e\d+\]/g, ''));
    const button = refFor(first.text, /button "Increment"/).slice(1);

    const clicked = await call(client, 'click', { ref: button });
    expect(clicked.isError, clicked.text).toBe(false);
    const page = await relay.page(`mcp=`);
    expect(await read<number>(page, 'window.clicks')).toBe(1);
    expect(await read<boolean[]>(page, 'window.trusted')).toEqual([true]);
    const second = await call(client, 'snapshot', { tab: tabId });
    expect(second.text).toContain('"Clicked 1"');

    const shot = await call(client, 'screenshot', { tab: tabId });
    expect(shot.isError, shot.text).toBe(false);
    expect(shot.images).toHaveLength(1);
    expect(shot.images[0]?.mimeType).toBe('image/png');
    expect(Buffer.from(shot.images[0]?.data ?? '', 'base64').subarray(1, 4).toString()).toBe('PNG');

    const renav = await call(client, 'navigate', { url: relay.server.url('/nav-b.html'), tab: tabId });
    expect(renav.isError, renav.text).toBe(false);
    const stale = await call(client, 'click', { ref: button });
    expect(stale.isError).toBe(true);
    expect(stale.error).toMatchObject({ code: 'stale_ref', tool: 'click' });
    expect(stale.text.split('\n')).toHaveLength(2);
  });

  it('leases separate two MCP sessions: each session is its own agent', async () => {
    const alice = await mcpClient(relay.env, '--agent', 'alice');
    const bob = await mcpClient(relay.env);
    const nav = await call(alice, 'navigate', { url: relay.server.url(`/button.html?lease=${Date.now().toString(36)}`) });
    const tabId = (nav.json as { tabId: number }).tabId;
    const claim = await call(alice, 'lease_claim', { tab: tabId });
    expect(claim.isError, claim.text).toBe(false);
    expect(claim.json).toMatchObject({ lease: { owner: 'alice', target: String(tabId) } });

    const snap = await call(alice, 'snapshot', { tab: tabId });
    const button = refFor(snap.text, /button "Increment"/).slice(1);
    const blocked = await call(bob, 'click', { ref: button });
    expect(blocked.error).toMatchObject({ code: 'target_conflict', details: { reason: 'leased', owner: 'alice' } });
    const page = await relay.page('lease=');
    expect(await read<number>(page, 'window.clicks')).toBe(0);

    expect((await call(alice, 'click', { ref: button })).isError).toBe(false);
    await until(async () => (await read<number>(page, 'window.clicks')) === 1, 5000, 'the owner\'s click');
    const released = await call(alice, 'lease_release', { tab: tabId });
    expect(released.isError, released.text).toBe(false);
    expect((await call(bob, 'click', { ref: button })).isError).toBe(false);
  });
});
