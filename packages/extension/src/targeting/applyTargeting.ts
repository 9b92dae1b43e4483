/**
 * Envelope targeting and lease enforcement, applied to a call before its tool runs.
 *
 * `target` ({workspace} or {group}) and `agent` travel beside the params, not inside them, so every
 * tool gets them without declaring them. This turns them into params:
 *   - a tool whose schema has the same key (lease_claim's `workspace`) gets the name itself;
 *   - otherwise a tool with a `tab` param gets the tab the name resolves to (the tab chrome-relay
 *     last used if it is inside the workspace/group, else the workspace window's active tab / the
 *     group's first tab) — never the browser's active tab elsewhere;
 *   - a tool with neither cannot be targeted: invalid_arguments, not a silent ignore;
 *   - `agent` is injected into tools that take one.
 * Two targets at once (workspace + group, or either with an explicit tab) → target_conflict; a name
 * that does not exist → target_not_found.
 *
 * Leases: the tab the call will act on (explicit, from a ref, or the current tab) and the workspace
 * holding it must not be leased by another agent (target_conflict, details.owner). A call by the
 * owner refreshes its leases there — checked here, before the tool runs, because what expiry
 * measures is whether the agent is still alive, and an attempt proves that as well as a success.
 */
import { RelayError, TOOLS, isToolName } from '@chrome-relay/protocol';
import type { LeaseInfo } from './leases.js';
import type { BrowserApi } from '../browserApi.js';
import { resolveTab } from '../targets.js';
import { getGroup } from './groups.js';
import { leaseConflict, type LeaseStore } from './leases.js';
import type { OrganizeApi } from './organizeApi.js';
import type { WorkspaceStore } from './workspaces.js';
import { readSession, isTabId, SESSION_KEYS } from '../state/storage.js';

export interface CallTarget {
  workspace?: string | undefined;
  group?: string | undefined;
}

export interface TargetedCall {
  tool: string;
  params: Record<string, unknown>;
  target?: CallTarget | undefined;
  agent?: string | undefined;
}

export interface TargetingContext {
  browser: BrowserApi;
  organize: OrganizeApi;
  leases: LeaseStore;
  workspaces: WorkspaceStore;
  /** The tab a ref belongs to, or undefined when unknown (the tool reports stale_ref itself). */
  refTab(ref: string): Promise<number | undefined>;
}

/** Tools that only read chrome-relay's own bookkeeping, or manage leases themselves. */
const LEASE_EXEMPT = new Set(['status', 'tabs', 'lease_claim', 'lease_list', 'lease_release', 'workspace_list', 'group_list', 'workspace_create']);
/** Tools for which "no tab" means "a new tab", so there is no current tab to check. */
const NEW_TAB_WHEN_ABSENT = new Set(['navigate']);

function schemaKeys(tool: string): ReadonlySet<string> {
  if (!isToolName(tool)) return new Set();
  return new Set(Object.keys(TOOLS[tool].params.shape));
}

function conflict(message: string, details: Record<string, unknown>): RelayError {
  return new RelayError('target_conflict', message, { phase: 'resolve', details });
}

async function tabOfWorkspace(ctx: TargetingContext, name: string): Promise<number> {
  const workspace = await ctx.workspaces.get(name);
  const current = await readSession(ctx.browser, SESSION_KEYS.currentTab, isTabId);
  if (current !== undefined && workspace.tabIds.includes(current)) return current;
  const tab = workspace.activeTabId ?? workspace.tabIds[0];
  if (tab === undefined) throw new RelayError('target_not_found', `Workspace "${name}" has no tab left; close it and create it again.`, { phase: 'resolve', details: { workspace: name } });
  return tab;
}

async function tabOfGroup(ctx: TargetingContext, name: string): Promise<number> {
  const group = await getGroup(ctx.organize, name);
  const tabIds = await ctx.organize.groupTabIds(group.id);
  const current = await readSession(ctx.browser, SESSION_KEYS.currentTab, isTabId);
  if (current !== undefined && tabIds.includes(current)) return current;
  const first = tabIds[0];
  if (first === undefined) throw new RelayError('target_not_found', `Tab group "${name}" has no tabs.`, { phase: 'resolve', details: { group: name } });
  return first;
}

