/**
 * Workspaces, tab groups and leases: the organising tools. They share one set of stores, passed in
 * so unit tests run them on fakes.
 *
 * Every tab these tools change (the ids given, a group's or a workspace's tabs) is named by their entry's `reaches`,
 * so the dispatcher checks each one before the tool runs, as it checks a --tab: the person's limits (their tabs and
 * groups are never changed), existence and leases, all or nothing unless allowPartial (targeting/prepareCall.ts). A
 * tool here only applies what it was handed.
 */
import { reasonedError, RelayError, type ToolResult } from '@chrome-relay/protocol';
import type { CallTabs } from '../../context/call.js';
import type { LeaseInfo } from '../../targeting/leases.js';
import { DEFAULT_LEASE_TTL_MS, leaseConflict } from '../../targeting/leases.js';
import { tabExists } from '../../targets.js';
import { defineTool } from '../defineTool.js';

type Failed = ToolResult<'group_add'>['failed'][number];

/**
 * The tabs the dispatcher let the call change (ctx.target: its entry's `reaches`, checked against the person's limits
 * and leases, all or nothing unless allowPartial) and the ones it left out.
 */
function vetted(target: CallTabs): { ok: readonly number[]; failed: Failed[] } {
  if (target.kind !== 'tabs') return { ok: [], failed: [] };
  return { ok: target.tabs, failed: (target.refused ?? []).map(({ target: t, code, message }) => ({ target: t, code, message })) };
}

/** The organisation tools; each takes the worker's leases, workspaces and tab groups from its context. */
function organizeToolSet() {
  const workspaceCreate = defineTool({
    name: 'workspace_create',
    uses: ['targeting'],
    async handle(params, { targeting: deps }) {
      const created = await deps.workspaces.create(params.name, params.agent ?? null, params.url ?? 'about:blank');
      // The agent that opens a workspace owns it: others acting there get target_conflict.
      if (params.agent !== undefined) await deps.leases.claim('workspace', params.name, params.agent, DEFAULT_LEASE_TTL_MS);
      return { name: created.name, windowId: created.windowId, tabId: created.tabIds[0] ?? 0, owner: created.owner };
    },
  });

  const workspaceList = defineTool({
    name: 'workspace_list',
    uses: ['targeting'],
    async handle(_params, { targeting: deps }) {
      const live = await deps.workspaces.list();
      return { workspaces: live.map((w) => ({ name: w.name, windowId: w.windowId, tabIds: w.tabIds, owner: w.owner })) };
    },
  });

  const workspaceClose = defineTool({
    name: 'workspace_close',
    uses: ['targeting'],
    async handle(params, { targeting: deps }) {
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
    uses: ['targeting'],
    async handle(params, ctx) {
      const deps = ctx.targeting;
      if (await deps.groups.find(params.name)) {
        throw reasonedError('target_conflict', 'name_taken', `A tab group named "${params.name}" already exists; add tabs with \`chrome-relay group add ${params.name} <tab…>\`, or pick another name.`, {
          phase: 'resolve',
          details: { group: params.name },
        });
      }
      const tabs = [...new Set(params.tabs)];
      const groupId = await deps.organize.groupTabs(tabs);
      await deps.organize.updateGroup(groupId, { title: params.name, ...(params.color === undefined ? {} : { color: params.color }) });
      return { name: params.name, groupId, applied: tabs, failed: vetted(ctx.target).failed };
    },
  });

  const groupAdd = defineTool({
    name: 'group_add',
    uses: ['targeting'],
    async handle(params, ctx) {
      const deps = ctx.targeting;
      const group = await deps.groups.get(params.name);
      const tabs = [...new Set(params.tabs)];
      await deps.organize.groupTabs(tabs, group.id);
      return { name: params.name, groupId: group.id, applied: tabs, failed: vetted(ctx.target).failed };
    },
  });

  const groupList = defineTool({
    name: 'group_list',
    uses: ['targeting'],
    async handle(_params, { targeting: deps }) {
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
    uses: ['targeting'],
    async handle(params, ctx) {
      const deps = ctx.targeting;
      const group = await deps.groups.get(params.name);
      const checked = vetted(ctx.target);
      const applied: number[] = [];
      const failed = [...checked.failed];
      for (const tab of checked.ok) {
        try {
          await deps.browser.removeTab(tab);
          applied.push(tab);
        } catch (error) {
          const relay = RelayError.from(error);
          failed.push({ target: String(tab), code: relay.code, message: relay.message });
        }
      }
      // A tab that vanished between the check and the close leaves a real partial state: say so.
      if (failed.length > checked.failed.length && !params.allowPartial) {
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
    uses: ['targeting'],
    async handle(params, { targeting: deps }) {
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
    uses: ['targeting'],
    async handle(_params, { targeting: deps }) {
      // Leases die with what they name. Tab closes drop theirs as they happen (background.ts);
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
    uses: ['targeting'],
    async handle(params, { targeting: deps }) {
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

export const organizeTools = organizeToolSet();
