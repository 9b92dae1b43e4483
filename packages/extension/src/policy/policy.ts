/**
 * The person's limits on agents, checked in one place (the dispatcher, before every tool; the attach
 * guard in cdpSession.ts, before every debugger attach):
 *
 * - Agents on other machines (a call a bridge relayed carries `via`): refused with `remote_agents_off` while the
 *   person has them turned off (settings.ts `remoteAgents`), after Pause and before anything else.
 * - Pause: every call fails with target_conflict `paused_by_user` until Resume (except `ping` and
 *   `restart_host`, which touch no tab: doctor and update keep working and report the pause). Pausing
 *   detaches every session at once and stops the calls in flight.
 * - Site block list: a call naming a tab whose URL (committed or pending) matches a rule, or a
 *   navigate to such a URL, fails with `site_blocked` naming the rule; the attach guard refuses such
 *   a tab too, and a tab that navigates onto a blocked site is detached at once. Inside a page, a frame
 *   showing a blocked site is never entered (frameBlocks.ts; page/frames.ts marks those frames for every
 *   tool, and a call aimed inside one fails with blockedFrameError).
 * - Agent tabs only (the default): a call naming a tab that is not an agent tab (agentTabs.ts: opened by
 *   chrome-relay, opened by an agent tab's page, or shared by the person from the popup) and not in a tab group
 *   titled exactly "chrome-relay" fails with `not_agent_tab`.
 * - The person's pages: a tab showing a page of an extension (chrome-extension://: chrome-relay's own popup and
 *   options, or another extension's) is never an agent's, whatever the settings: a call naming one, a navigate to
 *   one and an attach to one fail with `person_page`, and `tabs` lists it by origin only.
 * - The network barrier (netBarrier.ts): every tab a call acts on is covered before the tool runs, and a call
 *   waits until the block list is in force in Chrome's request filter (it fails when it cannot be).
 *
 * "Naming a tab": the tabs the call was resolved to act on (targeting/resolveCall.ts), plus the tab
 * ids a tool manages directly (group_create/group_add `tabs`, lease_claim `tab`).
 */
import { isToolName, reasonedError, RelayError, remoteAgentsOffError, toolLabel, TOOLS, type ToolResult, type Via } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';
import type { CdpSessions } from '../cdp/cdpSession.js';
import { tabsOf, type CallTabs } from '../context/call.js';
import type { OrganizeApi } from '../organizeApi.js';
import type { AgentPages } from './agentPages.js';
import type { AgentTabKind, AgentTabs } from './agentTabs.js';
import { originOf, type SiteBlock } from './frameBlocks.js';
import type { NetBarrier } from './netBarrier.js';
import type { PauseState, PauseStore } from './pause.js';
import type { Settings, SettingsStore } from './settings.js';
import { scrubValue } from './scrub.js';
import { blockingRule, parseSiteRules, type RuleProblem, type SiteRule } from './sitePatterns.js';

/** The tab group title that lends a person's tab to agents in "agent tabs only" mode. */
export const AGENT_GROUP_TITLE = 'chrome-relay';

export interface PolicyDeps {
  browser: Pick<BrowserApi, 'getTab'>;
  organize: Pick<OrganizeApi, 'queryGroups'>;
  sessions: Pick<CdpSessions, 'detach' | 'detachAll' | 'attachedTabs' | 'isAttached' | 'setIdleDetachMs'>;
  settings: SettingsStore;
  pause: PauseStore;
  agentTabs: AgentTabs;
  barrier: Pick<NetBarrier, 'cover' | 'ready' | 'opening' | 'isCovered' | 'rulesChanged' | 'unsupported'>;
  /** What agents' pages may keep doing when the person takes a tab back or pauses (agentPages.ts). */
  pages: Pick<AgentPages, 'handBack' | 'pause' | 'resume'>;
}

interface Watcher {
  tool: string;
  /** The tabs the call acts on, once resolved. */
  tabs: readonly number[];
  stop: (error: RelayError) => void;
}

/** A call's subscription to the person stopping it. */
export interface CallWatch {
  /** The tabs the call was resolved to act on (a navigation of one of them onto a blocked site stops it). */
  setTabs(tabs: readonly number[]): void;
  close(): void;
}

