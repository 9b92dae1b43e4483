/**
 * The agent never ends or crashes the person's browser, whatever URL it hands chrome-relay. `navigate about:version`
 * once took the whole browser down with every tab the person had open (Page.navigate to about:/chrome: pages, and to
 * about:blank#x in a fresh tab). The person has a tab of their own open with an unsaved draft; then every URL of a
 * seeded fuzz — the browser's own pages (about:, chrome:, chrome-untrusted:, chrome-search:, devtools:,
 * view-source:, the debug pages that quit, crash or hang it), javascript:, data:, blob:, filesystem:, file:, an
 * extension's page, other schemes, each in several spellings (case, spaces, a tab or newline inside, percent-encoding,
 * no slashes, a fragment or query) — goes through every road an agent has:
 *
 *   - `navigate <url>` (a new tab), for every URL;
 *   - `navigate <url> --tab <its own tab>` and `navigate` over MCP (the official SDK client), each for every other URL
 *     (alternating so that URLs as written and respelled reach both; the roads share one gate, and CI's time is spent
 *     on more URLs rather than on every road for each);
 *   - `workspace create --url <url>` for every third, and a `batch` of navigate steps for every target as written;
 *
 * and after each URL: the browser process is alive, the person's tab is there with their draft, and the answer was
 * either success or a closed code whose message names the move (never internal_error or a lost browser). The seed is
 * printed; E2E_URL_SEED=N replays a run.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '@chrome-relay/protocol/src/testing/prng.js';
import { CLI, EXTENSION_ID, startRelay, type CliResult, type Relay } from './harness.js';
import { mcpClient, open, read, stringEnv } from './helpers.js';
import { spawnSync } from 'node:child_process';

const SEED = Number(process.env.E2E_URL_SEED ?? Date.now() % 1_000_000);
const DRAFT = 'Dear Sam, about the raise — please keep this between us.';
/** What an answer may be when it is not a success: a refusal the agent can act on. Never a lost browser or a bug. */
const REFUSALS = ['target_conflict', 'invalid_arguments', 'target_not_found', 'cdp_error', 'chrome_api_error', 'timeout'];

let relay: Relay;
let mcp: Client;
let person: Page;

beforeAll(async () => {
  relay = await startRelay();
  mcp = await mcpClient(relay.env);
  person = await relay.devtools.newPage();
  await person.goto(relay.server.url('/salary-draft.html?person=1'));
  await person.type('#draft', DRAFT);
}, 90_000);
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await relay?.stop();
});

