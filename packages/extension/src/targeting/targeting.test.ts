import { describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { FakeBrowser } from '../testing/fakeChrome.js';
import { applyTargeting, type TargetingContext } from './applyTargeting.js';
import { LeaseStore } from './leases.js';
import type { GroupInfo, OrganizeApi } from './organizeApi.js';
import { WorkspaceStore } from './workspaces.js';

/** Organising over the fake browser's windows; groups kept here. */
function fakeOrganize(browser: FakeBrowser): OrganizeApi & { groups: Map<number, GroupInfo & { tabIds: number[] }> } {
  const groups = new Map<number, GroupInfo & { tabIds: number[] }>();
  return {
    groups,
    async createWindow(url) {
      const windowId = browser.addWindow();
      const tab = browser.addTab({ windowId, url, active: true });
      return { windowId, tabId: tab.id ?? 0 };
    },
    async windowTabs(windowId) {
      const window = browser.windows.get(windowId);
      if (!window) return null;
      return { tabIds: [...window.tabIds], activeTabId: window.tabIds.find((id) => browser.tabs.get(id)?.active) ?? null };
    },
    async removeWindow(windowId) {
      browser.windows.delete(windowId);
    },
    async groupTabs(tabIds, groupId) {
      const id = groupId ?? 100 + groups.size;
      const group = groups.get(id) ?? { id, title: '', color: 'grey', windowId: 1, tabIds: [] };
      group.tabIds.push(...tabIds);
      groups.set(id, group);
      return id;
    },
    async updateGroup(groupId, properties) {
      const group = groups.get(groupId);
      if (group) Object.assign(group, properties);
    },
    async queryGroups(title) {
      return [...groups.values()].filter((g) => title === undefined || g.title === title);
    },
    async groupTabIds(groupId) {
      return groups.get(groupId)?.tabIds ?? [];
    },
  };
}

function setup() {
  const browser = new FakeBrowser();
  let now = 1_000_000;
  const organize = fakeOrganize(browser);
  const window = browser.addWindow({ focused: true });
  const tab = browser.addTab({ windowId: window, active: true }).id ?? 0;
  const ctx: TargetingContext = {
    browser,
    organize,
    leases: new LeaseStore(browser, () => now),
    workspaces: new WorkspaceStore(browser, organize),
    refTab: async () => undefined,
  };
  return { browser, ctx, organize, tab, advance: (ms: number) => (now += ms) };
}

async function code(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return 'ok';
  } catch (error) {
    return error instanceof RelayError ? error.code : String(error);
  }
}

describe('applyTargeting', () => {
  it('resolves a workspace to its tab, and refuses two targets or a missing one', async () => {
    const { ctx } = setup();
    const ws = await ctx.workspaces.create('w1', null, 'about:blank');
    expect(await applyTargeting({ tool: 'snapshot', params: {}, target: { workspace: 'w1' } }, ctx)).toEqual({ tab: ws.tabIds[0] });
    expect(await code(applyTargeting({ tool: 'snapshot', params: { tab: 3 }, target: { workspace: 'w1' } }, ctx))).toBe('target_conflict');
    expect(await code(applyTargeting({ tool: 'snapshot', params: {}, target: { workspace: 'w1', group: 'g' } }, ctx))).toBe('target_conflict');
    expect(await code(applyTargeting({ tool: 'snapshot', params: {}, target: { workspace: 'nope' } }, ctx))).toBe('target_not_found');
    expect(await code(applyTargeting({ tool: 'tabs', params: {}, target: { workspace: 'w1' } }, ctx))).toBe('invalid_arguments');
    expect(await code(applyTargeting({ tool: 'snapshot', params: {}, target: { group: 'g' } }, ctx))).toBe('target_not_found');
  });

  it('resolves a group to its first tab and injects the agent where the tool takes one', async () => {
    const { ctx, organize, tab } = setup();
    const groupId = await organize.groupTabs([tab]);
    await organize.updateGroup(groupId, { title: 'g' });
    expect(await applyTargeting({ tool: 'screenshot', params: {}, target: { group: 'g' } }, ctx)).toEqual({ tab });
    expect(await applyTargeting({ tool: 'lease_list', params: {}, agent: 'a' }, ctx)).toEqual({});
    expect(await applyTargeting({ tool: 'workspace_close', params: { name: 'x' }, agent: 'a' }, ctx)).toEqual({ name: 'x', agent: 'a' });
  });

  it('enforces leases against other agents and anonymous calls, refreshes the owner, and expires idle leases', async () => {
    const { ctx, tab, advance } = setup();
    await ctx.leases.claim('tab', String(tab), 'alice', 1000);
    expect(await code(applyTargeting({ tool: 'snapshot', params: { tab }, agent: 'bob' }, ctx))).toBe('target_conflict');
    expect(await code(applyTargeting({ tool: 'snapshot', params: {} }, ctx))).toBe('target_conflict'); // current tab, no agent
    advance(900);
    expect(await code(applyTargeting({ tool: 'snapshot', params: { tab }, agent: 'alice' }, ctx))).toBe('ok'); // refreshes
    advance(900);
    expect(await code(applyTargeting({ tool: 'snapshot', params: { tab }, agent: 'bob' }, ctx))).toBe('target_conflict');
    advance(200);
    expect(await code(applyTargeting({ tool: 'snapshot', params: { tab }, agent: 'bob' }, ctx))).toBe('ok');
  });

  it('a workspace lease covers every tab of its window', async () => {
    const { ctx } = setup();
    const ws = await ctx.workspaces.create('w2', 'alice', 'about:blank');
    await ctx.leases.claim('workspace', 'w2', 'alice', 60_000);
    try {
      await applyTargeting({ tool: 'click', params: { tab: ws.tabIds[0], x: 1, y: 1 }, agent: 'bob' }, ctx);
      expect.unreachable();
    } catch (error) {
      expect((error as RelayError).details).toMatchObject({ owner: 'alice', kind: 'workspace', target: 'w2' });
    }
  });
});
