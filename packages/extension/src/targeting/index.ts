/**
 * The worker's targeting state on the real chrome.* APIs, and the context prepareCall needs.
 * Importing this module subscribes to tab closes (targets.ts's hub): a lease dies with its tab.
 */
import { chromeBrowserApi } from '../browserApi.js';
import { refRegistry } from '../refs/index.js';
import { onTabClosed } from '../targets.js';
import type { TargetingContext } from './prepareCall.js';
import { createTargetingContext } from './context.js';
import { LeaseStore } from './leases.js';
import { chromeOrganizeApi } from '../organizeApi.js';
import { WorkspaceStore } from './workspaces.js';

export const leaseStore = new LeaseStore(chromeBrowserApi);
export const workspaceStore = new WorkspaceStore(chromeBrowserApi, chromeOrganizeApi);

export const targetingContext: TargetingContext = createTargetingContext({
  browser: chromeBrowserApi,
  organize: chromeOrganizeApi,
  leases: leaseStore,
  workspaces: workspaceStore,
  refTab: async (ref) => {
    const found = await refRegistry.lookup(ref);
    return found === undefined ? undefined : { tab: found.tabId, state: found.state };
  },
});

onTabClosed((tabId) => {
  leaseStore.dropTab(tabId).catch((error: unknown) => console.error('chrome-relay: dropping the leases of a closed tab failed', error));
});

