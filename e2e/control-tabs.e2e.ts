/**
 * Agent tabs are only what agents opened, or what the person shared; leases are freed only by the person; doctor
 * tells a pause for what it is. The person acts in their own UI — the real toolbar popup (opened the way Chrome
 * opens it, over the window they look at) and the options page — and in their own tabs; agents only through the
 * built CLI.
 *
 *   - "agent tabs only" is on in a fresh profile: a tab the person opens is refused, even one Chrome records as
 *     opened from an agent tab (Ctrl+T while the agent's tab is in front);
 *   - a window the agent's page opens (a target=_blank link it clicks) is the agent's;
 *   - the person shares their tab from the popup ("Let agents use this tab"): the agent can act there; "Stop
 *     sharing" takes it back at once (refused, detached, its page loaded afresh under a new id);
 *   - another agent cannot free a lease (no --force, and the refusal's move says to ask the person); the person
 *     frees it from the popup and the other agent works;
 *   - doctor while paused says "paused by the person since …" with target_conflict/paused_by_user, not a stuck page.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, until, type CliResult, type Relay } from './harness.js';
import { okJson, open, read, refFor, snapshot } from './helpers.js';
import { extensionPage, openPopupOver as openPopupAbove, personClicks, personTabIds } from './personOptions.js';

let relay: Relay;
let options: Page;

beforeAll(async () => {
  relay = await startRelay();
  options = await extensionPage(relay, 'options.html');
});
afterAll(async () => {
  await relay?.stop();
});

function refused(result: CliResult, reason: string): void {
  expect(result.code, result.stdout).toBe(1);
  expect(result.error?.details['reason'], result.stderr).toBe(reason);
}

/** The id of the tab showing `url` (unique), as the person's side sees it: agents are not shown the person's tabs. */
async function tabIdOf(url: string): Promise<number> {
  const [found] = await personTabIds(options, url);
  if (found === undefined) throw new Error(`no tab shows ${url}`);
  return found;
}

/** The popup over `page`, opened as the person opens it (personOptions.ts). */
function openPopupOver(page: Page): Promise<Page> {
  return openPopupAbove(relay, options, page);
}

/** The person presses a button of the real popup. */
async function press(popup: Page, selector: string): Promise<void> {
  await popup.click(selector);
}

describe('agent tabs', () => {
  it("a tab the person opens is theirs — also one Chrome records as opened from the agent's tab — and a window the agent's page opens is the agent's", async () => {
    const agent = await open(relay, '/escape.html?to=' + encodeURIComponent(relay.server.url('/button.html?child=1')));
    // Ctrl+T while the agent's tab is in front: Chrome records that tab as the new one's opener.
    const url = relay.server.url(`/personal.html?mine=${Date.now().toString(36)}`);
    await options.evaluate((opener, href) => chrome.tabs.create({ url: href, openerTabId: opener, active: false }).then(() => undefined), agent.tabId, url);
    const mine = await until(() => tabIdOf(url).catch(() => 0), 5000, "the person's new tab");
    refused(await relay.cli('snapshot', '--tab', String(mine)), 'not_agent_tab');
    refused(await relay.cli('click', '--tab', String(mine), '--x', '5', '--y', '5'), 'not_agent_tab');

    // The agent's page opens a window: that one is the agent's.
    const link = refFor(await snapshot(relay, agent.tabId), /link "New window link"/);
    expect((await relay.cli('click', link)).code).toBe(0);
    const child = await until(() => tabIdOf(relay.server.url('/button.html?child=1&via=blank')).catch(() => 0), 5000, 'the window the agent opened');
    expect((await relay.cli('snapshot', '--tab', String(child))).code).toBe(0);
  });

  it('the person shares a tab of theirs from the popup, and takes it back', async () => {
    const url = relay.server.url(`/button.html?shared=${Date.now().toString(36)}`);
    const page = await relay.devtools.newPage();
    await page.goto(url);
    const tab = await tabIdOf(url);
    refused(await relay.cli('snapshot', '--tab', String(tab)), 'not_agent_tab');

    const popup = await openPopupOver(page);
    expect(await popup.$eval('#here-status', (el) => el.textContent)).toContain('Your tab');
    await press(popup, '#here-share');
    await until(async () => (await popup.$eval('#here-share', (el) => el.textContent)) === 'Stop sharing', 5000, 'shared');
    // Chrome closes an open popup when an agent starts acting in the tab (its debugger attaches): the person
    // looks again later.
    await popup.close();
    const ref = refFor(await snapshot(relay, tab), /button "Increment"/);
    expect((await relay.cli('click', ref)).code).toBe(0);
    expect(await read(page, 'window.clicks')).toBe(1);

    const again = await openPopupOver(page);
    expect(await again.$eval('#here-status', (el) => el.textContent)).toContain('You shared this tab');
    await press(again, '#here-share');
    // Taking it back loads the page again under a new tab id (nothing an agent left in it stays: control-planted);
    // Chrome closes the popup that was over the old page.
    await until(async () => ['Let agents use this tab', 'closed'].includes((await again.$eval('#here-share', (el) => el.textContent).catch(() => 'closed')) ?? ''), 5000, 'no longer shared');
    await again.close().catch(() => undefined);
    const gone = await relay.cli('click', ref);
    expect(gone.code, gone.stdout).toBe(1);
    const reloaded = await relay.page(url);
    expect(await read(reloaded, 'window.clicks')).toBe(0);
    await reloaded.close();
  });
});

