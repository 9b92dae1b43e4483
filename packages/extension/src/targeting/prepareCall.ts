/**
 * Everything decided about a call before its tool runs, in one pass (the dispatcher calls it once):
 *   1. the envelope (target, agent) folded into the params, and the params validated;
 *   2. the tabs the call acts on (resolveCall.ts);
 *   3. leases: no tab the call acts on (close included) may be leased by another agent, nor sit in
 *      a workspace leased by one (target_conflict reason leased, details.owner). A call by the
 *      owner refreshes its leases there — checked here, before the tool runs, because what expiry
 *      measures is whether the agent is still alive, and an attempt proves that as well as a success.
 *      The tabs a tool's params name (group create/add/close, workspace close: the entry's `reaches`)
 *      are all or nothing: one missing or leased refuses the call (partial_success_disallowed when
 *      others could be used), unless the call asked for `allowPartial`, which leaves those out and
 *      hands them to the tool as `refused`;
 *   4. the params the tool runs with: the resolved tab filled in.
 *
 * The person's limits (Pause, their pages and tabs, blocked sites) are checked on the same tabs by the
 * dispatcher (policy/policy.ts checkTabs), never left out: a call that names one of the person's tabs
 * is refused whole.
 */
import { isToolName, parseParams, reasonedError, RelayError, TOOLS, type ToolName, type ToolParams } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';
import { leaseConflict, type LeaseInfo, type LeaseStore } from './leases.js';
import type { OrganizeApi } from '../organizeApi.js';
import { tabsOf, type CallRefs, type CallTabs } from '../context/call.js';
import { tabExists } from '../targets.js';
import { mergeEnvelope, resolveCallTabs, withCallTabs, type EnvelopeTarget, type ResolveContext } from './resolveCall.js';
import type { WorkspaceStore } from './workspaces.js';
import type { GroupBook } from './groups.js';

export interface TargetingContext extends ResolveContext {
  browser: BrowserApi;
  organize: OrganizeApi;
  leases: LeaseStore;
  workspaces: WorkspaceStore;
  /** Tab groups by name, among those the agent may see (groups.ts). */
  groups: GroupBook;
}

export interface TargetedCall {
  params: Record<string, unknown>;
  target?: EnvelopeTarget | undefined;
  agent?: string | undefined;
}

export interface PreparedCall<T extends ToolName> {
  params: ToolParams<T>;
  tabs: CallTabs;
  /** The refs the params name, as resolution found them: what the tool opens (context/call.ts CallRef). */
  refs: CallRefs;
  /** The tabs resolution looked at, as Chrome described them then. */
  seen: ReadonlyMap<number, chrome.tabs.Tab>;
  /** The agent identity the call carries: whose remembered tab it defaulted to, and remembers (targets.ts). */
  agent: string | undefined;
}

export async function prepareCall<T extends ToolName>(tool: T, call: TargetedCall, ctx: TargetingContext): Promise<PreparedCall<T>> {
  const merged = mergeEnvelope(tool, call.params, call.target, call.agent);
  // Validated before anything is looked up: a wrong `tab` type must be invalid_arguments.
  const params = parseParams(tool, merged.params) as Record<string, unknown>;
  const resolved = await resolveCallTabs(tool, params, merged.scope, ctx, call.agent);
  // Entry `leases: 'exempt'`: the tool only reads chrome-relay's own bookkeeping, or checks leases itself.
  const tabs = TOOLS[tool].leases === 'exempt' ? resolved.tabs : await enforceLeases(tool, params, resolved.tabs, call.agent, ctx);
  return { params: withCallTabs(tool, params, tabs) as ToolParams<T>, tabs, refs: resolved.refs, seen: resolved.seen, agent: call.agent };
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

/** Why a tab the params name cannot be changed (it does not exist, or another agent leases it), or undefined. */
async function namedTabProblem(ctx: TargetingContext, tab: number, agent: string | undefined): Promise<RelayError | undefined> {
  if (!(await tabExists(ctx.browser, tab))) {
    return new RelayError('target_not_found', `Tab ${tab} does not exist (see \`chrome-relay tabs\`).`, { phase: 'resolve', details: { tab } });
  }
  const foreign = (await leasesOnTab(ctx, tab)).find((lease) => lease.owner !== agent);
  return foreign === undefined ? undefined : leaseConflict(foreign, agent, ctx.leases.now());
}

/**
 * The tabs a tool's params name: all or nothing. Every one is checked before anything changes; under allowPartial the
 * ones that cannot be used are left out (and listed as `refused`) when at least one can.
 */
async function vetNamed(tool: string, params: Readonly<Record<string, unknown>>, tabs: Extract<CallTabs, { kind: 'tabs' }>, agent: string | undefined, ctx: TargetingContext): Promise<CallTabs> {
  const ok: number[] = [];
  const refused: { target: string; code: string; message: string; error: RelayError }[] = [];
  for (const tab of tabs.tabs) {
    const problem = await namedTabProblem(ctx, tab, agent);
    if (problem === undefined) ok.push(tab);
    else refused.push({ target: String(tab), code: problem.code, message: problem.message, error: problem });
  }
  const failed = refused.map(({ target, code, message }) => ({ target, code, message }));
  const first = refused[0];
  if (first === undefined) {
    if (agent !== undefined) for (const tab of ok) await ctx.leases.touch(agent, await leasesOnTab(ctx, tab));
    return tabs;
  }
  const list = failed.map((f) => `tab ${f.target}: ${f.message}`).join(' ');
  if (ok.length === 0) {
    const options = { tool, phase: 'resolve' as const, details: { ...first.error.details, applied: [], failed } };
    const message = `None of the tabs can be used: ${list}`;
    if (first.code === 'target_conflict') throw reasonedError('target_conflict', 'leased', message, options);
    throw new RelayError('target_not_found', message, options);
  }
  if (params.allowPartial !== true) {
    throw new RelayError('partial_success_disallowed', `Only ${ok.length} of ${tabs.tabs.length} tabs can be used, so nothing was changed: ${list} Fix those tabs or pass --allow-partial.`, {
      tool,
      phase: 'resolve',
      details: { applied: [], applicable: ok, failed },
    });
  }
  if (agent !== undefined) for (const tab of ok) await ctx.leases.touch(agent, await leasesOnTab(ctx, tab));
  return { ...tabs, tabs: ok, refused: failed };
}

async function enforceLeases(tool: string, params: Readonly<Record<string, unknown>>, tabs: CallTabs, agent: string | undefined, ctx: TargetingContext): Promise<CallTabs> {
  if (tabs.kind === 'tabs' && tabs.via === 'named' && !(isToolName(tool) && TOOLS[tool].leases === 'named_workspace')) return vetNamed(tool, params, tabs, agent, ctx);
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
  return tabs;
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
