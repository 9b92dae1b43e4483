/** Options every command accepts, resolved once. */
import { AGENT_NAME_PATTERN, AGENT_NAME_RULE, DEFAULT_CALL_TIMEOUT_MS, RelayError } from '@chrome-relay/protocol';
import { assertTrustedHome } from './homeTrust.js';
import { relayHome } from './paths.js';
import { endpointOf, type Endpoint } from './remote/endpoint.js';

export interface GlobalOptions {
  home: string;
  profile: string | undefined;
  timeoutMs: number;
  json: boolean;
  /** Envelope target from program-level --tab/--workspace/--group (commands may replace it). */
  target?: { tab?: number | undefined; workspace?: string | undefined; group?: string | undefined } | undefined;
  /** Agent identity for leases: --agent or CHROME_RELAY_AGENT. */
  agent?: string | undefined;
  /** Where the browser is when it is not on this machine: --endpoint or CHROME_RELAY_ENDPOINT (remote/endpoint.ts). */
  endpoint?: Endpoint | undefined;
}

/** Environment variable naming the agent when --agent is not given. */
export const AGENT_ENV = 'CHROME_RELAY_AGENT';

/**
 * --agent, else $CHROME_RELAY_AGENT; empty means none. Checked here, where the flag or variable that gave it
 * can still be named (the host would only see a malformed request).
 */
export function agentOf(raw: { agent?: unknown }, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const flag = typeof raw.agent === 'string' ? raw.agent : undefined;
  const fromFlag = flag !== undefined;
  const agent = flag ?? env[AGENT_ENV];
  if (agent === undefined || agent === '') return undefined;
  if (!AGENT_NAME_PATTERN.test(agent)) {
    const source = fromFlag ? '--agent' : AGENT_ENV;
    throw new RelayError('invalid_arguments', `${source} must be ${AGENT_NAME_RULE}, got ${JSON.stringify(agent.slice(0, 80))}.`, {
      phase: 'cli',
      details: { field: fromFlag ? 'agent' : AGENT_ENV, value: agent.slice(0, 200) },
    });
  }
  return agent;
}

/**
 * The options every command shares. The home must be this user's own (homeTrust.ts) before any command reads or
 * writes it; `report` leaves that to the caller, for `doctor` (which reports it) and the MCP server (whose every
 * call then fails with that reason, instead of a server that never starts).
 */
export function resolveGlobals(raw: { profile?: string; timeout?: number; json?: boolean; agent?: unknown; endpoint?: unknown }, home: 'trusted' | 'report' = 'trusted'): GlobalOptions {
  const dir = relayHome();
  if (home === 'trusted') assertTrustedHome(dir);
  return {
    home: dir,
    profile: raw.profile ?? process.env.CHROME_RELAY_PROFILE ?? undefined,
    timeoutMs: raw.timeout ?? DEFAULT_CALL_TIMEOUT_MS,
    json: raw.json ?? false,
    agent: agentOf(raw),
    endpoint: endpointOf(typeof raw.endpoint === 'string' ? raw.endpoint : undefined),
  };
}
