/** Options every command accepts, resolved once. */
import { DEFAULT_CALL_TIMEOUT_MS } from '@chrome-relay/protocol';
import { relayHome } from './paths.js';

export interface GlobalOptions {
  home: string;
  profile: string | undefined;
  timeoutMs: number;
  json: boolean;
  /** Envelope target from program-level --tab/--workspace/--group (commands may replace it). */
  target?: { tab?: number | undefined; workspace?: string | undefined; group?: string | undefined } | undefined;
  /** Agent identity for leases: --agent or CHROME_RELAY_AGENT. */
  agent?: string | undefined;
}

/** Environment variable naming the agent when --agent is not given. */
export const AGENT_ENV = 'CHROME_RELAY_AGENT';

/** --agent, else $CHROME_RELAY_AGENT; empty means none. */
function agentOf(raw: { agent?: unknown }, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const agent = typeof raw.agent === 'string' ? raw.agent : env[AGENT_ENV];
  return agent === undefined || agent === '' ? undefined : agent;
}

export function resolveGlobals(raw: { profile?: string; timeout?: number; json?: boolean; agent?: unknown }): GlobalOptions {
  return {
    home: relayHome(),
    profile: raw.profile ?? process.env.CHROME_RELAY_PROFILE ?? undefined,
    timeoutMs: raw.timeout ?? DEFAULT_CALL_TIMEOUT_MS,
    json: raw.json ?? false,
    agent: agentOf(raw),
  };
}