describe('leases', () => {
  it("another agent cannot free a lease; the person frees it from the popup", async () => {
    const tab = await open(relay, '/button.html');
    expect((await relay.cli('--agent', 'alice', 'lease', 'claim', '--tab', String(tab.tabId))).code).toBe(0);
    const blocked = await relay.cli('--agent', 'bob', 'snapshot', '--tab', String(tab.tabId));
    refused(blocked, 'leased');
    expect(blocked.error?.message).toContain('ask the person');
    expect(blocked.stderr).not.toContain('--force');
    refused(await relay.cli('--agent', 'bob', 'lease', 'release', '--tab', String(tab.tabId)), 'leased');
    expect((await relay.cli('--agent', 'bob', 'lease', 'release', '--tab', String(tab.tabId), '--force')).error?.code).toBe('invalid_arguments');

    const popup = await extensionPage(relay, 'popup.html');
    const free = `#tabs tr[data-tab="${tab.tabId}"] button[data-lease]`;
    await until(async () => (await popup.$(free)) !== null, 5000, "the lease's Free button");
    await personClicks(popup, free);
    await until(async () => (await relay.cli('--agent', 'bob', 'snapshot', '--tab', String(tab.tabId))).code === 0, 5000, 'bob works once the person freed it');
    await popup.close();
  });
});

describe('doctor while paused', () => {
  it('says the person paused agents and since when, as target_conflict/paused_by_user, and touches no tab', async () => {
    await open(relay, '/button.html');
    const popup = await extensionPage(relay, 'popup.html');
    await personClicks(popup, '#pause');
    await until(async () => (await popup.$eval('#pause', (el) => el.getAttribute('aria-pressed'))) === 'true', 5000, 'paused');
    try {
      const doctor = await relay.cli('doctor');
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toMatch(/paused by the person since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
      expect(doctor.error).toMatchObject({ code: 'target_conflict', details: { reason: 'paused_by_user' } });
      expect(doctor.stdout + doctor.stderr).not.toMatch(/reload or close that tab|page_busy/);
      const status = await okJson(relay, 'status');
      expect(typeof status.pausedSince).toBe('number');
    } finally {
      await personClicks(popup, '#pause');
      await popup.close();
    }
    expect((await okJson(relay, 'status')).pausedSince).toBeNull();
  });
});
