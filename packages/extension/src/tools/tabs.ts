/** `tabs`: every window chrome-relay can act in, with its tabs, in Chrome's own order. */
import type { TabInfo, ToolResult } from '@chrome-relay/protocol';
import { defineTool } from './defineTool.js';

type WindowInfo = ToolResult<'tabs'>['windows'][number];

export function toTabInfo(tab: chrome.tabs.Tab): TabInfo | null {
  // Only tabs outside the tab strip (e.g. DevTools windows) lack an id; nothing can target them.
  if (tab.id === undefined) return null;
  return {
    id: tab.id,
    windowId: tab.windowId,
    index: tab.index,
    // A tab still loading its first URL reports it only as pendingUrl.
    url: tab.url ?? tab.pendingUrl ?? '',
    title: tab.title ?? '',
    active: tab.active,
    status: tab.status ?? 'unknown',
    groupId: tab.groupId,
  };
}

export function toWindowInfo(window: chrome.windows.Window): WindowInfo | null {
  if (window.id === undefined) return null;
  const tabs: TabInfo[] = [];
  for (const tab of window.tabs ?? []) {
    const info = toTabInfo(tab);
    if (info) tabs.push(info);
  }
  return { id: window.id, focused: window.focused, type: window.type ?? 'normal', tabs };
}

export const tabsTool = defineTool({
  name: 'tabs',
  uses: [],
  async handle(_params, ctx) {
    const windows = await ctx.browser.getAllWindows({ populate: true, windowTypes: ['normal', 'popup', 'app'] });
    const result: WindowInfo[] = [];
    for (const window of windows) {
      const info = toWindowInfo(window);
      if (info) result.push(info);
    }
    return { windows: result };
  },
});
