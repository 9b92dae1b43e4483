/** Chrome's page lifecycle, tabs and the person's debugger sessions, as agentPages.ts sees them (LifecycleApi). */
import { chromeLifecycleDebugger } from '../cdp/cdpSession.js';
import type { LifecycleApi } from './agentPages.js';

export const chromeLifecycleApi: LifecycleApi = {
  async discard(tabId) {
    return (await chrome.tabs.discard(tabId))?.id;
  },
  async reload(tabId) {
    await chrome.tabs.reload(tabId);
  },
  async tabs() {
    return (await chrome.tabs.query({})).flatMap((tab) =>
      tab.id === undefined ? [] : [{ id: tab.id, url: tab.url ?? tab.pendingUrl ?? '', active: tab.active, audible: tab.audible === true, frozen: tab.frozen }],
    );
  },
  setFrozen: (tabId, frozen) => chromeLifecycleDebugger.setTabLifecycle(tabId, frozen ? 'frozen' : 'active'),
  workers: () => chromeLifecycleDebugger.workers(),
  holdWorker: (targetId) => chromeLifecycleDebugger.holdWorker(targetId),
  releaseWorker: (targetId) => chromeLifecycleDebugger.releaseWorker(targetId),
};