const when = (epochMs: number | null): string => (epochMs === null ? '' : ` at ${new Date(epochMs).toISOString().slice(11, 19)} UTC`);

export function pausedError(state: PauseState, tool: string): RelayError {
  return reasonedError(
    'target_conflict',
    'paused_by_user',
    `The person using this browser paused chrome-relay${when(state.since)} (Pause in the extension's toolbar popup); nothing was done. Stop and tell them; commands work again once they press Resume.`,
    { tool, phase: 'dispatch', details: { pausedAt: state.since } },
  );
}

function interruptedByPause(tool: string): RelayError {
  return reasonedError(
    'target_conflict',
    'paused_by_user',
    `The person paused chrome-relay while ${toolLabel(tool)} was running, so it was stopped and every tab detached; it may already have taken effect. Stop and tell them; once they press Resume, check the page before re-issuing it.`,
    { tool, phase: 'act', retryable: false, details: { interrupted: true, mayHaveActed: true } },
  );
}

/** A tab on a blocked site is named by its origin only: the path may be what the person keeps to themselves. */
function blockedTabError(tool: string, tab: number, url: string, rule: string, interrupted: boolean): RelayError {
  const site = originOf(url) || 'a page';
  const what = interrupted ? `Tab ${tab} navigated to ${site} while ${toolLabel(tool)} was running` : `Tab ${tab} shows ${site}`;
  const outcome = interrupted ? `${toolLabel(tool)} was stopped and the tab detached; it may already have taken effect` : 'chrome-relay does not attach to it and nothing was done';
  return reasonedError(
    'target_conflict',
    'site_blocked',
    `${what}, a site the person blocked for agents (rule "${rule}" in chrome-relay's options); ${outcome}. Work in another tab, or ask the person to remove the rule.`,
    { tool, phase: interrupted ? 'act' : 'resolve', retryable: false, details: { tab, origin: originOf(url), rule, ...(interrupted ? { interrupted: true, mayHaveActed: true } : {}) } },
  );
}

function blockedUrlError(tool: string, url: string, rule: string): RelayError {
  return reasonedError(
    'target_conflict',
    'site_blocked',
    `${url} is a site the person blocked for agents (rule "${rule}" in chrome-relay's options); nothing was opened. Leave that site alone, or ask the person to remove the rule.`,
    { tool, phase: 'resolve', details: { url, rule } },
  );
}

/** What was aimed at a blocked frame, for blockedFrameError's message. */
export type FrameAim =
  | { ref: string; is: 'inside' | 'frame' }
  | { point: { x: number; y: number }; ref?: string }
  | { focus: true }
  | { frame: true }
  | { capture: 'screenshot' };

function aimText(aim: FrameAim): string {
  if ('point' in aim) return `The input at (${aim.point.x}, ${aim.point.y})${aim.ref === undefined ? '' : ` for @${aim.ref}`} would go into a frame`;
  if ('ref' in aim) return aim.is === 'frame' ? `@${aim.ref} is a frame` : `@${aim.ref} is inside a frame`;
  if ('capture' in aim) return `The ${aim.capture} would show a frame`;
  return 'focus' in aim ? 'Keyboard focus is inside a frame' : 'chrome-relay was about to enter a frame';
}

/**
 * A call aimed inside a frame of an unblocked page that shows a blocked site (policy/frameBlocks.ts). Only the
 * frame's origin is named: its path may be what the person wanted kept out of sight.
 */
export function blockedFrameError(tab: number, block: SiteBlock, aim: FrameAim): RelayError {
  const origin = originOf(block.url);
  const details: Record<string, unknown> = { tab, origin, rule: block.rule, frame: true };
  if ('ref' in aim && aim.ref !== undefined) details.ref = aim.ref;
  if ('point' in aim) Object.assign(details, aim.point);
  // A capture that cannot paint the frame over is not handed out at all: never its pixels.
  const outcome = 'capture' in aim ? 'its area could not be measured or painted over, so no image was returned' : 'chrome-relay does not read or act inside it, and nothing was done';
  return reasonedError(
    'target_conflict',
    'site_blocked',
    `${aimText(aim)} of tab ${tab}'s page that shows ${origin === '' ? 'a site' : `${origin}, a site`} the person blocked for agents (rule "${block.rule}" in chrome-relay's options); ${outcome}. Work with the rest of the page, or ask the person to remove the rule.`,
    { phase: 'resolve', retryable: false, details },
  );
}

