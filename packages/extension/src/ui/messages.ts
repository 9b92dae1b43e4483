/**
 * The messages between the extension's own pages (toolbar popup, options) and its service worker,
 * over chrome.runtime messaging. Internal to the extension: no web page can send them (the manifest
 * has no externally_connectable and no content scripts), and the worker still checks the sender and
 * the shape of every request. Types and guards only: both sides import this file.
 */
import type { ActivityEntry, RunningCall } from '../activity/activityLog.js';
import type { PauseState } from '../policy/pause.js';
import type { Settings } from '../policy/settings.js';
import type { RuleProblem } from '../policy/sitePatterns.js';

export type UiRequest =
  /** `here`: the tab in front of the person in the popup's window, to show whether agents may use it. */
  | { kind: 'state'; here?: number }
  | { kind: 'setPaused'; paused: boolean }
  | { kind: 'settings' }
  | { kind: 'saveSettings'; settings: unknown }
  /** "Let agents use this tab" / "Stop sharing". */
  | { kind: 'share'; tab: number; shared: boolean }
  /** The person frees a lease an agent holds (only the person can free another agent's lease). */
  | { kind: 'freeLease'; lease: { kind: 'tab' | 'workspace'; target: string } };

/** The tab in front of the person, as the popup shows it. */
export interface HereTab {
  id: number;
  title: string;
  /** `opened`/`child`: an agent tab; `shared`: the person lent it; `group`: in a "chrome-relay" tab group; `person`: theirs; `extension`: an extension's page (never shareable). */
  status: 'opened' | 'child' | 'shared' | 'group' | 'person' | 'extension';
}

export interface VersionLine {
  version: string;
  protocolVersion: number;
}

export interface TabRow {
  id: number;
  title: string;
  url: string;
  /** A debugger session of ours exists right now (the "started debugging" bar shows). */
  attached: boolean;
  /** chrome-relay opened it, or it is in the "chrome-relay" tab group. */
  agentTab: boolean;
  lease: { owner: string; expiresAt: number } | null;
  last: ActivityEntry | null;
  running: RunningCall | null;
}

export interface PopupState {
  now: number;
  connection: {
    connected: boolean;
    host: (VersionLine & { pid: number }) | null;
    /** The CLI version seen on the last call, if any. */
    cli: string | null;
    extension: VersionLine;
  };
  pause: PauseState;
  settings: Settings;
  here: HereTab | null;
  tabs: TabRow[];
  /** Leases on workspaces (tab leases show in their tab's row). */
  workspaceLeases: { target: string; owner: string; expiresAt: number }[];
  recent: ActivityEntry[];
}

export type UiResponse =
  | { ok: true; state: PopupState }
  | { ok: true; settings: Settings }
  | { ok: false; error: string; field?: string; problems?: RuleProblem[] };

export function isUiRequest(value: unknown): value is UiRequest {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  switch (v.kind) {
    case 'state':
      return Object.keys(v).length === 1 || (Object.keys(v).length === 2 && Number.isInteger(v.here));
    case 'settings':
      return Object.keys(v).length === 1;
    case 'share':
      return Number.isInteger(v.tab) && typeof v.shared === 'boolean' && Object.keys(v).length === 3;
    case 'freeLease': {
      const lease = v.lease as Record<string, unknown> | null;
      return (
        Object.keys(v).length === 2 &&
        typeof lease === 'object' &&
        lease !== null &&
        (lease.kind === 'tab' || lease.kind === 'workspace') &&
        typeof lease.target === 'string' &&
        Object.keys(lease).length === 2
      );
    }
    case 'setPaused':
      return typeof v.paused === 'boolean' && Object.keys(v).length === 2;
    case 'saveSettings':
      return 'settings' in v && Object.keys(v).length === 2;
    default:
      return false;
  }
}
