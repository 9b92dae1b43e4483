/** The network barrier's view of Chrome (netBarrier.ts NetApi): declarativeNetRequest session rules, tabs, frames, a reload. */
import type { NetApi } from './netBarrier.js';

export const chromeNetApi: NetApi = {
  async sessionRuleIds() {
    return (await chrome.declarativeNetRequest.getSessionRules()).map((rule) => rule.id);
  },
  async updateSessionRules(update) {
    // netRules.ts writes a structural subset of chrome's Rule type (its string unions are chrome's own values).
    await chrome.declarativeNetRequest.updateSessionRules(update as chrome.declarativeNetRequest.UpdateRuleOptions);
  },
  async allTabIds() {
    return (await chrome.tabs.query({})).flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
  },
  async frameUrls(tabId) {
    try {
      return ((await chrome.webNavigation.getAllFrames({ tabId })) ?? []).map((frame) => frame.url);
    } catch {
      // A tab that closed meanwhile has no frames.
      return [];
    }
  },
  async reload(tabId) {
    await chrome.tabs.reload(tabId);
  },
  async isRegexSupported(regex) {
    return (await chrome.declarativeNetRequest.isRegexSupported({ regex, isCaseSensitive: false })).isSupported;
  },
};
