/**
 * The tab chrome-relay remembers, and the "tab closed" notification.
 *
 * The remembered tab is the one chrome-relay last worked on: set by navigate and by every command
 * that names a tab (explicitly, or through a ref). It is always a tab chrome-relay opened or was
 * given, which is why commands without --tab may use it. It lives in chrome.storage.session so it
 * survives worker restarts, and it is re-checked on every use: when it is gone, a command without
 * --tab fails with target_not_found. chrome-relay never picks another tab by itself — in
 * particular not the browser's active tab, which is the person's.
 *
 * Which tab a call acts on is decided once per call in targeting/resolveCall.ts, and the dispatcher remembers it
 * once the tool ran (rememberTab): a tool takes its tab from its context (context/call.ts callTab).
 */
import { RelayError } from '@chrome-relay/protocol';
import type { BrowserApi } from './browserApi.js';
import { isTabId, readSession, SESSION_KEYS, writeSession } from './state/storage.js';

/** The remembered tab id as stored (it may have been closed since), or undefined. */
export function readRememberedTab(browser: Pick<BrowserApi, 'storageSessionGet'>): Promise<number | undefined> {
  return readSession(browser, SESSION_KEYS.currentTab, isTabId);
}

/** The remembered tab, checked to exist; target_not_found (with the move) when there is none. */
export async function rememberedTab(browser: Pick<BrowserApi, 'getTab' | 'storageSessionGet'>): Promise<number> {
  const remembered = await readRememberedTab(browser);
  if (remembered !== undefined && (await tabExists(browser, remembered))) return remembered;
  throw noRememberedTab(remembered);
}

/** No --tab and no usable remembered tab: say which, and the two ways on. */
export function noRememberedTab(remembered: number | undefined): RelayError {
  const move = 'Run `chrome-relay tabs` and pass --tab <id>, or open a page with `chrome-relay navigate <url>`.';
  if (remembered === undefined) {
    return new RelayError('target_not_found', `No --tab was given and chrome-relay has not used a tab yet (it never picks one by itself). ${move}`, {
      phase: 'resolve',
      details: { tab: null },
    });
  }
  return new RelayError(
    'target_not_found',
    `No --tab was given and tab ${remembered}, the one chrome-relay last used, has been closed; chrome-relay never picks another tab by itself. ${move}`,
    { phase: 'resolve', details: { tab: remembered, remembered: true } },
  );
}

/**
 * Remember the tab chrome-relay works on (the dispatcher does, after each call that acted in a page: no tool does).
 * Written only when it changed: the session area's reads come from memory (state/cachedArea.ts), its writes do not.
 */
export async function rememberTab(tabId: number, browser: BrowserApi): Promise<void> {
  if ((await readRememberedTab(browser)) === tabId) return;
  await writeSession(browser, SESSION_KEYS.currentTab, tabId);
}

export async function tabExists(browser: Pick<BrowserApi, 'getTab'>, tabId: number): Promise<boolean> {
  try {
    await browser.getTab(tabId);
    return true;
  } catch (error) {
    if (error instanceof RelayError && error.code === 'target_not_found') return false;
    throw error;
  }
}
