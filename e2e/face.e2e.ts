/**
 * The extension's face, end to end. The popup and options pages are opened as extension pages in the
 * launched browser through the DevTools connection and read and clicked there: that is the person's UI, so the
 * test acts as the person there (and when the person opens their own tab or drags it into a tab group). Agents
 * act only through the built CLI. Page state is read from the pages themselves.
 *
 *   - the popup shows the live state: connection versions, the agent's tab (attached, its lease, the last
 *     command), the last commands with their outcome codes;
 *   - Pause/Resume: an agent's click fails with target_conflict paused_by_user while paused, works after;
 *   - the site block list: a navigate to a blocked site and a command on a blocked tab are refused naming the
 *     rule, without attaching; a tab that navigates onto one is detached;
 *   - "agent tabs only": a tab the person opened is refused, until they put it into a "chrome-relay" group;
 *   - `setup` without a terminal against this profile: the install result, and with --wait a healthy doctor.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { VERSION } from '@chrome-relay/protocol';
import { startRelay, until, type Relay } from './harness.js';
import { open, read, refFor, snapshot } from './helpers.js';
import { extensionPage, personClicks, personTabIds, saveOptions } from './personOptions.js';

let relay: Relay;
let popup: Page;
let options: Page;
beforeAll(async () => {
  relay = await startRelay();
  popup = await extensionPage(relay, 'popup.html');
  options = await extensionPage(relay, 'options.html');
});
afterAll(async () => {
  await relay?.stop();
});

/** The popup row of a tab, as the person reads it (null while the popup does not list it). */
function tabRow(tab: number): Promise<Row | null> {
  return popup.evaluate((id) => {
    const row = document.querySelector(`#tabs tr[data-tab="${id}"]`);
    return row ? { text: row.textContent ?? '', cells: [...row.querySelectorAll('td')].map((td) => td.textContent ?? '') } : null;
  }, tab);
}

interface Row {
  text: string;
  cells: string[];
}

/** Wait until the popup's row of a tab passes `test` (the popup refreshes once a second). */
async function rowWhen(tab: number, test: (row: Row) => boolean, what: string): Promise<Row> {
  const row = await until(async () => {
    const found = await tabRow(tab);
    return found && test(found) ? found : null;
  }, 5000, what);
  if (row === null) throw new Error(`no popup row for tab ${tab}`);
  return row;
}

/** The toolbar button's badge text, as the person sees it. */
function badge(): Promise<string> {
  return popup.evaluate(() => chrome.action.getBadgeText({}));
}

