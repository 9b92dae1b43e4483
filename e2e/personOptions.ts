/**
 * The person's side of the extension, for e2e files: its pages (popup, options) opened in the launched browser
 * through the DevTools connection, and the options page edited and saved as a person would. That is the person's
 * UI, so a test acts as the person there; agents still act only through the built CLI.
 */
import type { Page } from 'puppeteer-core';
import { EXTENSION_ID, until, type Relay } from './harness.js';

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
  await until(async () => (await options.$eval('#saved', (el) => el.textContent)) === 'Saved.', 5000, 'settings saved');
}
