/**
 * Refreshes docs/popup.png, the README's picture of the toolbar popup: a headless browser launched like the
 * e2e suite does (built CLI, extension and host), two agents doing a little work through the CLI and a third through a
 * bridge (as from a container), then the popup opened as an extension page and photographed.
 *
 *   node scripts/build.mjs && node scripts/run-ts.mjs scripts/popup-screenshot.ts [--out docs/popup.png]
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, EXTENSION_ID, runCli, startRelay, type CliResult } from '../e2e/harness.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const outArg = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
const out = resolve(outArg ?? join(repo, 'docs/popup.png'));

function ok(result: CliResult, what: string): CliResult {
  if (result.code !== 0) throw new Error(`${what} failed: ${result.stderr}`);
  return result;
}

const relay = await startRelay({ headless: true });
try {
  const agent = (name: string, ...args: string[]): Promise<CliResult> => relay.cli(...args, '--agent', name);
  const news = ok(await agent('claude', 'navigate', relay.server.url('bench/news')), 'navigate').json as { tabId: number };
  const form = ok(await agent('codex', 'navigate', relay.server.url('bench/small')), 'navigate').json as { tabId: number };
  ok(await agent('codex', 'lease', 'claim', '--tab', String(form.tabId)), 'lease');
  const snap = ok(await agent('codex', 'snapshot', '--tab', String(form.tabId), '-i'), 'snapshot').stdout;
  const field = /textbox "[^"]*" \[ref=(e\d+)\]/.exec(snap)?.[1];
  if (field) ok(await agent('codex', 'fill', `@${field}`, 'Ada Lovelace'), 'fill');
  await agent('codex', 'click', '@e999');
  const headlines = ok(await agent('claude', 'snapshot', '--tab', String(news.tabId), '-i', '-d', '3'), 'snapshot').stdout;
  const link = /link "[^"]*" \[ref=(e\d+)\]/.exec(headlines)?.[1];
  if (link) ok(await agent('claude', 'hover', `@${link}`), 'hover');
  ok(await agent('claude', 'get', 'title', '--tab', String(news.tabId)), 'get');
  // An agent in a container, through a bridge listening on a socket: the popup names where its commands came from.
  const socket = join(relay.root, 'relay.sock');
  const bridge = spawn(process.execPath, [CLI, 'bridge', '--listen', socket, '--label', 'container'], { env: relay.env as Record<string, string>, stdio: 'ignore' });
  try {
    for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 25));
    const env = { ...relay.env, CHROME_RELAY_HOME: join(relay.root, 'container-agent'), CHROME_RELAY_ENDPOINT: `unix:${socket}`, CHROME_RELAY_AGENT: 'aider' };
    const page = ok(await runCli(['navigate', relay.server.url('bench/small')], env), 'navigate through the bridge').json as { tabId: number };
    ok(await runCli(['snapshot', '--tab', String(page.tabId), '-i'], env), 'snapshot through the bridge');
  } finally {
    bridge.kill();
  }

  const popup = await relay.devtools.newPage();
  await popup.setViewport({ width: 628, height: 800, deviceScaleFactor: 1 });
  await popup.goto(`chrome-extension://${EXTENSION_ID}/options.html`);
  await popup.evaluate(() =>
    chrome.runtime.sendMessage({ kind: 'saveSettings', settings: { blockedSites: ['bank.example.com', 'mail.example.com'], agentTabsOnly: false, idleDetachSeconds: 15, remoteAgents: true } }),
  );
  await popup.goto(`chrome-extension://${EXTENSION_ID}/popup.html`);
  await popup.waitForFunction(() => document.querySelectorAll('#recent tbody tr').length >= 8);
  const body = await popup.$('body');
  if (!body) throw new Error('the popup has no body');
  const png = await body.screenshot({ type: 'png' });
  writeFileSync(out, png);
  console.error(`popup-screenshot: wrote ${out} (${png.length} bytes)`);
} finally {
  await relay.stop();
}
