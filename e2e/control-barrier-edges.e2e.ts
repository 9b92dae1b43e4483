/**
 * The barrier follows everything an agent's page starts (packages/extension/src/policy/netBarrier.ts): windows it
 * opens from any origin, workers that outlive its tab, what it sends as it closes. The person signed in on the
 * blocked site (127.0.0.2) in their own tab, so a request that reached it would carry their session cookie; the
 * person sets the rules in the options page; agents act through the built CLI and MCP; what reached each site is
 * counted at its own fixture server.
 *
 *   - windows: a target=_blank link, window.open, a form posted to a new window and about:blank windows written
 *     into (a script, a meta refresh), from a data: page; window.open from a sandboxed frame; noopener and
 *     noreferrer windows; a blob: window — nothing reaches the blocked site, with or without the cookie;
 *   - the person is not caught by it: their own new tab straight onto the blocked site (a bookmark) and a window
 *     their page opens get there, with their cookie;
 *   - workers: a service worker, a shared worker and a dedicated worker the agent's page started, running (they
 *     reach an open site all along), reach nothing blocked while the tab lives and after the agent closed it;
 *   - a beacon a closing page sent, redirected onto the blocked site after the tab is gone, gets nowhere.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from './fixtureRoutes.js';
import { startFixtureServer, type FixtureServer } from './fixtureServer.js';
import { until } from './harness.js';
import { mcpClient, okJson, open, refFor, snapshot } from './helpers.js';
import { blockListRig, saveOptions } from './personOptions.js';

const rig = blockListRig();
/** The agent's own site: another origin than the relay's pages, whose workers are the agent's alone. */
let agentSite: FixtureServer;
let mcp: Client | undefined;
beforeAll(async () => {
  agentSite = await startFixtureServer('127.0.0.3');
  mcp = await mcpClient(rig.relay.env, '--caps', 'all');
  // The person signs in on the site they will block: their browser holds its session cookie from now on.
  const person = await rig.relay.devtools.newPage();
  await person.goto(rig.crossServer.url('/session'));
  await person.close();
});
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await agentSite?.close();
});

const ACTION = 'action=delete-account';
const blockedUrl = (via: string): string => rig.crossServer.url(`/x?${ACTION}&via=${via}`);
const dataPage = (html: string): string => `data:text/html,${encodeURIComponent(html)}`;

/**
 * What reached the blocked site from the agent's side since `from` (every agent road asks for the action). A test
 * counts from the moment its block list is saved: between tests the person empties it, and a worker an earlier
 * test started may reach the site then, as it may.
 */
function agentRequests(from: number): { path: string; cookie: string }[] {
  return rig.crossServer.requests.flatMap((path, i) => (i >= from && path.includes(ACTION) ? [{ path, cookie: rig.crossServer.cookies[i] ?? '' }] : []));
}

/** The person blocks 127.0.0.2; where counting starts. */
async function blockIt(): Promise<number> {
  await saveOptions(rig.options, { blocked: '127.0.0.2' });
  return rig.crossServer.requests.length;
}

/** The requests pages sent before now have arrived: a marker from a fresh agent tab has, and a little time passed. */
async function fence(): Promise<void> {
  const marker = `/fence-${Date.now().toString(36)}`;
  const tab = await open(rig.relay, '/button.html');
  await rig.relay.cli('js', '--tab', String(tab.tabId), `fetch(${JSON.stringify(rig.crossServer.url(marker))}, { mode: 'no-cors' }).then(() => 1, () => 0); fetch(${JSON.stringify(rig.relay.server.url(marker))}).then(() => 1, () => 0)`);
  await rig.relay.server.waitForRequest(marker);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await rig.relay.cli('close', '--tab', String(tab.tabId));
}

async function ok(...args: string[]): Promise<Record<string, unknown>> {
  return okJson(rig.relay, ...args);
}

async function navigateData(html: string): Promise<number> {
  return (await ok('navigate', dataPage(html), '--new-tab')).tabId as number;
}

