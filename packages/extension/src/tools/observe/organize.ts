/**
 * Workspaces, tab groups and leases: the organising tools. They share one set of stores, passed in
 * so unit tests run them on fakes.
 *
 * Multi-tab operations are all-or-nothing: every tab is checked (exists, not leased by another
 * agent) before anything changes; if any fails the call is partial_success_disallowed and nothing
 * changed, unless allowPartial, in which case the good ones are applied and the result lists both.
 */
import { reasonedError, RelayError, type ToolResult } from '@chrome-relay/protocol';
import type { LeaseInfo } from '../../targeting/leases.js';
import { leasesOnTab, type TargetingContext } from '../../targeting/prepareCall.js';
import { findGroup, getGroup } from '../../targeting/groups.js';
import { DEFAULT_LEASE_TTL_MS, leaseConflict } from '../../targeting/leases.js';
import { targetingContext } from '../../targeting/index.js';
import { tabExists } from '../../targets.js';
import { defineTool } from '../defineTool.js';

type Failed = ToolResult<'group_add'>['failed'][number];
type Deps = Pick<TargetingContext, 'browser' | 'organize' | 'leases' | 'workspaces'>;

/** Check every tab; return the ones that may be changed and why the others may not. */
async function vet(deps: Deps, tabs: readonly number[], agent: string | undefined): Promise<{ ok: number[]; failed: Failed[] }> {
  const ok: number[] = [];
  const failed: Failed[] = [];
  for (const tab of [...new Set(tabs)]) {
    try {
      await deps.browser.getTab(tab);
      const foreign = (await leasesOnTab(deps, tab)).find((lease) => lease.owner !== agent);
      if (foreign) throw leaseConflict(foreign, agent, deps.leases.now());
      ok.push(tab);
    } catch (error) {
      const relay = RelayError.from(error);
      failed.push({ target: String(tab), code: relay.code, message: relay.message });
    }
  }
  return { ok, failed };
}

/** Apply the all-or-nothing rule before anything changes. */
function gate(tool: string, vetted: { ok: number[]; failed: Failed[] }, allowPartial: boolean | undefined): void {
  if (vetted.failed.length === 0) return;
  if (vetted.ok.length === 0) {
    const first = vetted.failed[0];
    const message = `None of the tabs can be used: ${vetted.failed.map((f) => `tab ${f.target}: ${f.message}`).join(' ')}`;
    const options = { tool, phase: 'resolve' as const, details: { applied: [], failed: vetted.failed } };
    // vet() only refuses a live tab for a lease; its message names the holder and the move.
    if (first?.code === 'target_conflict') throw reasonedError('target_conflict', 'leased', message, options);
    throw new RelayError('target_not_found', message, options);
  }
  if (allowPartial) return;
  throw new RelayError(
    'partial_success_disallowed',
    `Only ${vetted.ok.length} of ${vetted.ok.length + vetted.failed.length} tabs can be used, so nothing was changed: ${vetted.failed.map((f) => `tab ${f.target}: ${f.message}`).join(' ')} Fix those tabs or pass --allow-partial.`,
    { tool, phase: 'resolve', details: { applied: [], applicable: vetted.ok, failed: vetted.failed } },
  );
}