/** Resolve envelope targeting into params. Returns new params; the input is not modified. */
export async function applyTargeting(call: TargetedCall, ctx: TargetingContext): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = { ...call.params };
  const keys = schemaKeys(call.tool);
  const { workspace, group } = call.target ?? {};

  if (call.agent !== undefined && keys.has('agent')) {
    if (params.agent !== undefined && params.agent !== call.agent) {
      throw conflict(`The call names agent "${String(params.agent)}" but runs as agent "${call.agent}"; give one identity.`, { agent: call.agent, paramsAgent: params.agent });
    }
    params.agent = call.agent;
  }

  if (workspace !== undefined && group !== undefined) {
    throw conflict(`Both --workspace ${workspace} and --group ${group} were given; pick one target.`, { workspace, group });
  }
  const kind = workspace !== undefined ? 'workspace' : group !== undefined ? 'group' : undefined;
  const targetName = workspace ?? group;
  if (kind !== undefined && targetName !== undefined) {
    if (keys.has(kind)) {
      if (params[kind] !== undefined && params[kind] !== targetName) {
        throw conflict(`--${kind} ${targetName} contradicts ${kind} "${String(params[kind])}"; give one.`, { [kind]: targetName, param: params[kind] });
      }
      params[kind] = targetName;
    } else if (keys.has('tab')) {
      if (params.tab !== undefined) {
        throw conflict(`Both --tab ${String(params.tab)} and --${kind} ${targetName} were given; pick one target.`, { tab: params.tab, [kind]: targetName });
      }
      if (typeof params.ref === 'string') {
        throw conflict(`A ref already carries its tab; drop --${kind} ${targetName}.`, { ref: params.ref, [kind]: targetName });
      }
      params.tab = kind === 'workspace' ? await tabOfWorkspace(ctx, targetName) : await tabOfGroup(ctx, targetName);
    } else {
      throw new RelayError('invalid_arguments', `--${kind} does not apply to ${call.tool}: it acts on no tab.`, {
        phase: 'validate',
        details: { field: kind, tool: call.tool },
      });
    }
  }

  if (!LEASE_EXEMPT.has(call.tool)) await enforceLeases(call.tool, params, keys, call.agent, ctx);
  return params;
}

/** The tab this call will act on, as far as it can be known before the tool runs. */
async function actedTab(tool: string, params: Record<string, unknown>, keys: ReadonlySet<string>, ctx: TargetingContext): Promise<number | undefined> {
  if (typeof params.tab === 'number') return params.tab;
  if (typeof params.ref === 'string') return ctx.refTab(params.ref);
  if (!keys.has('tab') || NEW_TAB_WHEN_ABSENT.has(tool)) return undefined;
  try {
    return await resolveTab(undefined, ctx);
  } catch (error) {
    // No tab at all: the tool reports target_not_found itself, in its own words.
    if (error instanceof RelayError && error.code === 'target_not_found') return undefined;
    throw error;
  }
}

/** Leases covering a tab: its own, and its workspace's (the window it sits in). */
export async function leasesOnTab(ctx: Pick<TargetingContext, 'browser' | 'leases' | 'workspaces'>, tab: number): Promise<LeaseInfo[]> {
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

async function enforceLeases(tool: string, params: Record<string, unknown>, keys: ReadonlySet<string>, agent: string | undefined, ctx: TargetingContext): Promise<void> {
  const tab = await actedTab(tool, params, keys, ctx);
  const held = tab === undefined ? [] : await leasesOnTab(ctx, tab);
  // Tools that name a workspace directly (workspace_close, or --workspace on one that takes it).
  const named = typeof params.workspace === 'string' ? params.workspace : tool === 'workspace_close' && typeof params.name === 'string' ? params.name : undefined;
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
    if (error instanceof RelayError && error.code === 'target_not_found') return undefined;
    throw error;
  }
}
