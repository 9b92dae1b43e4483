/**
 * One request to the host of a browser profile over its Unix socket, with a deadline.
 * Transport failures become closed codes here: nothing reachable → extension_not_connected; a --profile no
 * connected browser runs → target_not_found listing the ones that are; the host vanished mid-call →
 * native_host_disconnected, with the reason lostHost.ts tells apart: the browser closed (nothing restarts it),
 * the host exited or the extension's worker stopped (a new host comes; retryable for read-only tools, not for
 * mutating ones, which may have acted — protocol interrupted.ts).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isHostTool, reasonedError, RelayError, type ClientResponse, type HostDescriptor } from '@chrome-relay/protocol';
import { listDescriptors, type FoundDescriptor } from './discovery.js';
import { explainLostHost, explainLostHostResponse } from './lostHost.js';
import { runDir } from './paths.js';
import { isSameBuild } from './sameBuild.js';
import type { Endpoint } from './remote/endpoint.js';
import { callEndpoint } from './remote/linkClient.js';
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
  /** A browser on another machine, in a container or in WSL (CHROME_RELAY_ENDPOINT, --endpoint): its bridge finds the host there. */
  endpoint?: Endpoint | undefined;
}

/** How long to wait for a host that is being restarted (service worker waking, extension reconnecting). */
export const RECONNECT_WAIT_MS = 2500;
/** A run dir touched this recently means a host just came or went: worth waiting for. */
const RECENT_ACTIVITY_MS = 15_000;

/** A profile as the host reports it (an absolute path), so `--profile ./p` and `--profile /abs/p` agree. */
export const sameProfile = (reported: string | null, asked: string): boolean => reported !== null && resolve(reported) === resolve(asked);

/** The host of the browser profile asked for (or the only one); several without --profile is target_conflict. */
export function pickHost(home: string, profile: string | undefined, tool: string, found: FoundDescriptor[] = listDescriptors(home)): HostDescriptor | null {
  const live = found.filter((d) => d.alive);
  const matching = profile ? live.filter((d) => sameProfile(d.descriptor.profile, profile)) : live;
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

/**
 * A --profile that no connected browser runs, while others are connected: target_not_found listing the
 * connected profiles (saying "no browser is connected" would be false). Null when that is not the case.
 */
export function profileNotConnected(tool: string, home: string, profile: string | undefined): RelayError | null {
  const connected = listDescriptors(home).filter((d) => d.alive).map((d) => d.descriptor.profile);
  if (profile === undefined || profile === '' || connected.length === 0) return null;
  const names = connected.map((p) => p ?? "(the browser's default profile)").join(', ');
  return new RelayError(
    'target_not_found',
    `No connected browser runs the profile ${profile}; connected: ${names}. Pass one of those to --profile (or unset CHROME_RELAY_PROFILE), or start that profile with \`chrome-relay launch --user-data-dir ${profile}\`.`,
    { tool, phase: 'connect', details: { field: 'profile', profile, connectedProfiles: connected } },
  );
}

export function notConnected(tool: string, home: string, profile: string | undefined): RelayError {
  const wrongProfile = profileNotConnected(tool, home, profile);
  if (wrongProfile) return wrongProfile;
  if (isHostTool(tool)) {
    // `status` asks whether anything is connected: the answer is short.
    return reasonedError(
      'extension_not_connected',
      'no_host',
      "No browser is connected. Run `chrome-relay launch` to start a dedicated one, or ask the person to open their own (`chrome-relay doctor` says why it is not connected).",
      { tool, phase: 'connect', details: { home, profile: profile ?? null } },
    );
  }
  return reasonedError(
    'extension_not_connected',
    'no_host',
    "No chrome-relay browser is connected. If you drive the person's own browser, ask them to open it (`chrome-relay doctor` says why it is not connected); otherwise run `chrome-relay launch` to start a dedicated one. (A running browser whose chrome-relay service worker stopped reconnects by itself: within about a second when `chrome-relay launch` started it, within 30 s for an installed extension — retry then.)",
    { tool, phase: 'connect', details: { home, profile: profile ?? null } },
  );
}

/**
 * Find the host (waiting briefly while one is being restarted) and make the call on its socket. A socket that
 * refuses the connection belongs to a host that just died: treat it as absent and look again.
 */
export async function callHost(tool: string, params: Record<string, unknown>, options: CallOptions): Promise<ClientResponse> {
  if (options.endpoint !== undefined) {
    // The bridge there finds the host, waits for one that restarts, and says what became of its browser.
    return callEndpoint(options.endpoint, options.home, tool, params, options.timeoutMs, { target: options.target, agent: options.agent, snapshot: options.snapshot, profile: options.profile });
  }
  // A host that just died (stale descriptor, or the run dir just changed) is usually being restarted by the
  // extension within a few hundred ms: wait for it briefly instead of failing an agent's call.
  // One read of the run directory answers both "is a host restarting" and "which host" (every agent call pays for it).
  let found = listDescriptors(options.home);
  // A question the host answers (status) is answered as things are now: it never waits for one to come back.
  const restarting = !isHostTool(tool) && (recentlyActive(options.home) || found.some((d) => !d.alive));
  const giveUpAt = Date.now() + (restarting ? RECONNECT_WAIT_MS : 0);
  for (;;) {
    const host = pickHost(options.home, options.profile, tool, found);
    if (host) {
      try {
        const snapshot = options.snapshot !== undefined && isSameBuild(host.host) && isSameBuild(host.extension) ? options.snapshot : undefined;
        const response = await callSocket(host.socket, tool, params, options.timeoutMs, { target: options.target, agent: options.agent, snapshot });
        return await explainLostHostResponse(response, host, options.home);
      } catch (error) {
        const refused = error instanceof RelayError && error.code === 'extension_not_connected' && error.phase === 'connect';
        if (!refused) throw error instanceof RelayError ? await explainLostHost(error, host, options.home) : error;
      }
    }
    if (Date.now() >= giveUpAt) throw notConnected(tool, options.home, options.profile);
    await new Promise((r) => setTimeout(r, 100));
    found = listDescriptors(options.home);
  }
}