function notAgentTabError(tool: string, tab: number): RelayError {
  return reasonedError(
    'target_conflict',
    'not_agent_tab',
    `Tab ${tab} is one of the person's own tabs: agents work only in tabs chrome-relay opened (and windows those open), tabs the person shared from chrome-relay's toolbar popup ("Let agents use this tab") or put into a tab group named "${AGENT_GROUP_TITLE}"; nothing was done. Open your own tab with \`chrome-relay navigate <url>\`, or ask the person to share this one.`,
    { tool, phase: 'resolve', details: { tab } },
  );
}

/** A page of an extension (chrome-relay's own popup and options, or another extension's): the person's, never an agent's. */
export function isPersonPage(url: string | undefined): boolean {
  return url !== undefined && /^chrome-extension:/i.test(url);
}

function personPageError(tool: string, tab: number | undefined, url: string): RelayError {
  const where = tab === undefined ? 'That URL is' : `Tab ${tab} shows`;
  return reasonedError(
    'target_conflict',
    'person_page',
    `${where} a page of a browser extension (${originOf(url) || 'chrome-extension:'}) — chrome-relay's own controls or another extension's — and those are the person's: agents never see, open or act in them, and nothing was done. Work in your own tabs (\`chrome-relay navigate <url>\`).`,
    { tool, phase: 'resolve', retryable: false, details: { ...(tab === undefined ? {} : { tab }), origin: originOf(url) } },
  );
}

/** An error with every URL on a blocked site in its message and details cut to the origin (scrub.ts). */
function scrubbedError(error: RelayError, rules: readonly SiteRule[]): RelayError {
  const message = scrubValue(error.message, rules);
  const details = scrubValue(error.details, rules);
  if (message === error.message && details === error.details) return error;
  return new RelayError(error.code, message, { tool: error.tool, phase: error.phase, retryable: error.retryable, details });
}

/** Tab ids a tool manages directly, beyond the ones the call resolved to act on. */
function managedTabs(params: Readonly<Record<string, unknown>>): number[] {
  const out: number[] = [];
  if (typeof params.tab === 'number') out.push(params.tab);
  if (Array.isArray(params.tabs)) for (const tab of params.tabs) if (typeof tab === 'number') out.push(tab);
  return out;
}

type TabsResult = ToolResult<'tabs'>;

function originOnly(url: string): string {
  const origin = originOf(url);
  return origin === '' ? '' : `${origin}/`;
}

/** `tabs` as the agent may see it: a tab on a blocked site or showing an extension page by its origin only, with no title. */
function hiddenTabs(result: TabsResult, rules: readonly SiteRule[]): TabsResult {
  const hidden = (url: string): boolean => isPersonPage(url) || blockingRule(rules, [url]) !== undefined;
  return {
    ...result,
    windows: result.windows.map((window) => ({
      ...window,
      tabs: window.tabs.map((tab) => (hidden(tab.url) ? { ...tab, url: originOnly(tab.url), title: '' } : tab)),
    })),
  };
}

export class Policy {
  readonly #deps: PolicyDeps;
  readonly #watchers = new Set<Watcher>();

  constructor(deps: PolicyDeps) {
    this.#deps = deps;
    deps.settings.onChange((settings) => {
      this.#settingsChanged(settings).catch((error: unknown) => console.error('chrome-relay: applying settings failed', error));
    });
  }

  /** Fails while paused (first thing a call does, before anything is looked up). */
  async checkPause(tool: string): Promise<void> {
    // Health checks and plumbing act on no tab of the person's (the tool entry's `health`).
    if (isToolName(tool) && TOOLS[tool].health === true) return;
    const state = await this.#deps.pause.get();
    if (state.paused) throw pausedError(state, tool);
  }

