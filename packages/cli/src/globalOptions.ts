/** Options every command accepts, resolved once. */
import { DEFAULT_CALL_TIMEOUT_MS } from '@chrome-relay/protocol';
import { relayHome } from './paths.js';

export interface GlobalOptions {
  home: string;
  profile: string | undefined;
  timeoutMs: number;
  json: boolean;
}

export function resolveGlobals(raw: { profile?: string; timeout?: number; json?: boolean }): GlobalOptions {
  return {
    home: relayHome(),
    profile: raw.profile ?? process.env.CHROME_RELAY_PROFILE ?? undefined,
    timeoutMs: raw.timeout ?? DEFAULT_CALL_TIMEOUT_MS,
    json: raw.json ?? false,
  };
}
