/** A TargetingContext over any browser and organise API: the worker's (index.ts) and the tests' fakes. */
import type { BrowserApi } from '../browserApi.js';
import type { TargetingContext } from './prepareCall.js';
import { groupBook, type SeesGroup } from './groups.js';
import { LeaseStore } from './leases.js';
import type { OrganizeApi } from '../organizeApi.js';
import type { RefBook, Scope, ScopeTabs } from './resolveCall.js';
import { WorkspaceStore } from './workspaces.js';

export interface TargetingParts {
  browser: BrowserApi;
  organize: OrganizeApi;
  /** The ref registry (refs/registry.ts), whose lookups resolution makes once per call. */
  refs: RefBook;
  leases?: LeaseStore;
  workspaces?: WorkspaceStore;
  /** Which tab groups the agent may see, and so name (policy/policy.ts seesGroup): the person's are not among them. */
  seesGroup: SeesGroup;
}

export function createTargetingContext(parts: TargetingParts): TargetingContext {
  const workspaces = parts.workspaces ?? new WorkspaceStore(parts.browser, parts.organize);
  const groups = groupBook(parts.organize, parts.seesGroup);
  const scopeTabs = async (scope: Scope): Promise<ScopeTabs> => {
    if (scope.kind === 'workspace') {
      const workspace = await workspaces.get(scope.name);
      return { tabIds: workspace.tabIds, preferred: workspace.activeTabId ?? workspace.tabIds[0] };
    }
    const { tabIds } = await groups.get(scope.name);
    return { tabIds, preferred: tabIds[0] };
  };
  return {
    browser: parts.browser,
    organize: parts.organize,
    leases: parts.leases ?? new LeaseStore(parts.browser),
    workspaces,
    groups,
    refs: parts.refs,
    scopeTabs,
  };
}
