/**
 * Everything decided about a call before its tool runs, in one pass (the dispatcher calls it once):
 *   1. the envelope (target, agent) folded into the params, and the params validated;
 *   2. the tabs the call acts on (resolveCall.ts);
 *   3. leases: no tab the call acts on (close included) may be leased by another agent, nor sit in
 *      a workspace leased by one (target_conflict reason leased, details.owner). A call by the
 *      owner refreshes its leases there — checked here, before the tool runs, because what expiry
 *      measures is whether the agent is still alive, and an attempt proves that as well as a success;
 *   4. the params the tool runs with: the resolved tab filled in.
 */
import { isToolName, parseParams, RelayError, TOOLS, type ToolName, type ToolParams } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';
import { leaseConflict, type LeaseInfo, type LeaseStore } from './leases.js';
import type { OrganizeApi } from '../organizeApi.js';
import { tabsOf, type CallTabs } from '../context/call.js';
import { mergeEnvelope, resolveCallTabs, withCallTabs, type EnvelopeTarget, type ResolveContext } from './resolveCall.js';
import type { WorkspaceStore } from './workspaces.js';

export interface TargetingContext extends ResolveContext {
  browser: BrowserApi;
  organize: OrganizeApi;
  leases: LeaseStore;
  workspaces: WorkspaceStore;
}

export interface TargetedCall {
  params: Record<string, unknown>;
  target?: EnvelopeTarget | undefined;
  agent?: string | undefined;
}

export interface PreparedCall<T extends ToolName> {
  params: ToolParams<T>;
  tabs: CallTabs;
}

export async function prepareCall<T extends ToolName>(tool: T, call: TargetedCall, ctx: TargetingContext): Promise<PreparedCall<T>> {
  const merged = mergeEnvelope(tool, call.params, call.target, call.agent);
  // Validated before anything is looked up: a wrong `tab` type must be invalid_arguments.
  const params = parseParams(tool, merged.params) as Record<string, unknown>;
  const tabs = await resolveCallTabs(tool, params, merged.scope, ctx);
  // Entry `leases: 'exempt'`: the tool only reads chrome-relay's own bookkeeping, or checks leases itself.
  if (TOOLS[tool].leases !== 'exempt') await enforceLeases(tool, params, tabs, call.agent, ctx);
  return { params: withCallTabs(tool, params, tabs) as ToolParams<T>, tabs };
}

/** Leases covering a tab: its own, and its workspace's (the window it sits in). */
export async function leasesOnTab(ctx: Pick<TargetingContext, 'browser' | 'leases' | 'workspaces'>, tab: number): Promise<LeaseInfo[]> {
  // The usual case: nobody holds anything, and the tab's window need not be looked up (a chrome.tabs round trip).
  if ((await ctx.leases.list()).length === 0) return [];
  const held: LeaseInfo[] = [];
  const tabLease = await ctx.leases.find('tab', String(tab));
  if (tabLease) held.push(tabLease);
  const windowId = await windowOf(ctx.browser, tab);
  const workspace = windowId === undefined ? undefined : await ctx.workspaces.byWindow(windowId);
  if (workspace) {
    const workspaceLease = await ctx.leases.find('workspace', workspace.name);
    if (workspaceLease) held.push(workspaceLease);
  }
  return held;
}

async function enforceLeases(tool: string, params: Readonly<Record<string, unknown>>, tabs: CallTabs, agent: string | undefined, ctx: TargetingContext): Promise<void> {
  const held: LeaseInfo[] = [];
  for (const tab of tabsOf(tabs)) held.push(...(await leasesOnTab(ctx, tab)));
  // A tool that names a workspace directly (the entry's `leases: 'named_workspace'`: workspace_close).
  const named = isToolName(tool) && TOOLS[tool].leases === 'named_workspace' && typeof params.name === 'string' ? params.name : undefined;
  if (named !== undefined) {
    const lease = await ctx.leases.find('workspace', named);
    if (lease) held.push(lease);
  }
  const foreign = held.find((lease) => lease.owner !== agent);
  if (foreign) throw leaseConflict(foreign, agent, ctx.leases.now());
  if (agent !== undefined) await ctx.leases.touch(agent, held);
}

async function windowOf(browser: BrowserApi, tabId: number): Promise<number | undefined> {
  try {
    return (await browser.getTab(tabId)).windowId;
  } catch (error) {
    // A tab that does not exist has no workspace; the tool reports it missing in its own words.
    if (error instanceof RelayError && error.code === 'target_not_found') return undefined;
    throw error;
  }
}