/** The windows an agent's pages open, each asking for `target(via)`. */
const WINDOWS = ['data-link', 'data-noopener-link', 'data-open', 'data-form', 'data-blank-written', 'data-refresh', 'sandboxed', 'noopener', 'noreferrer', 'blank-then', 'blob'] as const;

async function openWindows(target: (via: string) => string): Promise<void> {
  // A data: page's links to a new window, clicked through the CLI and through MCP.
  const linkTab = await navigateData(`<a target=_blank href="${target('data-link')}">Delete</a> <a target=_blank rel=noopener href="${target('data-noopener-link')}">Quietly</a>`);
  const links = await snapshot(rig.relay, linkTab);
  expect((await rig.relay.cli('click', refFor(links, /link "Delete"/))).code).toBe(0);
  const viaMcp = await mcp?.callTool({ name: 'click', arguments: { ref: refFor(links, /link "Quietly"/).slice(1) } });
  expect(viaMcp?.isError ?? false).toBe(false);
  // A data: page's script: window.open, a form posted into a new window, an about:blank window it writes into.
  const scripted = await navigateData('<p>agent page</p>');
  await ok('js', '--tab', String(scripted), `window.open(${JSON.stringify(target('data-open'))}); 1`);
  await ok('js', '--tab', String(scripted), `const f = document.createElement('form'); f.method = 'post'; f.target = '_blank'; f.action = ${JSON.stringify(target('data-form'))}; document.body.append(f); f.submit(); 1`);
  await ok('js', '--tab', String(scripted), `const w = window.open(''); w.document.write('<script>location.href = ' + ${JSON.stringify(JSON.stringify(target('data-blank-written')))} + '<' + '/script>'); 1`);
  await ok('js', '--tab', String(scripted), `const w = window.open(''); w.document.write('<meta http-equiv="refresh" content="0;url=' + ${JSON.stringify(target('data-refresh'))} + '">'); w.document.close(); 1`);
  // An http page: a sandboxed frame's popup, noopener and noreferrer windows, a blank window sent on later.
  const page = (await open(rig.relay, '/button.html')).tabId;
  const sandboxed = `<button onclick="window.open('${target('sandboxed')}')">Sandboxed</button>`;
  await ok('js', '--tab', String(page), `const f = document.createElement('iframe'); f.sandbox = 'allow-scripts allow-popups'; f.srcdoc = ${JSON.stringify(sandboxed)}; document.body.append(f); new Promise((r) => f.onload = () => r(1))`);
  expect((await rig.relay.cli('click', refFor(await snapshot(rig.relay, page), /button "Sandboxed"/))).code).toBe(0);
  await ok('js', '--tab', String(page), `window.open(${JSON.stringify(target('noopener'))}, '_blank', 'noopener'); 1`);
  await ok('js', '--tab', String(page), `const a = document.createElement('a'); a.href = ${JSON.stringify(target('noreferrer'))}; a.target = '_blank'; a.rel = 'noreferrer'; document.body.append(a); a.click(); 1`);
  await ok('js', '--tab', String(page), `const w = window.open(''); setTimeout(() => { w.location = ${JSON.stringify(target('blank-then'))}; }, 300); 1`);
  await ok('js', '--tab', String(page), `window.open(URL.createObjectURL(new Blob(['<script>location.href = ' + ${JSON.stringify(JSON.stringify(target('blob')))} + '<' + '/script>'], { type: 'text/html' }))); 1`);
}

