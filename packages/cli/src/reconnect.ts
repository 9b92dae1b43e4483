/**
 * `chrome-relay reconnect`: re-arm every connected browser's host after its extension stopped answering
 * (calls failing at once with extension_not_connected, reason circuit_open). Each host pings its extension
 * (host tool `rearm`); the answer closes the host's circuit, so calls flow again.
 *
 * Unlike `update` (internal tool `restart_host`, which restarts the host and cuts every call in flight), this
 * restarts nothing and cuts nothing, so any agent may run it at any time. Done means: the extension behind
 * every host (of --profile, when given) answered. Anything less fails the command with the host's own code.
 */
import { parseResult, reasonedError, RelayError, type HostDescriptor } from '@chrome-relay/protocol';
import { listDescriptors } from './discovery.js';
import { profileNotConnected, sameProfile } from './hostClient.js';
import { callSocket } from './socketCall.js';

const REARM_TOOL = 'rearm';

export interface ReconnectOptions {
  home: string;
  /** Only the browser running this profile. */
  profile?: string | undefined;
  /** How long each extension gets to answer. */
  timeoutMs: number;
}

export interface RearmedHost {
  profile: string | null;
  browserPid: number | null;
  hostPid: number;
  /** Whether that host was failing calls fast before. */
  wasOpen: boolean;
  roundTripMs: number;
}

interface Failure {
  profile: string | null;
  hostPid: number;
  error: RelayError;
}

/** A host from before `rearm` forwards it to its extension, which does not know it. */
function refusedByOldHost(error: RelayError, host: HostDescriptor): RelayError {
  if (error.code !== 'unsupported_tool') return error;
  return new RelayError(
    'unsupported_tool',
    `The running host (version ${host.host.version}, pid ${host.pid}) predates \`chrome-relay reconnect\`: run \`chrome-relay update\` to switch to the installed one.`,
    { tool: 'reconnect', phase: error.phase, details: { ...error.details, hostPid: host.pid }, retryable: false },
  );
}

async function rearmOne(host: HostDescriptor, timeoutMs: number): Promise<RearmedHost> {
  const response = await callSocket(host.socket, REARM_TOOL, {}, timeoutMs);
  if (!response.ok) throw refusedByOldHost(RelayError.fromData(response.error), host);
  const { wasOpen, roundTripMs } = parseResult(REARM_TOOL, response.result);
  return { profile: host.profile, browserPid: host.browserPid, hostPid: host.pid, wasOpen, roundTripMs };
}

export async function reconnect(options: ReconnectOptions): Promise<{ hosts: RearmedHost[] }> {
  const connected = listDescriptors(options.home)
    .filter((d) => d.alive && (!options.profile || sameProfile(d.descriptor.profile, options.profile)))
    .map((d) => d.descriptor);
  if (connected.length === 0) {
    const wrongProfile = profileNotConnected('reconnect', options.home, options.profile);
    if (wrongProfile) throw wrongProfile;
    throw reasonedError(
      'extension_not_connected',
      'no_host',
      `No chrome-relay browser is connected${options.profile ? ` for profile ${options.profile}` : ''}, so there is nothing to re-arm. Run \`chrome-relay launch\` to start one, or \`chrome-relay doctor\` to see why your browser is not connected.`,
      { tool: 'reconnect', phase: 'connect', details: { home: options.home, profile: options.profile ?? null } },
    );
  }
  const outcomes = await Promise.all(
    connected.map(async (host): Promise<RearmedHost | Failure> => {
      try {
        return await rearmOne(host, options.timeoutMs);
      } catch (error) {
        return { profile: host.profile, hostPid: host.pid, error: RelayError.from(error, 'reconnect', 'act') };
      }
    }),
  );
  const hosts: RearmedHost[] = [];
  const failures: Failure[] = [];
  for (const outcome of outcomes) {
    if ('error' in outcome) failures.push(outcome);
    else hosts.push(outcome);
  }
  const only = failures[0];
  if (only === undefined) return { hosts };
  if (connected.length === 1) {
    // One browser: its host's own error (reason included) says what to do.
    throw new RelayError(only.error.code, only.error.message, {
      tool: 'reconnect',
      phase: only.error.phase,
      details: { ...only.error.details, hostPid: only.hostPid, profile: only.profile },
      retryable: only.error.retryable,
    });
  }
  throw new RelayError('partial_success_disallowed', `${failures.length} of ${connected.length} browser(s) did not answer; the others are re-armed. Run \`chrome-relay doctor\`.`, {
    tool: 'reconnect',
    phase: 'act',
    details: {
      applied: hosts,
      failed: failures.map((f) => ({ profile: f.profile, hostPid: f.hostPid, code: f.error.code, message: f.error.message, reason: f.error.details.reason ?? null })),
    },
  });
}
