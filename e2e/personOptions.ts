/**
 * The person's side of the extension, for e2e files: its pages (popup, options) opened in the launched browser
 * through the DevTools connection, and the options page edited and saved as a person would. That is the person's
 * UI, so a test acts as the person there; agents still act only through the built CLI.
 */
import type { Page } from 'puppeteer-core';
import { afterEach, beforeAll } from 'vitest';
import { EXTENSION_ID, until, type Relay } from './harness.js';
import { crossSiteRig, ready, type CrossSiteRig } from './helpers.js';

export async function extensionPage(relay: Relay, file: string): Promise<Page> {
  const page = await relay.devtools.newPage();
  await page.goto(`chrome-extension://${EXTENSION_ID}/${file}`);
  return page;
}

/**
 * The ids of the tabs whose URL starts with `urlPrefix`, as the person's side sees them (read in one of the
 * extension's own pages): agents are not shown the person's tabs, so a test that needs one's id asks here.
 */
export async function personTabIds(page: Page, urlPrefix: string): Promise<number[]> {
  return page.evaluate(
    (prefix) => chrome.tabs.query({}).then((tabs) => tabs.filter((tab) => (tab.url || tab.pendingUrl || '').startsWith(prefix)).map((tab) => tab.id ?? -1)),
    urlPrefix,
  );
}

/**
 * The person clicks chrome-relay's toolbar button while looking at `page`: Chrome opens the popup over that window.
 * (A page of the extension asks Chrome to, as the button would; the popup then reads the tab in front, as it always
 * does.)
 */
export async function openPopupOver(relay: Relay, extension: Page, page: Page): Promise<Page> {
  await page.bringToFront();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const opened = await extension.evaluate(() => chrome.action.openPopup().then(() => 'ok', (error: unknown) => String(error)));
  if (opened !== 'ok') throw new Error(`the popup did not open: ${opened}`);
  const target = await relay.devtools.waitForTarget((t) => t.url() === `chrome-extension://${EXTENSION_ID}/popup.html`, { timeout: 5000 });
  const popup = await target.asPage();
  await until(() => popup.$eval('#here-section', (el) => !(el as HTMLElement).hidden), 5000, 'the popup showing this tab');
  return popup;
}

/** The person clicks in one of the extension's pages (it comes to the front, as it would for them). */
export async function personClicks(page: Page, selector: string): Promise<void> {
  await page.bringToFront();
  await page.click(selector);
}

/** The person edits the options page and presses Save. */
export async function saveOptions(options: Page, change: { blocked?: string; agentTabsOnly?: boolean; idle?: number; remoteAgents?: boolean; agentFiles?: boolean; agentJs?: boolean }): Promise<void> {
  await until(async () => (await options.$eval('#idle', (el) => (el as HTMLInputElement).value)) !== '', 5000, 'options loaded');
  if (change.blocked !== undefined) {
    await options.bringToFront();
    await options.$eval('#blocked', (el) => ((el as HTMLTextAreaElement).value = ''));
    await options.type('#blocked', change.blocked);
  }
  if (change.agentTabsOnly !== undefined) {
    const checked = await options.$eval('#agent-tabs-only', (el) => (el as HTMLInputElement).checked);
    if (checked !== change.agentTabsOnly) await personClicks(options, '#agent-tabs-only');
  }
  for (const [box, want] of [['#remote-agents', change.remoteAgents], ['#agent-files', change.agentFiles], ['#agent-js', change.agentJs]] as const) {
    if (want === undefined) continue;
    if ((await options.$eval(box, (el) => (el as HTMLInputElement).checked)) !== want) await personClicks(options, box);
  }
  if (change.idle !== undefined) {
    await options.$eval('#idle', (el) => ((el as HTMLInputElement).value = ''));
    await options.type('#idle', String(change.idle));
  }
  await options.$eval('#saved', (el) => (el.textContent = ''));
  await personClicks(options, '#save');
  let said: string | null = null;
  await until(async () => (said = await options.$eval('#saved', (el) => el.textContent)) === 'Saved.', 5000, 'settings saved').catch((error: unknown) => {
    throw new Error(`${String(error)}; the page said: ${said ?? '(nothing)'}`);
  });
}

/** What a block-list e2e file works with: a cross-site rig and the options page. */
export interface BlockListRig extends CrossSiteRig {
  readonly options: Page;
}

/** Set the rig up once for the file (call at its top level); the person empties the block list after every test. */
export function blockListRig(): BlockListRig {
  const base = crossSiteRig();
  let options: Page | undefined;
  beforeAll(async () => {
    options = await extensionPage(base.relay, 'options.html');
  });
  afterEach(async () => {
    if (options !== undefined) await saveOptions(options, { blocked: '' });
  });
  return {
    get relay() {
      return base.relay;
    },
    get crossServer() {
      return base.crossServer;
    },
    get options() {
      return ready(options);
    },
  };
}
