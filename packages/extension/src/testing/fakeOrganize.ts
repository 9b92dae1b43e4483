/** OrganizeApi over a FakeBrowser's windows, with groups kept here: the fake for workspaces, groups and targeting. */
import type { GroupInfo, OrganizeApi } from '../organizeApi.js';
import type { FakeBrowser } from './fakeBrowser.js';

export type FakeOrganize = OrganizeApi & { groups: Map<number, GroupInfo & { tabIds: number[] }> };

export function fakeOrganize(browser: FakeBrowser): FakeOrganize {
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
      const window = browser.windows.get(windowId);
      for (const tabId of window?.tabIds ?? []) browser.closeTab(tabId);
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
      return (groups.get(groupId)?.tabIds ?? []).filter((id) => browser.tabs.has(id));
    },
  };
}
