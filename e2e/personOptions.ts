/**
 * The person's side of the extension, for e2e files: its pages (popup, options) opened in the launched browser
 * through the DevTools connection, and the options page edited and saved as a person would. That is the person's
 * UI, so a test acts as the person there; agents still act only through the built CLI.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixtureServer.js';
import { EXTENSION_ID, startRelay, until, type Relay } from './harness.js';

export async function extensionPage(relay: Relay, file: string): Promise<Page> {
  const page = await relay.devtools.newPage();
  await page.goto(`chrome-extension://${EXTENSION_ID}/${file}`);
  return page;
}

/** The person clicks in one of the extension's pages (it comes to the front, as it would for them). */
export async function personClicks(page: Page, selector: string): Promise<void> {
  await page.bringToFront();
  await page.click(selector);
}

/** The person edits the options page and presses Save. */
export async function saveOptions(options: Page, change: { blocked?: string; agentTabsOnly?: boolean; idle?: number }): Promise<void> {
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

/** What a block-list e2e file works with: the relay, a second fixture server on another site, the options page. */
export interface BlockListRig {
  readonly relay: Relay;
  /** 127.0.0.2: another site than the relay's fixture server, so its frames are out of process. */
  readonly crossServer: FixtureServer;
  readonly options: Page;
}

/** Set the rig up once for the file (call at its top level); the person empties the block list after every test. */
export function blockListRig(): BlockListRig {
  let relay: Relay | undefined;
  let crossServer: FixtureServer | undefined;
  let options: Page | undefined;
  beforeAll(async () => {
    relay = await startRelay();
    crossServer = await startFixtureServer('127.0.0.2');
    options = await extensionPage(relay, 'options.html');
  });
  afterEach(async () => {
    if (options !== undefined) await saveOptions(options, { blocked: '' });
  });
  afterAll(async () => {
    await relay?.stop();
    await crossServer?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the block-list rig is used before its beforeAll ran');
    return value;
  };
  return {
    get relay() {
      return ready(relay);
    },
    get crossServer() {
      return ready(crossServer);
    },
    get options() {
      return ready(options);
    },
  };
}
