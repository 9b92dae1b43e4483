/**
 * The worker's ref state: one counter and one registry, on the real chrome.storage areas.
 * Importing this module subscribes to tab closes (targets.ts's hub), so a closed tab's refs
 * answer "tab closed" without background.ts knowing about refs.
 */
import { onTabClosed } from '../targets.js';
import { RefCounter } from './counter.js';
import { chromeLocalStore, chromeSessionStore } from './persist.js';
import { RefRegistry } from './registry.js';
import { worlds } from '../page/worlds.js';

export const refCounter = new RefCounter(chromeLocalStore);
export const refRegistry = new RefRegistry(chromeSessionStore);

/** Drop everything the ref layer keeps about a closed tab. Safe to call more than once. */
export async function forgetTab(tabId: number): Promise<void> {
  worlds.forget(tabId);
  await refRegistry.forgetTab(tabId);
}

onTabClosed((tabId) => {
  forgetTab(tabId).catch((error: unknown) => console.error('chrome-relay: forgetting the refs of a closed tab failed', error));
});