  /**
   * A call a bridge relayed (`via`: an agent on another machine, in a container or in WSL) while the person turned
   * such agents off. Every tool, health checks included: "off" leaves such an agent nothing to call.
   */
  async checkVia(tool: string, via: Via | undefined): Promise<void> {
    if (via === undefined) return;
    if (!(await this.#deps.settings.get()).remoteAgents) throw remoteAgentsOffError(tool, via);
  }

  /**
   * The person's pages, the site block list and "agent tabs only" for the tabs a call names (and navigate's URL);
   * then the named tabs are covered by the network barrier, and the call waits until the block list is in force.
   */
  async checkTabs(tool: string, params: Readonly<Record<string, unknown>>, tabs: CallTabs): Promise<void> {
    const settings = await this.#deps.settings.get();
    const rules = await this.#deps.settings.rules();
    if (isToolName(tool) && TOOLS[tool].loads === 'url' && typeof params.url === 'string') {
      if (isPersonPage(params.url.trim())) throw personPageError(tool, undefined, params.url.trim());
      const blocked = blockingRule(rules, [params.url]);
      if (blocked) throw blockedUrlError(tool, blocked.url, blocked.rule.text);
    }
    const named = [...new Set([...tabsOf(tabs), ...managedTabs(params)])];
    const existing: number[] = [];
    for (const tabId of named) {
      const tab = await this.#tabOrUndefined(tabId);
      // A tab that does not exist: the tool reports it missing in its own words.
      if (tab === undefined) continue;
      const personPage = [tab.url, tab.pendingUrl].find(isPersonPage);
      if (personPage !== undefined) throw personPageError(tool, tabId, personPage);
      const blocked = blockingRule(rules, [tab.url, tab.pendingUrl]);
      if (blocked) throw blockedTabError(tool, tabId, blocked.url, blocked.rule.text, false);
      if (settings.agentTabsOnly && !(await this.isAgentTab(tabId, tab.groupId))) throw notAgentTabError(tool, tabId);
      existing.push(tabId);
    }
    // A tab an agent acts in is under the barrier from now on (with "agent tabs only" on, it already was).
    if (existing.some((tabId) => !this.#deps.barrier.isCovered(tabId))) await this.#deps.barrier.cover(existing);
    if (rules.length > 0) await this.#deps.barrier.ready();
  }

  /**
   * A failure the person's limits explain: a navigation the network barrier stopped (the tool names where, as
   * `blockedUrl`) is site_blocked with the rule and the site's origin — never that URL, whose path is the blocked
   * site's. Anything else is returned as it was.
   */
  async explainFailure(tool: string, error: unknown): Promise<unknown> {
    if (!(error instanceof RelayError)) return error;
    const rules = await this.#deps.settings.rules();
    if (typeof error.details.blockedUrl !== 'string') return scrubbedError(error, rules);
    const { blockedUrl, ...details } = error.details;
    const blocked = blockingRule(rules, [blockedUrl]);
    if (blocked === undefined) return new RelayError(error.code, error.message, { tool: error.tool, phase: error.phase, retryable: error.retryable, details });
    const origin = originOf(blockedUrl);
    return reasonedError(
      'target_conflict',
      'site_blocked',
      `The navigation was stopped before it reached ${origin || 'a site'} (a redirect led there), a site the person blocked for agents (rule "${blocked.rule.text}" in chrome-relay's options); nothing was loaded from it. Leave that site alone, or ask the person to remove the rule.`,
      { tool, phase: 'act', retryable: false, details: { ...(typeof details.tab === 'number' ? { tab: details.tab } : {}), origin, rule: blocked.rule.text, url: details.url } },
    );
  }

  /**
   * After a tool succeeded: the result the agent may see. `tabs` lists a tab on a blocked site, or showing an
   * extension's page, by its origin only, with no title: the person's bank or mail stays out of the agent's view,
   * and the agent still learns that the tab exists and why it is out of reach.
   */
  async noteResult<T>(tool: string, result: T): Promise<T> {
    const rules = await this.#deps.settings.rules();
    // A tab list (the entry's `lists: 'tabs'`) is a TabsResult: the dispatcher checked it against the tool's schema.
    const listsTabs = isToolName(tool) && TOOLS[tool].lists === 'tabs';
    const shown = listsTabs && typeof result === 'object' && result !== null ? (hiddenTabs(result as unknown as TabsResult, rules) as unknown as T) : result;
    // Whatever else the tool returned: no URL on a blocked site beyond its origin (scrub.ts).
    return scrubValue(shown, rules);
  }

  /**
   * How chrome-relay opens a tab (browserApi.ts and organizeApi.ts call it for every tab or window they create):
   * the tab is an agent tab, covered by the barrier, before it is handed back — and, while it is being created,
   * every new tab is (netBarrier.ts `opening`), since a page given at creation may navigate before its id is known.
   */
  async openTab<T>(open: () => Promise<T>, tabIdOf: (opened: T) => number | undefined): Promise<T> {
    return this.#deps.barrier.opening(async () => {
      const opened = await open();
      const tabId = tabIdOf(opened);
      if (tabId !== undefined) await this.adopt(tabId, 'opened');
      return opened;
    });
  }

  /** Make a tab the agents' (opened by chrome-relay or by an agent tab's page, or shared by the person), under the barrier. */
  async adopt(tabId: number, kind: AgentTabKind): Promise<void> {
    await this.#deps.agentTabs.add(tabId, kind);
    await this.#deps.barrier.cover([tabId]);
  }

  /** webNavigation.onCreatedNavigationTarget: a window an agent tab's page opened is the agents' too; one a covered tab opened is covered. */
  async navigationTargetCreated(sourceTabId: number, tabId: number): Promise<void> {
    if (await this.isAgentTab(sourceTabId)) await this.adopt(tabId, 'child');
    else if (this.#deps.barrier.isCovered(sourceTabId)) await this.#deps.barrier.cover([tabId]);
  }

  /** The popup's "Let agents use this tab". Never an extension's page. */
  async share(tabId: number): Promise<void> {
    const tab = await this.#deps.browser.getTab(tabId);
    if (isPersonPage(tab.url ?? tab.pendingUrl)) throw personPageError('share', tabId, tab.url ?? tab.pendingUrl ?? '');
    await this.adopt(tabId, 'shared');
  }

  /**
   * The popup's "Stop sharing": the tab is the person's again, and agents lose it at once — and with it whatever
   * they left running there (agentPages.ts: the page is loaded again, under a new tab id, which it returns).
   */
  async unshare(tabId: number): Promise<number | undefined> {
    if ((await this.#deps.agentTabs.kindOf(tabId)) !== 'shared') return undefined;
    await this.#deps.agentTabs.remove(tabId);
    for (const watcher of [...this.#watchers]) if (watcher.tabs.includes(tabId)) watcher.stop(notAgentTabError(watcher.tool, tabId));
    if (this.#deps.sessions.isAttached(tabId)) await this.#deps.sessions.detach(tabId);
    return this.#deps.pages.handBack(tabId);
  }

  /** The attach guard: no session while paused, none on an extension's page, none on a blocked site. */
  async guardAttach(tabId: number): Promise<void> {
    const state = await this.#deps.pause.get();
    if (state.paused) throw pausedError(state, '');
    const tab = await this.#tabOrUndefined(tabId);
    if (tab === undefined) return; // attach itself reports the missing tab
    const personPage = [tab.url, tab.pendingUrl].find(isPersonPage);
    if (personPage !== undefined) throw personPageError('', tabId, personPage);
    const rules = await this.#deps.settings.rules();
    if (rules.length === 0) return;
    const blocked = blockingRule(rules, [tab.url, tab.pendingUrl]);
    if (blocked) throw blockedTabError('', tabId, blocked.url, blocked.rule.text, false);
  }

  async isAgentTab(tabId: number, groupId?: number): Promise<boolean> {
    if (await this.#deps.agentTabs.has(tabId)) return true;
    const group = groupId ?? (await this.#tabOrUndefined(tabId))?.groupId;
    if (group === undefined || group < 0) return false;
    const groups = await this.#deps.organize.queryGroups(AGENT_GROUP_TITLE);
    return groups.some((g) => g.id === group && g.title === AGENT_GROUP_TITLE);
  }

  /**
   * Be told when the person stops this call (Pause; its tab navigating onto a blocked site).
   * Subscribe before checkPause, so a pause landing in between is not missed. Returns the unsubscribe.
   */
  watch(tool: string, stop: (error: RelayError) => void): CallWatch {
    const watcher: Watcher = { tool, tabs: [], stop };
    this.#watchers.add(watcher);
    return {
      setTabs: (tabs) => {
        watcher.tabs = tabs;
      },
      close: () => this.#watchers.delete(watcher),
    };
  }

  /**
   * The options page's Save: the block list must fit Chrome's request filter (else the lines that do not are the
   * problems, and nothing is saved); once saved, it is in force before this resolves.
   */
  async saveSettings(settings: Settings): Promise<RuleProblem[]> {
    const problems = await this.#deps.barrier.unsupported(parseSiteRules(settings.blockedSites).rules);
    if (problems.length > 0) return problems;
    await this.#deps.settings.save(settings);
    await this.#deps.barrier.ready();
    return [];
  }

  /**
   * The popup's switch: pausing stops every call in flight, detaches every session at once and stops the agents'
   * pages (agentPages.ts); Resume wakes their pages before agents may act again.
   */
  async setPaused(paused: boolean): Promise<PauseState> {
    if (!paused && (await this.#deps.pause.get()).paused) await this.#deps.pages.resume();
    const state = await this.#deps.pause.set(paused);
    if (state.paused) {
      for (const watcher of [...this.#watchers]) watcher.stop(interruptedByPause(watcher.tool));
      await this.#deps.sessions.detachAll();
      await this.#deps.pages.pause();
    }
    return state;
  }

  /** tabs.onUpdated with a new URL: a tab that moved onto a blocked site or an extension's page loses its session at once. */
  async tabUrlChanged(tabId: number, url: string): Promise<void> {
    if (isPersonPage(url)) {
      for (const watcher of [...this.#watchers]) if (watcher.tabs.includes(tabId)) watcher.stop(personPageError(watcher.tool, tabId, url));
      if (this.#deps.sessions.isAttached(tabId)) await this.#deps.sessions.detach(tabId);
      return;
    }
    const rules = await this.#deps.settings.rules();
    const blocked = blockingRule(rules, [url]);
    if (!blocked) return;
    for (const watcher of [...this.#watchers]) {
      if (watcher.tabs.includes(tabId)) watcher.stop(blockedTabError(watcher.tool, tabId, url, blocked.rule.text, true));
    }
    if (this.#deps.sessions.isAttached(tabId)) await this.#deps.sessions.detach(tabId);
  }

  async #settingsChanged(settings: Settings): Promise<void> {
    this.#deps.sessions.setIdleDetachMs(settings.idleDetachSeconds * 1000);
    // The barrier installs the new list (and the calls that come next wait for it: checkTabs).
    this.#deps.barrier.rulesChanged().catch((error: unknown) => console.error('chrome-relay: installing the block list failed', error));
    // Tabs that the new settings refuse lose their session now, not at the next command.
    for (const tabId of this.#deps.sessions.attachedTabs()) {
      try {
        const tab = await this.#tabOrUndefined(tabId);
        if (tab === undefined) continue;
        const blocked = blockingRule(await this.#deps.settings.rules(), [tab.url, tab.pendingUrl]);
        const refused = blocked !== undefined || (settings.agentTabsOnly && !(await this.isAgentTab(tabId, tab.groupId)));
        if (refused) await this.#deps.sessions.detach(tabId);
      } catch (error) {
        console.error(`chrome-relay: applying settings to tab ${tabId} failed`, error);
      }
    }
  }

  async #tabOrUndefined(tabId: number): Promise<chrome.tabs.Tab | undefined> {
    try {
      return await this.#deps.browser.getTab(tabId);
    } catch (error) {
      if (error instanceof RelayError && error.code === 'target_not_found') return undefined;
      throw error;
    }
  }
}
