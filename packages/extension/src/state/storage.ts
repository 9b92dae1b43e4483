/**
 * Typed access to the few values the framework keeps in chrome.storage. The worker can be killed at
 * any moment, so anything that must outlive it lives here rather than in module variables, and is
 * re-checked before use: storage may hold a value written by an older build, so every read goes
 * through a guard and a wrong shape reads as "absent".
 */

/** chrome.storage.session as this module uses it (BrowserApi has it). */
export interface SessionArea {
  storageSessionGet(keys: string[]): Promise<Record<string, unknown>>;
  storageSessionSet(items: Record<string, unknown>): Promise<void>;
}

/** Keys in chrome.storage.session (survives worker restarts, cleared by an extension reload). */
export const SESSION_KEYS = {
  /** The tab chrome-relay last worked on for calls that carry no agent identity (number). */
  currentTab: 'currentTab',
  /** The tab each named agent last worked on: `{ agent, tab }[]`, least recent first, bounded (targets.ts). */
  agentTabs: 'currentTabByAgent',
} as const;

export type Guard<T> = (value: unknown) => value is T;

export const isTabId: Guard<number> = (value): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

export async function readSession<T>(browser: Pick<SessionArea, 'storageSessionGet'>, key: string, guard: Guard<T>): Promise<T | undefined> {
  const items = await browser.storageSessionGet([key]);
  const value = items[key];
  return guard(value) ? value : undefined;
}

export async function writeSession(browser: Pick<SessionArea, 'storageSessionSet'>, key: string, value: unknown): Promise<void> {
  await browser.storageSessionSet({ [key]: value });
}