/** The URLs of the fuzz: each target as written, and a respelling of it drawn from the seed. */
function corpus(): { urls: string[]; written: string[] } {
  const origin = relay.server.origin;
  const targets = [
    'about:version',
    'about:settings',
    'about:blank#x',
    'about:blank?q=1',
    'about:srcdoc',
    'about:crash',
    'about:kill',
    'about:hang',
    'about:quit',
    'about:restart',
    'about:inducebrowsercrashforrealz',
    'chrome://version',
    'chrome://settings/passwords',
    'chrome://quit',
    'chrome://restart',
    'chrome://crash',
    'chrome://kill',
    'chrome://hang',
    'chrome://gpucrash',
    'chrome://inducebrowsercrashforrealz',
    'chrome://memory-exhaust',
    'chrome://extensions',
    'chrome://newtab',
    'chrome-untrusted://crosh/',
    'chrome-search://local-ntp/local-ntp.html',
    'chrome-error://chromewebdata/',
    'devtools://devtools/bundled/inspector.html',
    `view-source:${origin}/button.html`,
    'view-source:chrome://version',
    'javascript:window.close()',
    'javascript:location="about:version"',
    'data:text/html,<script>window.close()</script>',
    'data:text/html,<script>location.href="about:version"</script>',
    'data:text/html,<a href="chrome://quit" id=a>x</a><script>a.click()</script>',
    `blob:${origin}/0f6c1c4e-3c1e-4f0a-9f4e-3b3b3b3b3b3b`,
    `filesystem:${origin}/temporary/x.html`,
    'file:///etc/passwd',
    `chrome-extension://${EXTENSION_ID}/options.html`,
    'ws://127.0.0.1/',
    'ftp://127.0.0.1/',
    'mailto:person@example.com',
    'intent://x#Intent;scheme=http;end',
    'edge://settings',
    'not a url',
  ];
  const rng = createRng(SEED);
  const respell: ((url: string) => string)[] = [
    (url) => url.replace(/^[a-z-]+:/i, (scheme) => scheme.toUpperCase()),
    (url) => `  ${url}\t`,
    (url) => url.replace(/^([a-z])/i, '$1\n'),
    (url) => url.replace(/^([a-z-]+:)(\/\/)?([a-z])/i, (_m, scheme: string, slashes: string | undefined, first: string) => `${scheme}${slashes ?? ''}%${first.charCodeAt(0).toString(16)}`),
    (url) => url.replace(/^([a-z-]+:)\/\//i, '$1'),
    (url) => `${url}#frag`,
    (url) => `${url}${url.includes('?') ? '&' : '?'}x=1`,
  ];
  const out: string[] = [];
  for (const target of targets) {
    out.push(target);
    out.push(rng.pick(respell)(target));
  }
  return { urls: [...new Set(out)], written: targets };
}

/** The browser is running, and the person's tab is there with their draft. */
async function personIntact(what: string): Promise<void> {
  let alive = true;
  try {
    process.kill(relay.browserPid, 0);
  } catch {
    alive = false;
  }
  expect(alive, `the browser died after ${what} (seed ${SEED})`).toBe(true);
  expect(await read<string>(person, 'document.getElementById("draft").value'), `the person's draft after ${what}`).toBe(DRAFT);
}

/** Success, or a closed refusal that says what to do. */
function settled(result: { ok: boolean; code?: string; message?: string }, what: string): void {
  if (result.ok) return;
  expect(REFUSALS, `${what}: ${result.code ?? '?'} ${result.message ?? ''}`).toContain(result.code);
  // The move: a command to run (in backticks; over MCP a tool's name), or the person to ask.
  expect(result.message ?? '', what).toMatch(/`[^`]+`|drop --tab|ask the person/i);
}

const fromCli = (result: CliResult): { ok: boolean; code?: string; message?: string; tabId?: number } =>
  result.code === 0 ? { ok: true, tabId: (result.json as { tabId?: number } | undefined)?.tabId } : { ok: false, code: result.error?.code, message: result.error?.message };

describe('every URL an agent can pass is opened safely or refused, and the browser lives', () => {
  it(`a fuzz over schemes and the browser's own pages, through navigate, --tab, workspace, batch and MCP`, async () => {
    console.log(`control-urls: seed ${SEED} (E2E_URL_SEED=${SEED} replays it)`);
    const { urls, written } = corpus();
    const own = await open(relay, '/button.html');
    const opened: number[] = [];
    let workspaces = 0;
    for (const [index, url] of urls.entries()) {
      const what = JSON.stringify(url);
      const fresh = fromCli(await relay.cli('navigate', url, '--new-tab', '--wait', 'commit', '--timeout', '15000', '--json'));
      settled(fresh, `navigate ${what}`);
      if (fresh.tabId !== undefined) opened.push(fresh.tabId);
      await personIntact(`navigate ${what}`);

      // Half the URLs each, in the pattern 0 1 1 0: as written and respelled both reach both roads.
      if ((index + Math.floor(index / 2)) % 2 === 0) {
        const given = fromCli(await relay.cli('navigate', url, '--tab', String(own.tabId), '--wait', 'commit', '--timeout', '15000', '--json'));
        settled(given, `navigate ${what} --tab`);
        await personIntact(`navigate ${what} --tab`);
        // The agent's tab comes back to a page of its own for the next URL (a success may have left it anywhere).
        if (given.ok) expect((await relay.cli('navigate', relay.server.url('/button.html'), '--tab', String(own.tabId))).code).toBe(0);
      } else {
        const viaMcp = await mcp.callTool({ name: 'navigate', arguments: { url, wait: 'commit', newTab: true } });
        const block = (viaMcp.structuredContent as { relayError?: { code: string; message: string }; tabId?: number } | undefined) ?? {};
        settled(viaMcp.isError === true ? { ok: false, code: block.relayError?.code, message: block.relayError?.message } : { ok: true }, `MCP navigate ${what}`);
        if (typeof block.tabId === 'number') opened.push(block.tabId);
        await personIntact(`MCP navigate ${what}`);
      }

      // A workspace for the URLs as written (each opens a window of its own).
      if (index % 3 === 0) {
        const name = `fuzz${index}`;
        const workspace = await relay.cli('workspace', 'create', name, '--url', url);
        settled(fromCli(workspace), `workspace create --url ${what}`);
        if (workspace.code === 0) {
          workspaces++;
          await relay.cli('workspace', 'close', name);
        }
        await personIntact(`workspace create --url ${what}`);
      }
      if (opened.length > 10) {
        await relay.cli('close', ...opened.splice(0).map(String));
      }
    }

    // A batch of the URLs as written (each step is the CLI run again, so the respellings add nothing there): each
    // step its own closed answer, the browser alive after.
    for (let from = 0; from < written.length; from += 100) {
      const chunk = written.slice(from, from + 100);
      const steps = chunk.map((url) => ({ command: 'navigate', args: [url, '--new-tab', '--wait', 'commit'] }));
      const batch = spawnSync(process.execPath, [CLI, '--json', 'batch', '--no-bail'], { env: stringEnv(relay.env), input: JSON.stringify(steps), encoding: 'utf8', timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
      expect(batch.stdout, batch.stderr).not.toBe('');
      const results = (JSON.parse(batch.stdout) as { results: { ok: boolean; result?: { tabId?: number }; error?: { code: string; message: string } }[] }).results;
      expect(results).toHaveLength(chunk.length);
      for (const [index, step] of results.entries()) {
        settled(step.ok ? { ok: true } : { ok: false, code: step.error?.code, message: step.error?.message }, `batch navigate ${JSON.stringify(chunk[index])}`);
        if (step.result?.tabId !== undefined) opened.push(step.result.tabId);
      }
      await personIntact('a batch');
    }
    if (opened.length > 0) await relay.cli('close', ...opened.map(String));
    // The person's tab was never touched: still there, with the draft, and no agent ever attached to it.
    await personIntact('the whole fuzz');
    console.log(`control-urls: ${urls.length} URLs, ${workspaces} workspaces opened and closed`);
  }, 900_000);
});
