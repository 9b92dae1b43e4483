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

export function resolveGlobals(raw: { profile?: string; timeout?: number; json?: boolean; agent?: string }): GlobalOptions {
  return {
    home: relayHome(),
    profile: raw.profile ?? process.env.CHROME_RELAY_PROFILE ?? undefined,
    timeoutMs: raw.timeout ?? DEFAULT_CALL_TIMEOUT_MS,
    json: raw.json ?? false,
    agent: raw.agent ?? (process.env.CHROME_RELAY_AGENT || undefined),
  };
}
