/**
 * The tab chrome-relay remembers, one per agent, and the "tab closed" notification.
 *
 * The remembered tab is the one chrome-relay last worked on for an agent: set by navigate and by every command
 * that names a tab (explicitly, or through a ref). It is always a tab chrome-relay opened or was
 * given, which is why commands without --tab may use it. It lives in chrome.storage.session so it
 * survives worker restarts, and it is re-checked on every use: when it is gone, a command without
 * --tab fails with target_not_found. chrome-relay never picks another tab by itself — in
 * particular not the browser's active tab, which is the person's.
 *
 * Each agent identity a call carries (--agent, CHROME_RELAY_AGENT) has its own remembered tab, so one agent's
 * command without --tab never lands in the tab another agent last used; calls without an identity share one slot
 * (SESSION_KEYS.currentTab). Named agents' slots are kept for the MAX_AGENT_TABS agents whose tab changed last.
 *
 * Which tab a call acts on is decided once per call in targeting/resolveCall.ts, and the dispatcher remembers it
 * once the tool ran (rememberTab): a tool takes its tab from its context (context/call.ts callTab).
 */
import { RelayError } from '@chrome-relay/protocol';
import type { BrowserApi } from './browserApi.js';
import { Serial } from './state/serial.js';
import { isTabId, readSession, SESSION_KEYS, writeSession, type Guard, type SessionArea } from './state/storage.js';

/** How many named agents' tabs are remembered: the agent whose tab changed longest ago is forgotten first. */
export const MAX_AGENT_TABS = 64;

interface AgentTab {
  agent: string;
  tab: number;
}

const isAgentTabs: Guard<AgentTab[]> = (value): value is AgentTab[] =>
  Array.isArray(value) && value.every((entry: unknown) => typeof entry === 'object' && entry !== null && typeof (entry as AgentTab).agent === 'string' && isTabId((entry as AgentTab).tab));

/** The named agents' tabs, least recent first. */
async function agentTabs(browser: Pick<SessionArea, 'storageSessionGet'>): Promise<AgentTab[]> {
  return (await readSession(browser, SESSION_KEYS.agentTabs, isAgentTabs)) ?? [];
}

/** The remembered tab id of this agent (undefined: the calls without one) as stored (it may have been closed since), or undefined. */
export async function readRememberedTab(browser: Pick<BrowserApi, 'storageSessionGet'>, agent?: string): Promise<number | undefined> {
  if (agent === undefined) return readSession(browser, SESSION_KEYS.currentTab, isTabId);
  return (await agentTabs(browser)).find((entry) => entry.agent === agent)?.tab;
}

/** The tab chrome-relay last worked on for anyone (doctor's page check): the anonymous slot, else the last agent's. */
export async function lastWorkedTab(browser: Pick<BrowserApi, 'storageSessionGet'>): Promise<number | undefined> {
  return (await readRememberedTab(browser)) ?? (await agentTabs(browser)).at(-1)?.tab;
}

/** The remembered tab, checked to exist; target_not_found (with the move) when there is none. */
export async function rememberedTab(browser: Pick<BrowserApi, 'getTab' | 'storageSessionGet'>, agent?: string): Promise<number> {
  const remembered = await readRememberedTab(browser, agent);
  if (remembered !== undefined && (await tabExists(browser, remembered))) return remembered;
  throw noRememberedTab(remembered, agent);
}

/** No --tab and no usable remembered tab: say which, and the two ways on. */
export function noRememberedTab(remembered: number | undefined, agent?: string): RelayError {
  const move = 'Run `chrome-relay tabs` and pass --tab <id>, or open a page with `chrome-relay navigate <url>`.';
  const who = agent === undefined ? 'chrome-relay' : `chrome-relay (for agent "${agent}")`;
  const never = agent === undefined ? 'it never picks one by itself' : 'it never picks one by itself, nor one another agent used';
  const forAgent = agent === undefined ? {} : { agent };
  if (remembered === undefined) {
    return new RelayError('target_not_found', `No --tab was given and ${who} has not used a tab yet (${never}). ${move}`, {
      phase: 'resolve',
      details: { tab: null, ...forAgent },
    });
  }
  return new RelayError(
    'target_not_found',
    `No --tab was given and tab ${remembered}, the one ${who} last used, has been closed; chrome-relay never picks another tab by itself. ${move}`,
    { phase: 'resolve', details: { tab: remembered, remembered: true, ...forAgent } },
  );
}

/** The named agents' slots are read, changed and written whole: two agents' calls ending together must not lose one. */
const agentWrites = new Serial();

/**
 * Remember the tab chrome-relay works on for this agent (the dispatcher does, after each call that acted in a page: no
 * tool does). Written only when it changed: the session area's reads come from memory (state/cachedArea.ts), its
 * writes do not.
 */
export async function rememberTab(tabId: number, browser: BrowserApi, agent?: string): Promise<void> {
  if ((await readRememberedTab(browser, agent)) === tabId) return;
  if (agent === undefined) {
    await writeSession(browser, SESSION_KEYS.currentTab, tabId);
    return;
  }
  await agentWrites.run(async () => {
    const others = (await agentTabs(browser)).filter((entry) => entry.agent !== agent);
    await writeSession(browser, SESSION_KEYS.agentTabs, [...others, { agent, tab: tabId }].slice(-MAX_AGENT_TABS));
  });
}

export async function tabExists(browser: Pick<BrowserApi, 'getTab'>, tabId: number): Promise<boolean> {
  try {
    await browser.getTab(tabId);
    return true;
  } catch (error) {
    if (error instanceof RelayError && error.code === 'target_not_found') return false;
    throw error;
  }
}
