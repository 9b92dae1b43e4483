/**
 * Local files are the person's. A file with a secret sits on disk; the agent, through the built CLI and an MCP
 * server only, tries every road into file: while "Let agents open local files" is off (the default):
 *
 *   - navigate (a new tab, and --tab its own), workspace create --url, a batch step, MCP navigate: each refused with
 *     target_conflict/local_files, whose move is to ask the person; no tab ever shows the file;
 *   - from its own web page: a link to the file, script setting location or opening a window, a server redirect into
 *     file:, a data: page linking there — no page the agent can read ever holds the secret;
 * then the person turns it on in the options page: the agent opens and reads the file; the person turns it off
 * again: the tab showing it is refused (local_files) and no longer listed.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, startRelay, type CliResult, type Relay } from './harness.js';
import { keptAnswers, mcpClient, okJson, open, stringEnv } from './helpers.js';
import { extensionPage, saveOptions } from './personOptions.js';

const SECRET = 'local-file-SECRET-42';

let relay: Relay;
let mcp: Client;
let options: Page;
let file = '';
let fileUrl = '';
const { told, cli } = keptAnswers(() => relay);

beforeAll(async () => {
  relay = await startRelay();
  mcp = await mcpClient(relay.env);
  options = await extensionPage(relay, 'options.html');
  file = join(relay.root, 'notes.txt');
  writeFileSync(file, `The person's notes: ${SECRET}\n`);
  fileUrl = `file://${file}`;
}, 90_000);
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await relay?.stop();
});

function refused(result: CliResult, what: string): void {
  expect(result.code, `${what}: ${result.stdout}`).toBe(1);
  expect(result.error, `${what}: ${result.stderr}`).toMatchObject({ code: 'target_conflict', details: { reason: 'local_files' } });
  expect(result.error?.message, what).toMatch(/ask the person/i);
}

/** Every tab the browser has, as the person's side sees it: none may show the file. */
async function fileTabs(): Promise<string[]> {
  return options.evaluate(() => chrome.tabs.query({}).then((tabs) => tabs.map((t) => t.url || t.pendingUrl || '').filter((url) => url.startsWith('file:'))));
}

describe('local files, while the person has not allowed them (the default)', () => {
  it('navigate, --tab, workspace, batch, MCP and every road from its pages: refused or nowhere, and no tab shows the file', async () => {
    const own = await open(relay, '/button.html');
    for (const url of [fileUrl, 'file:///etc/passwd', 'FILE:///etc/passwd', ' file://localhost/etc/passwd', 'file:/etc/passwd']) {
      refused(await cli('navigate', url), `navigate ${url}`);
      refused(await cli('navigate', url, '--tab', String(own.tabId)), `navigate ${url} --tab`);
    }
    refused(await cli('workspace', 'create', 'files', '--url', fileUrl), 'workspace create --url');
    const batch = spawnSync(process.execPath, [CLI, '--json', 'batch'], { env: stringEnv(relay.env), input: JSON.stringify([{ command: 'navigate', args: [fileUrl] }]), encoding: 'utf8', timeout: 60_000 });
    told.push(batch.stdout, batch.stderr);
    expect(batch.status).toBe(1);
    expect(batch.stdout).toContain('local_files');
    const viaMcp = await mcp.callTool({ name: 'navigate', arguments: { url: fileUrl } });
    told.push(JSON.stringify(viaMcp));
    expect(viaMcp.isError).toBe(true);
    expect(JSON.stringify(viaMcp)).toContain('local_files');
    expect(await fileTabs()).toEqual([]);

    // Nor does any road from the agent's own pages: links, script, windows, redirects, data: pages (Chrome's own
    // rule keeps web pages out of file:; kept here beside the direct roads).
    const t = String(own.tabId);
    const link = `document.body.insertAdjacentHTML('beforeend', '<a id=f href=${JSON.stringify(fileUrl)}>f</a>'); document.getElementById('f').click(); 1`;
    for (const expression of [link, `location.href = ${JSON.stringify(fileUrl)}; 1`, `window.open(${JSON.stringify(fileUrl)}); 1`]) {
      await cli('js', '--tab', t, expression);
    }
    await cli('navigate', relay.server.url(`/redirect?to=${encodeURIComponent(fileUrl)}`), '--new-tab');
    await cli('navigate', `data:text/html,<a id=f href="${fileUrl}">f</a><script>f.click()</script>`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await fileTabs()).toEqual([]);
    const tabs = await okJson(relay, 'tabs');
    for (const id of (tabs.windows as { tabs: { id: number }[] }[]).flatMap((w) => w.tabs.map((tab) => tab.id))) {
      told.push(JSON.stringify(await cli('get', 'text', '-s', 'body', '--tab', String(id))));
    }
    for (const text of told) expect(text).not.toContain(SECRET);
  });
});

describe('local files, once the person allows them', () => {
  it('the agent opens and reads one; when the person turns it off again, the tab is refused and no longer listed', async () => {
    await saveOptions(options, { agentFiles: true });
    const opened = await okJson(relay, 'navigate', fileUrl);
    const tabId = opened.tabId as number;
    expect((await okJson(relay, 'get', 'text', '-s', 'body', '--tab', String(tabId))).value).toContain(SECRET);
    await saveOptions(options, { agentFiles: false });
    refused(await relay.cli('get', 'text', '-s', 'body', '--tab', String(tabId)), 'get text in the file tab once files are off');
    refused(await relay.cli('snapshot', '--tab', String(tabId)), 'snapshot in the file tab once files are off');
    const tabs = await okJson(relay, 'tabs');
    expect((tabs.windows as { tabs: { id: number }[] }[]).flatMap((w) => w.tabs.map((tab) => tab.id))).not.toContain(tabId);
  });
});
