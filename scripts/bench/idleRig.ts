/**
 * The rig of the sections that measure what happens after an idle detach (suiteIdle.ts, suiteDrawing.ts): a browser
 * of its own, started like the main one plus a DevTools port, and the person's side on it — the extension's popup,
 * through which a short idle time is set and the tab is watched until it detaches. Only the extension's own pages are
 * attached to (targetFilter), so the measured tab carries no second client.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { EXTENSION_ID } from '../../e2e/harness.js';
import { startRelayTool, type RelayTool } from './relayTool.js';

/** The idle time the person's side sets: short, so a round does not wait long for the detach. */
export const IDLE_SECONDS = 2;

/** The popup's own call to its service worker, as page code (this project has no chrome.* types). */
const sendMessage = (message: unknown): string => `chrome.runtime.sendMessage(${JSON.stringify(message)})`;

/** A browser of its own with `flags`, and a DevTools port for the person's side. */
export function startIdleBrowser(flags: string[], headful: boolean, display: string | undefined): Promise<RelayTool> {
  return startRelayTool({ flags: [...flags, '--remote-debugging-port=0'], headful, ...(display ? { display } : {}) });
}

/** The person's side of `relay`'s browser: the extension's popup, open with the short idle time set. Disconnect `devtools` when done. */
export async function personPopup(relay: RelayTool): Promise<{ devtools: Browser; popup: Page }> {
  const port = readFileSync(join(relay.profile, 'DevToolsActivePort'), 'utf8').split('\n')[0];
  const devtools = await puppeteer.connect({
    browserURL: `http://127.0.0.1:${port}`,
    defaultViewport: null,
    targetFilter: (target) => target.type() !== 'page' || target.url().startsWith('chrome-extension://') || target.url() === 'about:blank',
  });
  try {
    const popup = await devtools.newPage();
    await popup.goto(`chrome-extension://${EXTENSION_ID}/popup.html`);
    const saved = await popup.evaluate(sendMessage({ kind: 'saveSettings', settings: { blockedSites: [], agentTabsOnly: true, idleDetachSeconds: IDLE_SECONDS } }));
    if (!(saved as { ok?: unknown }).ok) throw new Error(`the options did not take the idle time: ${JSON.stringify(saved)}`);
    return { devtools, popup };
  } catch (error) {
    await devtools.disconnect().catch(() => undefined);
    throw error;
  }
}

/** Whether the popup shows chrome-relay attached to the tab. */
async function attached(popup: Page, tabId: number): Promise<boolean> {
  const answer = (await popup.evaluate(sendMessage({ kind: 'state' }))) as { state: { tabs: { id: number; attached: boolean }[] } };
  return answer.state.tabs.some((t) => t.id === tabId && t.attached);
}

/** Until the popup shows the tab detached (the idle time, and 10 s more at most). */
export async function untilDetached(popup: Page, tabId: number): Promise<void> {
  const deadline = Date.now() + IDLE_SECONDS * 1000 + 10_000;
  while (await attached(popup, tabId)) {
    if (Date.now() > deadline) throw new Error(`tab ${tabId} was not detached within ${IDLE_SECONDS} s of idling (+10 s)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
