/** Text for the popup, as pure functions (unit-tested): times, outcomes, the status line. */
import type { Via } from '@chrome-relay/protocol';
import type { ActivityEntry } from '../activity/activityLog.js';
import type { PopupState } from './messages.js';

export function ago(thenMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}

/** Local wall-clock time, hh:mm:ss. */
export function clock(epochMs: number): string {
  const d = new Date(epochMs);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

export function outcomeText(entry: Pick<ActivityEntry, 'outcome' | 'reason'>): string {
  if (entry.outcome === 'ok') return 'ok';
  return entry.reason === undefined ? entry.outcome : `${entry.outcome} (${entry.reason})`;
}

export function statusLine(state: PopupState): { text: string; tone: 'connected' | 'disconnected' | 'paused' } {
  if (state.pause.paused) {
    const since = state.pause.since === null ? '' : ` since ${clock(state.pause.since)}`;
    return { text: `Paused by you${since}: agents are refused`, tone: 'paused' };
  }
  if (!state.connection.connected) return { text: 'Not connected: no agent can reach this browser (run `chrome-relay doctor`)', tone: 'disconnected' };
  const attached = state.tabs.filter((tab) => tab.attached).length;
  const what = attached === 0 ? 'no tab attached' : `${attached} tab${attached === 1 ? '' : 's'} attached`;
  return { text: `Connected: agents can act, ${what}`, tone: 'connected' };
}

/**
 * Where a call came from, for the person: "this machine", or the bridge it came through. Written here, not taken from
 * the protocol package, whose index would bring the tool registry into the popup.
 */
export function viaText(via: Via | undefined): string {
  if (via === undefined) return 'this machine';
  const how = via.kind === 'ssh' ? 'ssh' : via.kind === 'unix' ? 'socket' : 'command';
  return `${how} ${via.label}`;
}

/** Who made a call and where it came from: "claude · this machine", "claude · ssh 10.0.0.5". */
export function agentFrom(call: { agent: string | null; via?: Via }): string {
  return `${call.agent ?? 'no agent name'} · ${viaText(call.via)}`;
}

export function limitsLine(state: PopupState): string {
  const parts: string[] = [];
  const rules = state.settings.blockedSites.length;
  parts.push(rules === 0 ? 'no blocked sites' : `${rules} blocked site${rules === 1 ? '' : 's'}`);
  if (state.settings.agentTabsOnly) parts.push('agent tabs only');
  if (!state.settings.remoteAgents) parts.push('no agents on other machines');
  // Both say only what differs from the default, where the person changed it.
  if (state.settings.agentFiles) parts.push('local files open');
  if (!state.settings.agentJs) parts.push('no agent JavaScript');
  parts.push(state.settings.idleDetachSeconds === 0 ? 'stays attached' : `detach after ${state.settings.idleDetachSeconds} s idle`);
  return parts.join(' · ');
}
