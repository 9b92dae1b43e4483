/** The worker's targeting state on the real chrome.* APIs, and the context applyTargeting needs. */
import { chromeBrowserApi } from '../browserApi.js';
import { refRegistry } from '../refs/index.js';
import type { TargetingContext } from './applyTargeting.js';
import { LeaseStore } from './leases.js';
import { chromeOrganizeApi } from './organizeApi.js';
import { WorkspaceStore } from './workspaces.js';

export const leaseStore = new LeaseStore(chromeBrowserApi);
export const workspaceStore = new WorkspaceStore(chromeBrowserApi, chromeOrganizeApi);

export const targetingContext: TargetingContext = {
  browser: chromeBrowserApi,
  organize: chromeOrganizeApi,
  leases: leaseStore,
  workspaces: workspaceStore,
  refTab: async (ref) => (await refRegistry.lookup(ref))?.tabId,
};

export { applyTargeting, type CallTarget, type TargetedCall } from './applyTargeting.js';
