/**
 * Which tab a command acts on, and the "tab closed" notification.
 *
 * The current tab is the one chrome-relay last worked on: set by navigate and by every command that
 * names a tab explicitly. It lives in chrome.storage.session so it survives worker restarts, and it
 * is re-checked on every use (the tab may have been closed since).
 */
import { RelayError } from '@chrome-relay/protocol';
import { chromeBrowserApi, type BrowserApi } from './browserApi.js';
import { isTabId, readSession, SESSION_KEYS, writeSession } from './state/storage.js';
import type { ToolContext } from './tools/defineTool.js';

/**
 * Explicit id → it must exist (else target_not_found, details {tab}) and becomes current.
 * Absent → the current tab if it still exists, else the active tab of the last-focused normal
 * window, else target_not_found.
 */
export async function resolveTab(tab: number | undefined, ctx: Pick<ToolContext, 'browser'>): Promise<number> {
  const { browser } = ctx;
  if (tab !== undefined) {
    await browser.getTab(tab);
    await setCurrentTab(tab, browser);
    return tab;
  }
  const current = await readSession(browser, SESSION_KEYS.currentTab, isTabId);
  if (current !== undefined && (await tabExists(browser, current))) return current;

  const window = await browser.getLastFocusedWindow({ populate: true, windowTypes: ['normal'] });
  const active = window?.tabs?.find((t) => t.active);
  if (active?.id !== undefined) return active.id;

  throw new RelayError(
    'target_not_found',
    'No tab to act on: pass --tab <id> (see `chrome-relay tabs`) or open one with `chrome-relay navigate <url>`.',
    { phase: 'resolve', details: { tab: null } },
  );
}

/**
 * Remember the tab chrome-relay works on. `browser` defaults to the real chrome.* APIs; tools pass
 * `ctx.browser` so unit tests stay on the fake.
 */
export async function setCurrentTab(tabId: number, browser: BrowserApi = chromeBrowserApi): Promise<void> {
  await writeSession(browser, SESSION_KEYS.currentTab, tabId);
}

async function tabExists(browser: BrowserApi, tabId: number): Promise<boolean> {
  try {
    await browser.getTab(tabId);
    return true;
  } catch (error) {
    if (error instanceof RelayError && error.code === 'target_not_found') return false;
    throw error;
  }
}

/*
 * Tab-closed hub. background.ts calls notifyTabClosed from chrome.tabs.onRemoved (after telling cdp
 * to forget the tab); modules that keep per-tab state (refs, worlds) subscribe with onTabClosed so
 * background does not need to know them. Subscribe at module top level: a worker woken by
 * onRemoved must have its listeners in place before the event is delivered.
 */
const tabClosedListeners = new Set<(tabId: number) => void>();

export function onTabClosed(listener: (tabId: number) => void): () => void {
  tabClosedListeners.add(listener);
  return () => tabClosedListeners.delete(listener);
}

export function notifyTabClosed(tabId: number): void {
  for (const listener of [...tabClosedListeners]) {
    try {
      listener(tabId);
    } catch (error) {
      console.error('chrome-relay: onTabClosed listener threw', error);
    }
  }
}