function recentRows(): Promise<string[][]> {
  return popup.evaluate(() => [...document.querySelectorAll('#recent tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

/** The person opens a tab of their own (not through chrome-relay); returns its tab id (agents are not shown it). */
async function personOpens(path: string): Promise<{ page: Page; tabId: number; url: string }> {
  const url = relay.server.url(`${path}?person=${Date.now().toString(36)}`);
  const page = await relay.devtools.newPage();
  await page.goto(url);
  const [tabId] = await personTabIds(options, url);
  if (tabId === undefined) throw new Error(`no tab for ${url}`);
  return { page, tabId, url };
}

describe('setup without a terminal', () => {
  it('registers the host for the profile like install, and with --wait ends with a healthy doctor', async () => {
    const plain = await relay.cli('setup', '--user-data-dir', relay.profile);
    expect(plain.code, plain.stderr).toBe(0);
    const result = plain.json as { written: { browser: string; manifest: string }[]; extensionPath: string; steps: string[]; doctor?: unknown };
    expect(result.written).toEqual([{ browser: 'profile', manifest: `${relay.profile}/NativeMessagingHosts/com.chrome_relay.host.json` }]);
    // The folder the person loads is in the home, not in the package; the last step pins the toolbar button.
    expect(result.extensionPath).toBe(join(relay.home, 'extension/current'));
    expect(existsSync(join(result.extensionPath, 'manifest.json'))).toBe(true);
    expect(result.steps).toHaveLength(4);
    expect(result.steps[3]).toMatch(/^Pin the toolbar button/);
    expect(result.doctor).toBeUndefined();

    const waited = await relay.cli('setup', '--user-data-dir', relay.profile, '--wait');
    expect(waited.code, waited.stderr).toBe(0);
    const report = waited.json as { connected: { profile: string }; doctor: { healthy: boolean } };
    expect(report.connected.profile).toBe(relay.profile);
    expect(report.doctor.healthy).toBe(true);
  });
});

describe('the popup', () => {
  it('shows the live state: versions, the agent tab with its lease and last command, the last commands', async () => {
    const page = await open(relay, 'button.html');
    const ref = refFor(await snapshot(relay, page.tabId), /button "Increment"/);
    expect((await relay.cli('lease', 'claim', '--tab', String(page.tabId), '--agent', 'claude')).code).toBe(0);
    const click = await relay.cli('click', ref, '--agent', 'claude');
    expect(click.code, click.stderr).toBe(0);
    expect(await read(await relay.page(page.path), 'window.clicks')).toBe(1);
    // The toolbar button says an agent is acting (its badge); it goes quiet again a few seconds later (below).
    await until(async () => (await badge()) === 'ON', 2000, 'the acting badge');

    const row = await rowWhen(page.tabId, (found) => /click/.test(found.cells[3] ?? ''), 'the popup row of the agent tab');
    expect(row.cells[0]).toContain('Button fixture');
    expect(row.cells[0]).toContain(`#${page.tabId}`);
    expect(row.cells[1]).toBe('attached');
    // The lease's owner, and the person's button that frees it.
    expect(row.cells[2]).toBe('claudeFree');
    expect(row.cells[3]).toMatch(/^click ok/);
    expect(row.cells[3]).toContain('claude');

    await until(async () => (await badge()) === '', 10_000, 'the badge gone once agents are quiet');

    const recent = await recentRows();
    expect(recent[0]?.slice(1)).toEqual(['claude', 'click', `#${page.tabId}`, 'ok', 'this machine']);
    expect(recent.slice(0, 4).map((r) => r[2])).toEqual(['click', 'lease_claim', 'snapshot', 'navigate']);

    const connection = await popup.$eval('#connection', (el) => el.textContent ?? '');
    expect(connection).toContain(`pid ${relay.hostPid()}`);
    expect(connection).toContain(`CLI${VERSION}`);
    expect(connection).toContain(`Extension${VERSION}`);
    expect(await popup.$eval('#status', (el) => el.textContent ?? '')).toMatch(/^Connected/);
    expect((await relay.cli('lease', 'release', '--all', '--agent', 'claude')).code).toBe(0);
  });

  it('Pause refuses every agent command with paused_by_user and detaches; Resume lets them work again', async () => {
    const page = await open(relay, 'button.html');
    const ref = refFor(await snapshot(relay, page.tabId), /button "Increment"/);
    const observed = await relay.page(page.path);

    await personClicks(popup, '#pause');
    await until(async () => (await popup.$eval('#pause', (el) => el.getAttribute('aria-pressed'))) === 'true', 5000, 'paused');
    expect(await popup.$eval('#paused-banner', (el) => (el as HTMLElement).hidden)).toBe(false);
    await until(async () => (await badge()) === '||', 2000, 'the paused badge');
    const refused = await relay.cli('click', ref, '--agent', 'claude');
    expect(refused.code).toBe(1);
    expect(refused.error).toMatchObject({ code: 'target_conflict', tool: 'click', retryable: false, details: { reason: 'paused_by_user' } });
    expect(refused.stderr.split('\n')[0]).toMatch(/^chrome-relay: target_conflict: The person using this browser paused chrome-relay/);
    expect(await read(observed, 'window.clicks')).toBe(0);
    // Every session was detached at once, and the popup says what the agent got.
    const row = await rowWhen(page.tabId, (found) => /paused_by_user/.test(found.cells[3] ?? ''), 'the refused click in the popup');
    expect(row.cells[1]).toBe('detached');
    expect((await recentRows())[0]?.slice(1)).toEqual(['claude', 'click', `#${page.tabId}`, 'target_conflict (paused_by_user)', 'this machine']);

    await personClicks(popup, '#pause');
    await until(async () => (await popup.$eval('#pause', (el) => el.getAttribute('aria-pressed'))) === 'false', 5000, 'resumed');
    const click = await relay.cli('click', ref, '--agent', 'claude');
    expect(click.code, click.stderr).toBe(0);
    expect(await read(observed, 'window.clicks')).toBe(1);
  });
});

describe('site limits (options page)', () => {
  it('a blocked site is refused without attaching, naming the rule; a tab navigating onto one is detached', async () => {
    const agentTab = await open(relay, 'button.html');
    const link = refFor(await snapshot(relay, agentTab.tabId), /link "Other page"/);
    const rule = `${new URL(relay.server.url('/')).host}/other.html*`;
    // The person's own tab on the site.
    const mine = await personOpens('other.html');
    await saveOptions(options, { blocked: `# the person's rules\n${rule}` });

    const nav = await relay.cli('navigate', relay.server.url('other.html?fresh=1'));
    expect(nav.code).toBe(1);
    expect(nav.error).toMatchObject({ code: 'target_conflict', tool: 'navigate', details: { reason: 'site_blocked', rule } });
    expect(nav.error?.message).toContain('nothing was opened');

    // The agent's own tab follows a link onto the blocked site: it loses its session, later commands are refused.
    const follow = await relay.cli('click', link);
    expect(follow.code === 0 || follow.error?.details['reason'] === 'site_blocked', follow.stderr).toBe(true);
    await until(async () => (await tabRow(agentTab.tabId))?.cells[1] === 'detached', 5000, 'the agent tab detached');
    const after = await relay.cli('snapshot', '--tab', String(agentTab.tabId));
    expect(after.error).toMatchObject({ code: 'target_conflict', details: { reason: 'site_blocked', rule, tab: agentTab.tabId } });

    // A blocked tab the person opened: refused, and never attached.
    const refused = await relay.cli('snapshot', '--tab', String(mine.tabId));
    expect(refused.error).toMatchObject({ code: 'target_conflict', details: { reason: 'site_blocked', rule, tab: mine.tabId } });
    // The refusal is in the popup's last commands; the tab is not among those agents control (the agent never acted there).
    await until(async () => (await recentRows()).some((r) => r.includes(`#${mine.tabId}`) && r.some((cell) => /site_blocked/.test(cell))), 5000, "the refusal in the popup's last commands");
    expect(await tabRow(mine.tabId)).toBeNull();
    expect(await read(mine.page, 'window.otherClicks ?? 0')).toBe(0);
    // `tabs` does not list it (only counts it): no origin, no title, no path.
    const tabs = await relay.cli('tabs', '--json');
    expect(tabs.stdout).not.toContain('other.html');
    expect((tabs.json as { windows: { tabs: { id: number }[] }[] }).windows.flatMap((w) => w.tabs).map((t) => t.id)).not.toContain(mine.tabId);
    expect((await relay.cli('tabs')).stdout).not.toContain('other.html');

    await saveOptions(options, { blocked: '' });
    // The rule gone, the tab is simply the person's own again ("agent tabs only" is on by default).
    expect((await relay.cli('snapshot', '--tab', String(mine.tabId))).error?.details['reason']).toBe('not_agent_tab');
    await mine.page.close();
  });

  it('"agent tabs only" refuses a tab the person opened, until they put it into a "chrome-relay" group', async () => {
    await saveOptions(options, { agentTabsOnly: true });
    const mine = await personOpens('personal.html');
    const refused = await relay.cli('click', '--tab', String(mine.tabId), '--x', '10', '--y', '10');
    expect(refused.code).toBe(1);
    expect(refused.error).toMatchObject({ code: 'target_conflict', details: { reason: 'not_agent_tab', tab: mine.tabId } });
    expect(refused.error?.message).toContain('chrome-relay navigate');
    expect(await read(mine.page, 'window.touched ?? 0')).toBe(0);

    // The agent's own tab is fine.
    const own = await open(relay, 'button.html');
    expect((await relay.cli('snapshot', '--tab', String(own.tabId))).code).toBe(0);

    // The person drags their tab into a group named "chrome-relay" (done here with the extension page's tab API).
    await options.evaluate(async (tabId) => {
      const groupId = await chrome.tabs.group({ tabIds: [tabId] });
      await chrome.tabGroups.update(groupId, { title: 'chrome-relay' });
    }, mine.tabId);
    const lent = await relay.cli('snapshot', '--tab', String(mine.tabId));
    expect(lent.code, lent.stderr).toBe(0);
    expect(lent.stdout).toContain('button "Mine"');

    await saveOptions(options, { agentTabsOnly: false });
    await mine.page.close();
  });
});
