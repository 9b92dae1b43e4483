/** Small helpers shared by e2e files: open a fixture under a unique URL, find refs in snapshot text. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Page } from 'puppeteer-core';
import { startFixtureServer, type FixtureServer } from './fixtureServer.js';
import { CLI, startRelay, type CliResult, type Relay } from './harness.js';

export interface Opened {
  tabId: number;
  path: string;
  url: string;
}

let counter = 0;

/** Open a fixture in a new background tab (--new-tab) under a unique URL, so the observer finds exactly this tab. */
export async function open(relay: Relay, path: string): Promise<Opened> {
  const unique = `${path}${path.includes('?') ? '&' : '?'}u=${Date.now().toString(36)}${++counter}`;
  const nav = await relay.cli('navigate', relay.server.url(unique), '--new-tab', '--json');
  expect(nav.code, nav.stderr).toBe(0);
  const { tabId, url } = nav.json as { tabId: number; url: string };
  return { tabId, path: unique, url };
}

/** Run a command that must succeed (the failure shows its command line and stderr); its answer with --json. */
export async function okJson(relay: Relay, ...args: string[]): Promise<Record<string, unknown>> {
  const result = await relay.cli('--json', ...args);
  expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(0);
  return result.json as Record<string, unknown>;
}

/** Run a command that must succeed (the failure shows its command line and stderr); what it printed. */
export async function okText(relay: Relay, ...args: string[]): Promise<string> {
  const result = await relay.cli(...args);
  expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

export async function snapshot(relay: Relay, tabId: number): Promise<string> {
  return okText(relay, 'snapshot', '--tab', String(tabId));
}

/** A node of `snapshot --json`'s tree, with the fields the e2e read. */
export interface JsonNode {
  role: string;
  name?: string;
  ref?: string;
  value?: string;
  valueLength?: number;
  children?: JsonNode[];
}

/** Every node of a `snapshot --json` tree, depth first. */
export function nodes(tree: readonly JsonNode[], out: JsonNode[] = []): JsonNode[] {
  for (const node of tree) {
    out.push(node);
    if (node.children !== undefined) nodes(node.children, out);
  }
  return out;
}

/** The tab's snapshot as its nodes (`snapshot --json`, with `extra` flags). */
export async function snapshotNodes(relay: Relay, tabId: number, ...extra: string[]): Promise<JsonNode[]> {
  const result = await okJson(relay, 'snapshot', '--tab', String(tabId), '--json', ...extra);
  return nodes(result.tree as JsonNode[]);
}

/** The ref on the first line matching `pattern` (or the nth match), as `@eN`. */
export function refFor(text: string, pattern: RegExp, nth = 0): string {
  const lines = text.split('\n').filter((l) => pattern.test(l));
  const ref = lines[nth] && /\[ref=(e\d+)\]/.exec(lines[nth])?.[1];
  if (!ref) throw new Error(`no ref #${nth} for ${pattern} in:\n${text}`);
  return `@${ref}`;
}

export function allRefs(text: string): number[] {
  return [...text.matchAll(/\[ref=e(\d+)\]/g)].map((m) => Number(m[1]));
}

/**
 * Read a value the page itself keeps (observation only). Right after a navigation chrome-relay reported
 * as done, the observer's own connection may still hold the old document's context for a moment
 * ("Execution context was destroyed"): that is the observer lagging, so ask again, briefly.
 */
export async function read<T>(page: Page, expression: string): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await page.evaluate(expression)) as T;
    } catch (error) {
      const lagging = error instanceof Error && /Execution context was destroyed|Cannot find context/.test(error.message);
      if (!lagging || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** The environment as a child process takes it (no unset entries). */
export const stringEnv = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));

/** An MCP client from the official SDK, connected over stdio to `chrome-relay mcp …args` of the built CLI. */
export async function mcpClient(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env: stringEnv(env), stderr: 'pipe' });
  const client = new Client({ name: 'chrome-relay-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** What a file with cross-site pages works with: the relay, and a second fixture server on another site. */
export interface CrossSiteRig {
  readonly relay: Relay;
  /** 127.0.0.2: another site than the relay's fixture server, so its frames are out of process. */
  readonly crossServer: FixtureServer;
}

/** Start both once for the file (call at its top level), stop them after it. */
export function crossSiteRig(): CrossSiteRig {
  let relay: Relay | undefined;
  let crossServer: FixtureServer | undefined;
  beforeAll(async () => {
    relay = await startRelay();
    crossServer = await startFixtureServer('127.0.0.2');
  });
  afterAll(async () => {
    await relay?.stop();
    await crossServer?.close();
  });
  return {
    get relay() {
      return ready(relay);
    },
    get crossServer() {
      return ready(crossServer);
    },
  };
}

/** A rig's part, once its beforeAll ran. */
export function ready<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('an e2e rig is used before its beforeAll ran');
  return value;
}

/**
 * A CLI that keeps every answer it was given (stdout and stderr), so a test can say a secret or the person's page
 * appears in none of them. `relay` is read at each call: the relay starts in beforeAll.
 */
export function keptAnswers(relay: () => Relay): { told: string[]; cli: (...args: string[]) => Promise<CliResult> } {
  const told: string[] = [];
  const cli = async (...args: string[]): Promise<CliResult> => {
    const result = await relay().cli(...args);
    told.push(result.stdout, result.stderr);
    return result;
  };
  return { told, cli };
}