describe('the barrier follows what an agent page starts', () => {
  it("no window an agent page opens reaches a blocked site — from a data: page, a sandboxed frame, noopener, noreferrer — and the person's own windows do", async () => {
    // The control: against the agent's own site, every one of these windows sends its request.
    await openWindows((via) => agentSite.url(`/x?${ACTION}&via=${via}`));
    for (const via of WINDOWS) await agentSite.waitForRequest(`/x?${ACTION}&via=${via}`);

    const from = await blockIt();
    await openWindows(blockedUrl);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await fence();
    expect(agentRequests(from)).toEqual([]);

    // The person is not caught by it, while agents are at work: a bookmark opened in a new tab (Chrome opens it, no
    // page does) and a window their own page opens reach the site, with their session.
    const bookmark = rig.crossServer.url(`/mine?bookmark=${Date.now().toString(36)}`);
    await rig.options.evaluate((url) => chrome.tabs.create({ url, active: false }).then(() => undefined), bookmark);
    await until(() => rig.crossServer.requests.some((r) => bookmark.endsWith(r)), 10_000, "the person's new tab reaching their site");
    const person = await rig.relay.devtools.newPage();
    try {
      await person.goto(rig.relay.server.url('/personal.html'));
      const popup = rig.crossServer.url(`/mine?popup=${Date.now().toString(36)}`);
      await person.evaluate((url) => void window.open(url), popup);
      await until(() => rig.crossServer.requests.some((r) => popup.endsWith(r)), 10_000, "the person's window reaching their site");
      const cookies = rig.crossServer.requests.flatMap((r, i) => (r.startsWith('/mine?') ? [rig.crossServer.cookies[i]] : []));
      expect(cookies.length).toBeGreaterThanOrEqual(2);
      for (const cookie of cookies) expect(cookie).toContain(SESSION_COOKIE);
    } finally {
      await person.close();
    }
  });

  it('workers an agent page started reach nothing blocked, while its tab lives and after the agent closed it', async () => {
    const from = await blockIt();
    // A site of the workers' own, which no other tab shows: once its one tab is closed, only the workers remain.
    const workerSite = await startFixtureServer('127.0.0.5');
    const worker = (kind: string): string => workerSite.url(`/worker.js?kind=${kind}&every=200&to=${encodeURIComponent(blockedUrl(kind))}&also=${encodeURIComponent(workerSite.url(`/alive-${kind}`))}`);
    const tab = (await ok('navigate', workerSite.url('/button.html'), '--new-tab')).tabId as number;
    const started = await ok(
      'js',
      '--tab',
      String(tab),
      `navigator.serviceWorker.register(${JSON.stringify(worker('service'))}, { scope: '/' }).then(() => { window.s = new SharedWorker(${JSON.stringify(worker('shared'))}); window.d = new Worker(${JSON.stringify(worker('dedicated'))}); return 'started'; })`,
    );
    expect(started.value).toBe('started');
    const alive = (kind: string): number => workerSite.requests.filter((r) => r.startsWith(`/alive-${kind}`)).length;
    // They run: each reaches the open site, again and again.
    await until(() => alive('service') > 3 && alive('shared') > 3 && alive('dedicated') > 3, 10_000, 'the workers running');
    await ok('close', '--tab', String(tab));
    // The agent has no tab left on its site; its service worker goes on (Chrome keeps it up to 30 s after its last event).
    const atClose = alive('service');
    await until(() => alive('service') > atClose + 15, 15_000, 'the service worker running on after its tab closed');
    await fence();
    await workerSite.close();
    expect(agentRequests(from)).toEqual([]);
  });

  it('a beacon a closing agent page sends, redirected onto the blocked site after its tab is gone, gets nowhere', async () => {
    const from = await blockIt();
    // A site no other tab shows: once its one tab is closed, nothing but that tab's id ties the request to an agent.
    const closingSite = await startFixtureServer('127.0.0.4');
    const tab = (await ok('navigate', closingSite.url('/button.html?closing=1'), '--new-tab')).tabId as number;
    const late = closingSite.url(`/redirect?ms=1500&to=${encodeURIComponent(blockedUrl('beacon-redirect'))}`);
    await ok('js', '--tab', String(tab), `addEventListener('pagehide', () => { navigator.sendBeacon(${JSON.stringify(late)}, 'x'); fetch(${JSON.stringify(`${late}&k=1`)}, { method: 'POST', body: 'x', keepalive: true, mode: 'no-cors', credentials: 'include' }); }); 1`);
    await ok('close', '--tab', String(tab));
    await closingSite.waitForRequest('/redirect?ms=1500');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await fence();
    await closingSite.close();
    expect(agentRequests(from)).toEqual([]);
  });
});
