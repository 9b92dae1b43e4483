/** OrganizeApi over a FakeBrowser's windows, with groups kept here: the fake for workspaces, groups and targeting. */
import type { GroupInfo, OrganizeApi } from '../organizeApi.js';
import type { FakeBrowser } from './fakeBrowser.js';

export type FakeOrganize = OrganizeApi & { groups: Map<number, GroupInfo & { tabIds: number[] }> };

export function fakeOrganize(browser: FakeBrowser): FakeOrganize {
  const groups = new Map<number, GroupInfo & { tabIds: number[] }>();
  let next = 0;
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
      const window = browser.windows.get(windowId);
      for (const tabId of window?.tabIds ?? []) browser.closeTab(tabId);
      browser.windows.delete(windowId);
    },
    async groupTabs(tabIds, groupId) {
      const id = groupId ?? 100 + next++;
      const group = groups.get(id) ?? { id, title: '', color: 'grey', windowId: 1, tabIds: [] };
      // As Chrome does: a tab is in one group at most, it leaves its old one, and a group left empty is gone.
      for (const other of groups.values()) {
        if (other.id === id) continue;
        other.tabIds = other.tabIds.filter((tabId) => !tabIds.includes(tabId));
        if (other.tabIds.length === 0) groups.delete(other.id);
      }
      group.tabIds.push(...tabIds.filter((tabId) => !group.tabIds.includes(tabId)));
      groups.set(id, group);
      for (const tabId of tabIds) {
        const tab = browser.tabs.get(tabId);
        if (tab) tab.groupId = id;
      }
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
      return (groups.get(groupId)?.tabIds ?? []).filter((id) => browser.tabs.has(id));
    },
  };
}
