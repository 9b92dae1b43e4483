/**
 * One request to the host of a browser profile over its Unix socket, with a deadline.
 * Transport failures become closed codes here: nothing reachable → extension_not_connected; the host vanished
 * mid-call → native_host_disconnected (retryable for read-only tools: the browser restarts a host within a second;
 * not for mutating ones, which may have acted — protocol interrupted.ts).
 */
import { statSync } from 'node:fs';
import { reasonedError, RelayError, type ClientResponse, type HostDescriptor } from '@chrome-relay/protocol';
import { listDescriptors } from './discovery.js';
import { runDir } from './paths.js';
import { isSameBuild } from './sameBuild.js';
import { callSocket } from './socketCall.js';

export interface CallOptions {
  home: string;
  /** Pick the host of this browser profile (user-data-dir) when several are running. */
  profile?: string | undefined;
  timeoutMs: number;
  target?: { tab?: number | undefined; workspace?: string | undefined; group?: string | undefined } | undefined;
  agent?: string | undefined;
  /**
   * Snapshot params for a snapshot right after the tool, in the same call (protocol messages.ts).
   * Sent only to a host and extension of this build, which know it; the answer then carries `snapshot`.
   */
  snapshot?: Record<string, unknown> | undefined;
}

/** How long to wait for a host that is being restarted (service worker waking, extension reconnecting). */
export const RECONNECT_WAIT_MS = 2500;
/** A run dir touched this recently means a host just came or went: worth waiting for. */
const RECENT_ACTIVITY_MS = 15_000;

/** The host of the browser profile asked for (or the only one); several without --profile is target_conflict. */
export function pickHost(home: string, profile: string | undefined, tool: string): HostDescriptor | null {
  const live = listDescriptors(home).filter((d) => d.alive);
  const matching = profile ? live.filter((d) => d.descriptor.profile === profile) : live;
  if (matching.length > 1) {
    throw reasonedError('target_conflict', 'ambiguous_name', `${matching.length} browser profiles are connected; pass --profile <user-data-dir> to choose one.`, {
      tool,
      phase: 'connect',
      details: { profiles: matching.map((d) => d.descriptor.profile) },
    });
  }
  return matching[0]?.descriptor ?? null;
}

export function recentlyActive(home: string): boolean {
  try {
    return Date.now() - statSync(runDir(home)).mtimeMs < RECENT_ACTIVITY_MS;
  } catch {
    return false;
  }
}

export function notConnected(tool: string, home: string, profile: string | undefined): RelayError {
  return reasonedError(
    'extension_not_connected',
    'no_host',
    'No chrome-relay browser is connected. Run `chrome-relay launch` to start one, or `chrome-relay doctor` to see why your browser is not connected.',
    { tool, phase: 'connect', details: { home, profile: profile ?? null } },
  );
}

/**
 * Find the host (waiting briefly while one is being restarted) and make the call on its socket. A socket that
 * refuses the connection belongs to a host that just died: treat it as absent and look again.
 */
export async function callHost(tool: string, params: Record<string, unknown>, options: CallOptions): Promise<ClientResponse> {
  // A host that just died (stale descriptor, or the run dir just changed) is usually being restarted by the
  // extension within a few hundred ms: wait for it briefly instead of failing an agent's call.
  const restarting = recentlyActive(options.home) || listDescriptors(options.home).some((d) => !d.alive);
  const giveUpAt = Date.now() + (restarting ? RECONNECT_WAIT_MS : 0);
  for (;;) {
    const host = pickHost(options.home, options.profile, tool);
    if (host) {
      try {
        const snapshot = options.snapshot !== undefined && isSameBuild(host.host) && isSameBuild(host.extension) ? options.snapshot : undefined;
        return await callSocket(host.socket, tool, params, options.timeoutMs, { target: options.target, agent: options.agent, snapshot });
      } catch (error) {
        const refused = error instanceof RelayError && error.code === 'extension_not_connected' && error.phase === 'connect';
        if (!refused) throw error;
      }
    }
    if (Date.now() >= giveUpAt) throw notConnected(tool, options.home, options.profile);
    await new Promise((r) => setTimeout(r, 100));
  }
}
