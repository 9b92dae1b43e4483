/**
 * The person's controls are never the agent's. The person opens chrome-relay's options page and its popup (as
 * tabs: that is how a test opens them, and a person can too), pauses and sets a block list there; the agent,
 * through the built CLI and an MCP server only, tries every way into them:
 *
 *   - `tabs` does not list those tabs (it counts them with the person's others);
 *   - snapshot, js, click, fill, keys, screenshot, close and navigate on them fail `person_page`, and a navigate to
 *     an extension URL (in a new tab or its own) fails the same way;
 *   - from its own page, script can neither load an extension page nor message the service worker;
 *   - while paused, every one of those fails `paused_by_user` and the pause holds;
 *   - at the end the person's settings and pause are exactly what the person left.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID, startRelay, until, type CliResult, type Relay } from './harness.js';
import { mcpClient, okJson, open } from './helpers.js';
import { extensionPage, personClicks, personTabIds, saveOptions } from './personOptions.js';

let relay: Relay;
let options: Page;
let popup: Page;
let mcp: Client;
const EXT = `chrome-extension://${EXTENSION_ID}`;

beforeAll(async () => {
  relay = await startRelay();
  options = await extensionPage(relay, 'options.html');
  popup = await extensionPage(relay, 'popup.html');
  mcp = await mcpClient(relay.env, '--caps', 'all');
}, 90_000);
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await relay?.stop();
});

interface Listed {
  id: number;
  url: string;
  title: string;
}

async function listed(): Promise<Listed[]> {
  const tabs = await okJson(relay, 'tabs', '--json');
  return (tabs.windows as { tabs: Listed[] }[]).flatMap((w) => w.tabs);
}

/** The person's own pages, the options page and the popup: never listed to agents, so their ids come from the person's side. */
async function personTabs(): Promise<{ options: number; popup: number }> {
  expect((await listed()).filter((t) => t.url.includes('chrome-extension'))).toEqual([]);
  const [first] = await personTabIds(options, `${EXT}/options.html`);
  const [second] = await personTabIds(options, `${EXT}/popup.html`);
  if (first === undefined || second === undefined) throw new Error('the options page or the popup is not open');
  return { options: first, popup: second };
}

function expectRefused(result: CliResult, reason: string, what: string): void {
  expect(result.code, `${what}: ${result.stdout}`).toBe(1);
  expect(result.error?.details['reason'], `${what}: ${result.stderr}`).toBe(reason);
}

/** Every way the agent might act in a tab, through the CLI. */
function attempts(tab: number): string[][] {
  const t = String(tab);
  return [
    ['snapshot', '--tab', t],
    ['js', '--tab', t, 'chrome.runtime.sendMessage({ kind: "saveSettings", settings: { blockedSites: [], agentTabsOnly: false, idleDetachSeconds: 15 } })'],
    ['js', '--tab', t, 'chrome.runtime.sendMessage({ kind: "setPaused", paused: false })'],
    ['click', '--tab', t, '--x', '20', '--y', '20'],
    ['keys', '--tab', t, 'Enter'],
    ['screenshot', '--tab', t],
    ['get', 'title', '--tab', t],
    ['navigate', '--tab', t, relay.server.url('/button.html')],
    ['close', '--tab', t],
  ];
}

async function mcpRefusal(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await mcp.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result)}`).toBe(true);
  return JSON.stringify(result);
}

describe("the person's own pages", () => {
  it('are not listed and refuse every command, through the CLI and MCP, whatever the settings', async () => {
    await saveOptions(options, { blocked: 'bank.example', agentTabsOnly: false });
    const tabs = await personTabs();
    for (const tab of [tabs.options, tabs.popup]) {
      for (const args of attempts(tab)) expectRefused(await relay.cli(...args), 'person_page', args.join(' '));
    }
    expect(await mcpRefusal('snapshot', { tab: tabs.options })).toContain('person_page');
    expect(await mcpRefusal('js', { tab: tabs.options, expression: 'chrome.runtime.id' })).toContain('person_page');
    // Opening one is refused too, in a new tab or the agent's own.
    expectRefused(await relay.cli('navigate', `${EXT}/options.html`), 'person_page', 'navigate to the options page');
    const mine = await open(relay, '/button.html');
    expectRefused(await relay.cli('navigate', '--tab', String(mine.tabId), `${EXT}/popup.html`), 'person_page', 'navigate its own tab there');
    expect(await mcpRefusal('navigate', { url: `${EXT}/options.html` })).toContain('person_page');
    // Both pages are still open, untouched.
    expect((await personTabIds(options, EXT)).length).toBe(2);
  });

  it("from the agent's own page, script reaches neither the extension's pages nor its service worker", async () => {
    const mine = await open(relay, '/button.html');
    const page = await relay.page(mine.path);
    const tab = String(mine.tabId);
    const runtime = await okJson(relay, 'js', '--tab', tab, 'typeof chrome === "object" && chrome.runtime !== undefined && typeof chrome.runtime.sendMessage');
    expect(runtime.value).toBe(false);
    await relay.cli('js', '--tab', tab, `location.href = ${JSON.stringify(`${EXT}/options.html`)}`);
    await relay.cli('js', '--tab', tab, `window.open(${JSON.stringify(`${EXT}/options.html`)})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Chrome refuses a web page's navigation to an extension page that is not web-accessible (none of ours is).
    expect(page.url()).not.toContain(EXTENSION_ID);
    const extensionPages = (await relay.devtools.pages()).filter((p) => p.url().startsWith(EXT) && !p.url().includes('chrome-extension-invalid'));
    expect(extensionPages.map((p) => p.url()).sort()).toEqual([`${EXT}/options.html`, `${EXT}/popup.html`]);
  });

  it('while the person pauses, every way is refused as paused, and the pause and the settings hold', async () => {
    await saveOptions(options, { blocked: 'bank.example', agentTabsOnly: true });
    const tabs = await personTabs();
    await personClicks(popup, '#pause');
    await until(async () => (await popup.$eval('#pause', (el) => el.getAttribute('aria-pressed'))) === 'true', 5000, 'paused');
    for (const args of attempts(tabs.options)) expectRefused(await relay.cli(...args), 'paused_by_user', args.join(' '));
    expect(await mcpRefusal('tabs', {})).toContain('paused_by_user');
    expect(await popup.$eval('#pause', (el) => el.getAttribute('aria-pressed'))).toBe('true');
    await personClicks(popup, '#pause');
    await until(async () => (await popup.$eval('#pause', (el) => el.getAttribute('aria-pressed'))) === 'false', 5000, 'resumed');
    await options.reload();
    await until(async () => (await options.$eval('#blocked', (el) => (el as HTMLTextAreaElement).value)) === 'bank.example', 5000, 'settings as the person left them');
    expect(await options.$eval('#agent-tabs-only', (el) => (el as HTMLInputElement).checked)).toBe(true);
  });
});
