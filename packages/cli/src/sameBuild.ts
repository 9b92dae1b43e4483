/**
 * What a peer of this very build (same VERSION and PROTOCOL_VERSION) sends was shaped by the same
 * schemas, and checked by its sender: the extension checks each result against its tool's schema
 * before it answers, the host builds its envelopes and descriptors from the same types. So the CLI
 * takes it as is, and checks with the schemas only what a peer of another build sends. Building
 * schemas (and loading zod) costs more than the whole rest of a call at start-up; a CLI and a host
 * of different builds is the case `chrome-relay update` exists for (versionSkew.ts warns of it).
 */
import { PROTOCOL_VERSION, VERSION } from '@chrome-relay/protocol';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{version, protocolVersion}` of this very build. */
export function isSameBuild(info: unknown): boolean {
  return isRecord(info) && info.version === VERSION && info.protocolVersion === PROTOCOL_VERSION;
}
