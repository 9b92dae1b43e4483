import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../policy/settings.js';
import { agentFrom, ago, limitsLine, outcomeText, statusLine } from './format.js';
import type { PopupState } from './messages.js';

const state = (over: Partial<PopupState> = {}): PopupState => ({
  now: 0,
  connection: { connected: true, host: { version: '1', protocolVersion: 1, pid: 2 }, cli: null, extension: { version: '1', protocolVersion: 1 } },
  pause: { paused: false, since: null },
  settings: DEFAULT_SETTINGS,
  here: null,
  tabs: [],
  workspaceLeases: [],
  recent: [],
  ...over,
});

describe('popup text', () => {
  it('says how long ago', () => {
    expect(ago(0, 4_400)).toBe('4 s ago');
    expect(ago(0, 125_000)).toBe('2 min ago');
    expect(ago(0, 2 * 3_600_000)).toBe('2 h ago');
  });

  it('names the outcome with its reason', () => {
    expect(outcomeText({ outcome: 'ok' })).toBe('ok');
    expect(outcomeText({ outcome: 'target_conflict', reason: 'paused_by_user' })).toBe('target_conflict (paused_by_user)');
  });

  it('status: paused first, then the connection', () => {
    expect(statusLine(state({ pause: { paused: true, since: null } })).tone).toBe('paused');
    expect(statusLine(state({ connection: { ...state().connection, connected: false } })).tone).toBe('disconnected');
    expect(statusLine(state()).text).toContain('no tab attached');
  });

  it('summarises the limits', () => {
    expect(limitsLine(state({ settings: { blockedSites: ['a.test'], agentTabsOnly: true, idleDetachSeconds: 0, remoteAgents: true, agentFiles: false, agentJs: true } }))).toBe('1 blocked site · agent tabs only · stays attached');
    expect(limitsLine(state({ settings: { ...DEFAULT_SETTINGS, remoteAgents: false } }))).toContain('no agents on other machines');
  });

  it('names who acted and where from: this machine, or the bridge its call came through', () => {
    expect(agentFrom({ agent: 'claude' })).toBe('claude · this machine');
    expect(agentFrom({ agent: null, via: { kind: 'ssh', label: '10.0.0.5' } })).toBe('no agent name · ssh 10.0.0.5');
    expect(agentFrom({ agent: 'a', via: { kind: 'unix', label: 'container' } })).toBe('a · socket container');
    expect(agentFrom({ agent: 'a', via: { kind: 'cmd', label: 'wsl' } })).toBe('a · command wsl');
  });
});
