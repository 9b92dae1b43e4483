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
 *   one and an attach to one fail with `person_page`. The browser's own pages (chrome:, about:…) the same, with
 *   `browser_page`; local files with `local_files` unless the person allows them (urlGate.ts, the one URL gate).
 * - Agents' JavaScript (`js`, `wait --fn`: the entry's `agentCode`) is refused with `js_off` when the person turned
 *   it off in the options.
 * - The network barrier (netBarrier.ts): every tab a call acts on is covered before the tool runs, and a call
 *   waits until the block list is in force in Chrome's request filter (it fails when it cannot be).
 *
 * "Naming a tab": the tabs the call was resolved to act on (targeting/resolveCall.ts) — --tab, refs, a workspace or
 * group, the remembered tab, close's ids, and every tab a tool's params name (its entry's `reaches`: group and
 * workspace commands, lease claim). One verdict per tab (`#refusal`) decides them all, and decides what the lists
 * show (`tabs`, `group list`, `workspace list`: the entry's `lists`): what the agent may act on, the rest counted.
 */
import { isToolName, reasonedError, RelayError, remoteAgentsOffError, toolLabel, TOOLS, type ToolResult, type Via } from '@chrome-relay/protocol';
import { blockCheckedUrls, isPersonPage, pageRefusal, personPageError, urlRefusal } from './urlGate.js';
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
  browser: Pick<BrowserApi, 'getTab' | 'getAllWindows'>;
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

function jsOffError(tool: string): RelayError {
  return reasonedError(
    'target_conflict',
    'js_off',
    `The person turned agents' JavaScript off in chrome-relay's options, so ${toolLabel(tool)} with code of yours does not run; nothing was done. Do it with the other commands (\`chrome-relay snapshot\`, \`chrome-relay get\`, \`chrome-relay wait\` with --text, --selector or --url), or ask the person to allow JavaScript in the options.`,
    { tool, phase: 'resolve', retryable: false, details: {} },
  );
}

/** An error with every URL on a blocked site in its message and details cut to the origin (scrub.ts). */
function scrubbedError(error: RelayError, rules: readonly SiteRule[]): RelayError {
  const message = scrubValue(error.message, rules);
  const details = scrubValue(error.details, rules);
  if (message === error.message && details === error.details) return error;
  return new RelayError(error.code, message, { tool: error.tool, phase: error.phase, retryable: error.retryable, details });
}

type TabsResult = ToolResult<'tabs'>;
type GroupsResult = ToolResult<'group_list'>;
type WorkspacesResult = ToolResult<'workspace_list'>;

/**
 * The one rule for which tab groups an agent sees (listed, and resolved by name): a group is the agent's only when every
 * tab of it is usable by the agent; one of the person's tabs makes it the person's group.
 */
function agentsGroup(tabIds: readonly number[], usable: (tabId: number) => boolean): boolean {
  return tabIds.every(usable);
}

/** The "chrome-relay" tab groups' ids, looked up on first need. */
type AgentGroups = () => Promise<ReadonlySet<number>>;

/** The tabs open now, split into the ones the agent may act on and how many others there are. */
interface Visible {
  readonly usable: ReadonlySet<number>;
  readonly others: number;
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
   * The person's limits for a call, once its tabs are resolved: the agent's own JavaScript (the entry's `agentCode`),
   * the URL it asks to open (the entry's `loads`: the URL gate and the block list), and every tab it names — one
   * verdict per tab (`#refusal`); then the named tabs are covered by the network barrier, and the call waits until the
   * block list is in force.
   */
  /** `seen`: tabs the call's resolution just read from Chrome (targeting/resolveCall.ts), not asked for again. */
  async checkTabs(tool: string, params: Readonly<Record<string, unknown>>, tabs: CallTabs, seen: ReadonlyMap<number, chrome.tabs.Tab> = new Map()): Promise<void> {
    const settings = await this.#deps.settings.get();
    const rules = await this.#deps.settings.rules();
    const entry = isToolName(tool) ? TOOLS[tool] : undefined;
    if (entry?.agentCode !== undefined && params[entry.agentCode] !== undefined && !settings.agentJs) throw jsOffError(tool);
    if (entry?.loads === 'url' && typeof params.url === 'string') {
      const refused = urlRefusal(tool, params.url, settings);
      if (refused !== undefined) throw refused;
      const blocked = blockingRule(rules, [params.url.trim()]);
      if (blocked) throw blockedUrlError(tool, blocked.url, blocked.rule.text);
    }
    // Closing the last tabs of the browser's windows would quit it, with everything the person had open.
    if (entry?.destructive === true && tabs.kind === 'tabs') await this.#leavesBrowserOpen(tool, tabs.tabs);
    const existing: number[] = [];
    const agentGroups = this.#agentGroups();
    for (const tabId of tabsOf(tabs)) {
      const tab = seen.get(tabId) ?? (await this.#tabOrUndefined(tabId));
      // A tab that does not exist: the tool reports it missing in its own words.
      if (tab === undefined) continue;
      const refusal = await this.#refusal(tool, tab, settings, rules, agentGroups);
      if (refusal !== undefined) throw refusal;
      existing.push(tabId);
    }
    // A tab an agent acts in is under the barrier from now on (with "agent tabs only" on, it already was).
    if (existing.some((tabId) => !this.#deps.barrier.isCovered(tabId))) await this.#deps.barrier.cover(existing);
    if (rules.length > 0) await this.#deps.barrier.ready();
  }

  async #leavesBrowserOpen(tool: string, closing: readonly number[]): Promise<void> {
    const windows = await this.#deps.browser.getAllWindows({ populate: true, windowTypes: ['normal'] });
    if (windows.some((window) => (window.tabs ?? []).some((tab) => tab.id !== undefined && !closing.includes(tab.id)))) return;
    throw new RelayError('invalid_arguments', `Invalid arguments for ${toolLabel(tool)}: that would close every tab and quit the browser; open another tab first (\`chrome-relay navigate <url>\`).`, {
      tool,
      phase: 'validate',
      details: { field: tool === 'close' ? 'tabs' : 'name', tabs: [...closing] },
    });
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
   * After a tool succeeded: the result the agent may see. A list (the entry's `lists`) keeps only what the agent may
   * act on — the same verdict as a call naming each tab — and counts the rest: the person's tabs, their groups, their
   * bank or mail, never shown by URL or title.
   */
  async noteResult<T>(tool: string, result: T): Promise<T> {
    const rules = await this.#deps.settings.rules();
    const lists = isToolName(tool) ? TOOLS[tool].lists : undefined;
    // The dispatcher checked the result against the tool's schema, so a `lists` result has that list's shape.
    const shown = lists === undefined || typeof result !== 'object' || result === null ? result : ((await this.#onlyUsable(tool, lists, result)) as T);
    // Whatever else the tool returned: no URL on a blocked site beyond its origin (scrub.ts).
    return scrubValue(shown, rules);
  }

  async #onlyUsable(tool: string, lists: 'tabs' | 'groups' | 'workspaces', result: object): Promise<object> {
    const visible = await this.#visible(tool);
    if (lists === 'tabs') {
      const tabs = result as TabsResult;
      const windows = tabs.windows
        .map((window) => ({ ...window, tabs: window.tabs.filter((tab) => visible.usable.has(tab.id)) }))
        .filter((window) => window.tabs.length > 0);
      return { ...tabs, windows, otherTabs: visible.others };
    }
    if (lists === 'groups') {
      const listed = result as GroupsResult;
      const groups = listed.groups.filter((group) => agentsGroup(group.tabIds, (id) => visible.usable.has(id)));
      return { ...listed, groups, otherGroups: listed.groups.length - groups.length };
    }
    const listed = result as WorkspacesResult;
    let others = 0;
    const workspaces = listed.workspaces.map((workspace) => {
      const tabIds = workspace.tabIds.filter((id) => visible.usable.has(id));
      others += workspace.tabIds.length - tabIds.length;
      return { ...workspace, tabIds };
    });
    return { ...listed, workspaces, otherTabs: others };
  }

  /**
   * Whether the agent may see a tab group with these tabs, and so name it (targeting/groups.ts: `--group`, group
   * add/close/create): the rule `group list` shows groups by, each tab judged as a call naming it would be. A tab that
   * closed meanwhile counts against the group: the group is not shown on a guess.
   */
  async seesGroup(tabIds: readonly number[]): Promise<boolean> {
    const settings = await this.#deps.settings.get();
    const rules = await this.#deps.settings.rules();
    const agentGroups = this.#agentGroups();
    const usable = new Set<number>();
    for (const tabId of tabIds) {
      const tab = await this.#tabOrUndefined(tabId);
      if (tab !== undefined && (await this.#refusal('', tab, settings, rules, agentGroups)) === undefined) usable.add(tabId);
      else break;
    }
    return agentsGroup(tabIds, (id) => usable.has(id));
  }

  /** Every open tab's verdict, as a call naming it would get. */
  async #visible(tool: string): Promise<Visible> {
    const settings = await this.#deps.settings.get();
    const rules = await this.#deps.settings.rules();
    const agentGroups = this.#agentGroups();
    const windows = await this.#deps.browser.getAllWindows({ populate: true, windowTypes: ['normal', 'popup', 'app', 'devtools'] });
    const usable = new Set<number>();
    let others = 0;
    for (const tab of windows.flatMap((window) => window.tabs ?? [])) {
      if (tab.id === undefined) continue;
      if ((await this.#refusal(tool, tab, settings, rules, agentGroups)) === undefined) usable.add(tab.id);
      else others += 1;
    }
    return { usable, others };
  }

  /**
   * The one verdict on a tab an agent names or sees listed: an extension's or the browser's own page, a local file
   * the person keeps, a blocked site, or (with "agent tabs only") one of the person's own tabs. undefined: usable.
   */
  async #refusal(tool: string, tab: chrome.tabs.Tab, settings: Settings, rules: readonly SiteRule[], agentGroups: AgentGroups): Promise<RelayError | undefined> {
    const tabId = tab.id ?? -1;
    const urls = [tab.url, tab.pendingUrl];
    const page = pageRefusal(tool, tabId, urls, settings);
    if (page !== undefined) return page;
    const blocked = blockingRule(rules, blockCheckedUrls(urls));
    if (blocked) return blockedTabError(tool, tabId, blocked.url, blocked.rule.text, false);
    if (settings.agentTabsOnly && !(await this.#isAgentTab(tabId, tab.groupId, agentGroups))) return notAgentTabError(tool, tabId);
    return undefined;
  }

  /** The ids of the tab groups titled "chrome-relay": asked at most once per pass of verdicts, and only when a tab is in a group. */
  #agentGroups(): AgentGroups {
    let asked: Promise<ReadonlySet<number>> | undefined;
    return () => (asked ??= this.#deps.organize.queryGroups(AGENT_GROUP_TITLE).then((groups) => new Set(groups.filter((g) => g.title === AGENT_GROUP_TITLE).map((g) => g.id))));
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
    if (isPersonPage(tab.url ?? tab.pendingUrl)) throw personPageError('share', { tab: tabId }, tab.url ?? tab.pendingUrl ?? '');
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

  /** The attach guard: no session while paused, none on an extension's or the browser's page or a kept file, none on a blocked site. */
  async guardAttach(tabId: number): Promise<void> {
    const state = await this.#deps.pause.get();
    if (state.paused) throw pausedError(state, '');
    const tab = await this.#tabOrUndefined(tabId);
    if (tab === undefined) return; // attach itself reports the missing tab
    const page = pageRefusal('', tabId, [tab.url, tab.pendingUrl], await this.#deps.settings.get());
    if (page !== undefined) throw page;
    const rules = await this.#deps.settings.rules();
    if (rules.length === 0) return;
    const blocked = blockingRule(rules, blockCheckedUrls([tab.url, tab.pendingUrl]));
    if (blocked) throw blockedTabError('', tabId, blocked.url, blocked.rule.text, false);
  }

  async isAgentTab(tabId: number, groupId?: number): Promise<boolean> {
    return this.#isAgentTab(tabId, groupId ?? (await this.#tabOrUndefined(tabId))?.groupId, this.#agentGroups());
  }

  async #isAgentTab(tabId: number, groupId: number | undefined, agentGroups: AgentGroups): Promise<boolean> {
    if (await this.#deps.agentTabs.has(tabId)) return true;
    return groupId !== undefined && groupId >= 0 && (await agentGroups()).has(groupId);
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

  /**
   * tabs.onUpdated with a new URL: a tab that moved onto a blocked site, an extension's or the browser's page, or a
   * local file the person keeps loses its session at once.
   */
  async tabUrlChanged(tabId: number, url: string): Promise<void> {
    const page = pageRefusal('', tabId, [url], await this.#deps.settings.get());
    if (page !== undefined) {
      for (const watcher of [...this.#watchers]) if (watcher.tabs.includes(tabId)) watcher.stop(pageRefusal(watcher.tool, tabId, [url], await this.#deps.settings.get()) ?? page);
      if (this.#deps.sessions.isAttached(tabId)) await this.#deps.sessions.detach(tabId);
      return;
    }
    const rules = await this.#deps.settings.rules();
    const blocked = blockingRule(rules, blockCheckedUrls([url]));
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
    const agentGroups = this.#agentGroups();
    for (const tabId of this.#deps.sessions.attachedTabs()) {
      try {
        const tab = await this.#tabOrUndefined(tabId);
        if (tab === undefined) continue;
        const refused = await this.#refusal('', tab, settings, await this.#deps.settings.rules(), agentGroups);
        if (refused !== undefined) await this.#deps.sessions.detach(tabId);
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