export function createOrganizeTools(deps: Deps) {
  const workspaceCreate = defineTool({
    name: 'workspace_create',
    async handle(params) {
      const created = await deps.workspaces.create(params.name, params.agent ?? null, params.url ?? 'about:blank');
      // The agent that opens a workspace owns it: others acting there get target_conflict.
      if (params.agent !== undefined) await deps.leases.claim('workspace', params.name, params.agent, DEFAULT_LEASE_TTL_MS);
      return { name: created.name, windowId: created.windowId, tabId: created.tabIds[0] ?? 0, owner: created.owner };
    },
  });

  const workspaceList = defineTool({
    name: 'workspace_list',
    async handle() {
      const live = await deps.workspaces.list();
      return { workspaces: live.map((w) => ({ name: w.name, windowId: w.windowId, tabIds: w.tabIds, owner: w.owner })) };
    },
  });

  const workspaceClose = defineTool({
    name: 'workspace_close',
    async handle(params) {
      const workspace = await deps.workspaces.get(params.name);
      const lease = await deps.leases.find('workspace', params.name);
      if (lease && lease.owner !== params.agent) throw leaseConflict(lease, params.agent, deps.leases.now());
      await deps.organize.removeWindow(workspace.windowId);
      await deps.workspaces.remove(params.name);
      await deps.leases.drop((l) => (l.kind === 'workspace' && l.target === params.name) || (l.kind === 'tab' && workspace.tabIds.includes(Number(l.target))));
      return { name: params.name, windowId: workspace.windowId, closedTabs: workspace.tabIds };
    },
  });

  const groupCreate = defineTool({
    name: 'group_create',
    async handle(params) {
      if (await findGroup(deps.organize, params.name)) {
        throw reasonedError('target_conflict', 'name_taken', `A tab group named "${params.name}" already exists; add tabs with \`chrome-relay group add ${params.name} <tab…>\`, or pick another name.`, {
          phase: 'resolve',
          details: { group: params.name },
        });
      }
      const vetted = await vet(deps, params.tabs, params.agent);
      gate('group_create', vetted, params.allowPartial);
      const groupId = await deps.organize.groupTabs(vetted.ok);
      await deps.organize.updateGroup(groupId, { title: params.name, ...(params.color === undefined ? {} : { color: params.color }) });
      return { name: params.name, groupId, applied: vetted.ok, failed: vetted.failed };
    },
  });

  const groupAdd = defineTool({
    name: 'group_add',
    async handle(params) {
      const group = await getGroup(deps.organize, params.name);
      const vetted = await vet(deps, params.tabs, params.agent);
      gate('group_add', vetted, params.allowPartial);
      await deps.organize.groupTabs(vetted.ok, group.id);
      return { name: params.name, groupId: group.id, applied: vetted.ok, failed: vetted.failed };
    },
  });

  const groupList = defineTool({
    name: 'group_list',
    async handle() {
      const groups = await deps.organize.queryGroups();
      const result: ToolResult<'group_list'>['groups'] = [];
      for (const group of groups) {
        result.push({ name: group.title, groupId: group.id, windowId: group.windowId, color: group.color, tabIds: await deps.organize.groupTabIds(group.id) });
      }
      return { groups: result };
    },
  });

  const groupClose = defineTool({
    name: 'group_close',
    async handle(params) {
      const group = await getGroup(deps.organize, params.name);
      const vetted = await vet(deps, await deps.organize.groupTabIds(group.id), params.agent);
      gate('group_close', vetted, params.allowPartial);
      const applied: number[] = [];
      const failed = [...vetted.failed];
      for (const tab of vetted.ok) {
        try {
          await deps.browser.removeTab(tab);
          applied.push(tab);
        } catch (error) {
          const relay = RelayError.from(error);
          failed.push({ target: String(tab), code: relay.code, message: relay.message });
        }
      }
      // A tab that vanished between the check and the close leaves a real partial state: say so.
      if (failed.length > vetted.failed.length && !params.allowPartial) {
        throw new RelayError('partial_success_disallowed', `Closed ${applied.length} tabs of "${params.name}" but ${failed.length} failed while closing; see details.`, {
          phase: 'act',
          details: { applied, failed },
        });
      }
      return { name: params.name, groupId: group.id, applied, failed };
    },
  });

  const leaseClaim = defineTool({
    name: 'lease_claim',
    async handle(params) {
      const ttlMs = (params.ttlSec ?? DEFAULT_LEASE_TTL_MS / 1000) * 1000;
      if ((params.tab === undefined) === (params.workspace === undefined)) {
        throw new RelayError('invalid_arguments', 'lease claim: give exactly one of --tab <id> or --workspace <name>.', { phase: 'validate', details: { field: 'tab' } });
      }
      if (params.tab !== undefined) {
        await deps.browser.getTab(params.tab);
        return { lease: await deps.leases.claim('tab', String(params.tab), params.agent, ttlMs) };
      }
      const name = params.workspace ?? '';
      await deps.workspaces.get(name);
      return { lease: await deps.leases.claim('workspace', name, params.agent, ttlMs) };
    },
  });

  const leaseList = defineTool({
    name: 'lease_list',
    async handle() {
      // Leases die with what they name. Tab closes drop theirs as they happen (targeting/index.ts);
      // this catches closes the worker missed, and workspaces whose window a person closed.
      const workspaces = new Set((await deps.workspaces.list()).map((w) => w.name));
      const gone: LeaseInfo[] = [];
      for (const lease of await deps.leases.list()) {
        if (lease.kind === 'workspace' ? !workspaces.has(lease.target) : !(await tabExists(deps.browser, Number(lease.target)))) gone.push(lease);
      }
      if (gone.length > 0) await deps.leases.drop((lease) => gone.some((g) => g.kind === lease.kind && g.target === lease.target));
      return { leases: await deps.leases.list() };
    },
  });

  const leaseRelease = defineTool({
    name: 'lease_release',
    async handle(params) {
      const given = [params.tab !== undefined, params.workspace !== undefined, params.all === true].filter(Boolean).length;
      if (given !== 1) {
        throw new RelayError('invalid_arguments', 'lease release: give exactly one of --tab <id>, --workspace <name> or --all.', {
          phase: 'validate',
          details: { field: params.all === true ? 'all' : 'tab' },
        });
      }
      const match = (lease: LeaseInfo): boolean =>
        params.all === true
          ? lease.owner === params.agent
          : params.tab !== undefined
            ? lease.kind === 'tab' && lease.target === String(params.tab)
            : lease.kind === 'workspace' && lease.target === params.workspace;
      // Only the agent's own: another agent's lease is freed by the person, from the popup (ui/uiService.ts).
      return { released: await deps.leases.release(params.agent, match) };
    },
  });

  return { workspaceCreate, workspaceList, workspaceClose, groupCreate, groupAdd, groupList, groupClose, leaseClaim, leaseList, leaseRelease };
}

export const organizeTools = createOrganizeTools(targetingContext);
