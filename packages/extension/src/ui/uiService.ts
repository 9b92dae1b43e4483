/**
 * The service worker's side of the popup and options pages: answers their requests (ui/messages.ts)
 * from the worker's own state. Page content (tab titles, URLs) goes out as data; the pages render it
 * as text, never as HTML.
 */
import { PROTOCOL_VERSION, VERSION } from '@chrome-relay/protocol';
import type { ActivityEntry, ActivityLog } from '../activity/activityLog.js';
import type { BrowserApi } from '../browserApi.js';
import type { CdpSessions } from '../cdp/cdpSession.js';
import type { PauseStore } from '../policy/pause.js';
import { redactUrl } from '../observe/redact.js';
import type { AgentTabs } from '../policy/agentTabs.js';
import type { Policy } from '../policy/policy.js';
import { isPersonPage } from '../policy/urlGate.js';
import { checkSettings, type SettingsStore } from '../policy/settings.js';
import type { LeaseStore } from '../targeting/leases.js';
import type { HereTab, PopupState, TabRow, UiRequest, UiResponse, VersionLine } from './messages.js';

export interface HostStatus {
  connected: boolean;
  host: (VersionLine & { pid: number }) | null;
}

export interface UiServiceDeps {
  browser: Pick<BrowserApi, 'queryTabs'>;
  sessions: Pick<CdpSessions, 'attachedTabs'>;
  leases: Pick<LeaseStore, 'list' | 'drop'>;
  activity: ActivityLog;
  policy: Pick<Policy, 'isAgentTab' | 'setPaused' | 'share' | 'unshare' | 'saveSettings'>;
  pause: PauseStore;
  settings: SettingsStore;
  hostStatus: () => HostStatus;
  agentTabs: Pick<AgentTabs, 'list' | 'kindOf'>;
  now?: () => number;
}

/** The reasons the person's limits refuse a call with (protocol reasons.ts, target_conflict). */
const PERSON_REFUSALS: ReadonlySet<string> = new Set(['not_agent_tab', 'site_blocked', 'person_page', 'paused_by_user']);

export function createUiService(deps: UiServiceDeps): (request: UiRequest) => Promise<UiResponse> {
  const now = deps.now ?? Date.now;

  async function hereTab(tabs: readonly chrome.tabs.Tab[], id: number | undefined): Promise<HereTab | null> {
    const tab = tabs.find((t) => t.id === id);
    if (tab?.id === undefined) return null;
    const base = { id: tab.id, title: tab.title ?? '' };
    if (isPersonPage(tab.url ?? tab.pendingUrl)) return { ...base, status: 'extension' };
    const kind = await deps.agentTabs.kindOf(tab.id);
    if (kind !== undefined) return { ...base, status: kind };
    return { ...base, status: (await deps.policy.isAgentTab(tab.id, tab.groupId)) ? 'group' : 'person' };
  }

  /** The person's limits said no: the agent never acted in that tab. */
  function refusedByThePerson(entry: ActivityEntry): boolean {
    return entry.outcome === 'target_conflict' && entry.reason !== undefined && PERSON_REFUSALS.has(entry.reason);
  }

  async function state(here?: number): Promise<PopupState> {
    const [tabs, leases, lastByTab, recent, pause, settings, agentTabs] = await Promise.all([
      deps.browser.queryTabs({}),
      deps.leases.list(),
      deps.activity.lastByTab(),
      deps.activity.recent(),
      deps.pause.get(),
      deps.settings.get(),
      deps.agentTabs.list(),
    ]);
    const attached = new Set(deps.sessions.attachedTabs());
    const running = deps.activity.running();
    const leaseByTab = new Map(leases.filter((l) => l.kind === 'tab').map((l) => [Number(l.target), l]));
    // A tab whose last command the person's limits refused (not an agent tab, a blocked site, their own page, Pause)
    // is not one agents control: the refusal shows in the last commands, not here.
    const worked = [...lastByTab].filter(([, entry]) => !refusedByThePerson(entry)).map(([tab]) => tab);
    const involved = new Set<number>([...attached, ...agentTabs, ...leaseByTab.keys(), ...worked]);
    for (const call of running) if (call.tab !== null) involved.add(call.tab);

    const rows: TabRow[] = [];
    for (const tab of tabs) {
      if (tab.id === undefined || !involved.has(tab.id)) continue;
      const lease = leaseByTab.get(tab.id);
      rows.push({
        id: tab.id,
        title: tab.title ?? '',
        // The person's own screen, but a screenshot of it travels too: credentials in URLs are redacted here as well.
        url: redactUrl(tab.url ?? tab.pendingUrl ?? ''),
        attached: attached.has(tab.id),
        agentTab: await deps.policy.isAgentTab(tab.id, tab.groupId),
        lease: lease ? { owner: lease.owner, expiresAt: lease.expiresAt } : null,
        last: lastByTab.get(tab.id) ?? null,
        running: running.find((call) => call.tab === tab.id) ?? null,
      });
    }
    const latest = (row: TabRow): number => Math.max(row.last?.at ?? 0, row.running?.at ?? 0);
    rows.sort((a, b) => latest(b) - latest(a) || a.id - b.id);
    const host = deps.hostStatus();
    return {
      now: now(),
      connection: {
        connected: host.connected,
        host: host.host,
        cli: recent.find((entry) => entry.cli !== undefined)?.cli ?? null,
        extension: { version: VERSION, protocolVersion: PROTOCOL_VERSION },
      },
      pause,
      settings,
      here: await hereTab(tabs, here),
      tabs: rows,
      workspaceLeases: leases.filter((l) => l.kind === 'workspace').map((l) => ({ target: l.target, owner: l.owner, expiresAt: l.expiresAt })),
      recent,
    };
  }

  return async (request) => {
    switch (request.kind) {
      case 'state':
        return { ok: true, state: await state(request.here) };
      case 'share': {
        if (request.shared) {
          await deps.policy.share(request.tab);
          return { ok: true, state: await state(request.tab) };
        }
        // Taken back, the tab lives on under a new id (policy/agentPages.ts): the popup follows it.
        const fresh = await deps.policy.unshare(request.tab);
        return { ok: true, state: await state(fresh ?? request.tab) };
      }
      case 'freeLease':
        await deps.leases.drop((lease) => lease.kind === request.lease.kind && lease.target === request.lease.target);
        return { ok: true, state: await state() };
      case 'setPaused':
        await deps.policy.setPaused(request.paused);
        return { ok: true, state: await state() };
      case 'settings':
        return { ok: true, settings: await deps.settings.get() };
      case 'saveSettings': {
        const checked = checkSettings(request.settings);
        if (!checked.ok) return { ok: false, error: 'Not saved: fix the marked lines.', field: checked.field, problems: checked.problems };
        const problems = await deps.policy.saveSettings(checked.settings);
        if (problems.length > 0) return { ok: false, error: 'Not saved: fix the marked lines.', field: 'blockedSites', problems };
        return { ok: true, settings: checked.settings };
      }
    }
  };
}
