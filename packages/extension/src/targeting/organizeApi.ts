/**
 * The chrome.windows / chrome.tabGroups calls workspaces and groups need, behind a small interface
 * (BrowserApi covers tabs and storage; this file adds only what organising needs, so the fake in
 * fakeOrganize.ts stays small). Failures map through chromeApiError like every other chrome.* call.
 *
 * Nothing here focuses a window or activates a tab: windows are created with focused:false and
 * grouping a tab leaves the active tab alone.
 */
import { chromeApiError, guardedOpen } from '../browserApi.js';

export interface GroupInfo {
  id: number;
  title: string;
  color: string;
  windowId: number;
}

export interface OrganizeApi {
  /** A new unfocused normal window with one tab; resolves with both ids. */
  createWindow(url: string): Promise<{ windowId: number; tabId: number }>;
  /** The window's tab ids in strip order, or null when the window does not exist. */
  windowTabs(windowId: number): Promise<{ tabIds: number[]; activeTabId: number | null } | null>;
  removeWindow(windowId: number): Promise<void>;
  /** Group tabs; into `groupId` when given, else a new group. Resolves with the group id. */
  groupTabs(tabIds: readonly number[], groupId?: number): Promise<number>;
  updateGroup(groupId: number, properties: { title?: string; color?: string }): Promise<void>;
  queryGroups(title?: string): Promise<GroupInfo[]>;
  /** Tab ids of a group, in strip order. */
  groupTabIds(groupId: number): Promise<number[]>;
}

async function call<T>(api: string, run: () => Promise<T>, target: { tab?: number; window?: number } = {}): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw chromeApiError(api, error, target);
  }
}

function toGroupInfo(group: chrome.tabGroups.TabGroup): GroupInfo {
  return { id: group.id, title: group.title ?? '', color: group.color, windowId: group.windowId };
}

export const chromeOrganizeApi: OrganizeApi = {
  createWindow(url) {
    return guardedOpen(
      async () => {
        const window = await call('chrome.windows.create', () => chrome.windows.create({ url, focused: false, type: 'normal' }));
        const tabId = window?.tabs?.[0]?.id;
        if (window?.id === undefined || tabId === undefined) {
          throw chromeApiError('chrome.windows.create', new Error('the new window has no tab'));
        }
        return { windowId: window.id, tabId };
      },
      (opened) => opened.tabId,
    );
  },
  async windowTabs(windowId) {
    try {
      const window = await chrome.windows.get(windowId, { populate: true });
      const tabs = (window.tabs ?? []).filter((t) => t.id !== undefined);
      return { tabIds: tabs.map((t) => t.id ?? 0), activeTabId: tabs.find((t) => t.active)?.id ?? null };
    } catch (error) {
      const relay = chromeApiError('chrome.windows.get', error, { window: windowId });
      if (relay.code === 'target_not_found') return null;
      throw relay;
    }
  },
  removeWindow: (windowId) => call('chrome.windows.remove', () => chrome.windows.remove(windowId), { window: windowId }),
  groupTabs: (tabIds, groupId) =>
    call('chrome.tabs.group', () => {
      // The typings want a non-empty tuple; callers never pass an empty list (all-or-nothing checks first).
      const ids = [...tabIds] as [number, ...number[]];
      return chrome.tabs.group(groupId === undefined ? { tabIds: ids } : { tabIds: ids, groupId });
    }),
  updateGroup: async (groupId, properties) => {
    await call('chrome.tabGroups.update', () => chrome.tabGroups.update(groupId, properties as chrome.tabGroups.UpdateProperties));
  },
  queryGroups: async (title) => {
    const groups = await call('chrome.tabGroups.query', () => chrome.tabGroups.query(title === undefined ? {} : { title }));
    return groups.map(toGroupInfo);
  },
  groupTabIds: async (groupId) => {
    const tabs = await call('chrome.tabs.query', () => chrome.tabs.query({ groupId }));
    return tabs
      .sort((a, b) => a.index - b.index)
      .flatMap((t) => (t.id === undefined ? [] : [t.id]));
  },
};
