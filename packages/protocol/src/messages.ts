/**
 * Envelopes for the two hops. Tool params/results inside them are validated separately against
 * TOOLS, at the process edge that receives them.
 *
 *   CLI ──ClientRequest──▶ host ──HostToExtension(call)──▶ extension
 *   CLI ◀─ClientResponse── host ◀─ExtensionToHost(result)── extension
 */
import * as z from 'zod';
import { AGENT_NAME_PATTERN, AGENT_NAME_RULE } from './constants.js';
import { RelayErrorDataSchema } from './errors.js';

export const VersionInfoSchema = z.strictObject({
  version: z.string(),
  protocolVersion: z.number().int(),
});
export type VersionInfo = z.infer<typeof VersionInfoSchema>;

/** Envelope targeting: --tab/--workspace/--group, resolved by the extension like the `tab` param (extension targeting/resolveCall.ts). */
export const CallTargetSchema = z.strictObject({
  tab: z.number().int().positive().optional(),
  workspace: z.string().min(1).max(64).optional(),
  group: z.string().min(1).max(64).optional(),
});
export type CallTarget = z.infer<typeof CallTargetSchema>;
/** Agent identity for leases (--agent or CHROME_RELAY_AGENT). */
export const AgentSchema = z.string().regex(AGENT_NAME_PATTERN, `must be ${AGENT_NAME_RULE}`);

export const ClientRequestSchema = z.strictObject({
  id: z.number().int().nonnegative(),
  tool: z.string().min(1),
  params: z.record(z.string(), z.unknown()),
  timeoutMs: z.number().int().positive(),
  client: VersionInfoSchema,
  target: CallTargetSchema.optional(),
  agent: AgentSchema.optional(),
});
export type ClientRequest = z.infer<typeof ClientRequestSchema>;

const VersionsSchema = z.strictObject({
  host: VersionInfoSchema,
  extension: VersionInfoSchema.nullable(),
});

export const ClientResponseSchema = z.discriminatedUnion('ok', [
  z.strictObject({ id: z.number(), ok: z.literal(true), result: z.unknown(), versions: VersionsSchema }),
  z.strictObject({ id: z.number(), ok: z.literal(false), error: RelayErrorDataSchema, versions: VersionsSchema }),
]);
export type ClientResponse = z.infer<typeof ClientResponseSchema>;

export const HostToExtensionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('call'),
    id: z.number().int(),
    tool: z.string(),
    params: z.record(z.string(), z.unknown()),
    /** Milliseconds the extension has before the host gives up on this call. */
    timeoutMs: z.number().int().positive(),
    target: CallTargetSchema.optional(),
    agent: AgentSchema.optional(),
    /** The CLI that made the call (the extension shows it to the person; it decides nothing). */
    client: VersionInfoSchema.optional(),
  }),
  z.strictObject({ type: z.literal('hello'), host: VersionInfoSchema.extend({ pid: z.number() }) }),
]);
export type HostToExtension = z.infer<typeof HostToExtensionSchema>;

export const ExtensionHelloSchema = z.strictObject({
  type: z.literal('hello'),
  extension: VersionInfoSchema.extend({ id: z.string() }),
  userAgent: z.string(),
});
export type ExtensionHello = z.infer<typeof ExtensionHelloSchema>;

export const ExtensionToHostSchema = z.discriminatedUnion('type', [
  ExtensionHelloSchema,
  z.strictObject({ type: z.literal('result'), id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.strictObject({ type: z.literal('error'), id: z.number().int(), error: RelayErrorDataSchema }),
]);
export type ExtensionToHost = z.infer<typeof ExtensionToHostSchema>;

/**
 * Written by each running host next to its socket so the CLI can find the host of each browser
 * profile. File name: `<runDir>/host-<pid>.json`; socket: `<runDir>/host-<pid>.sock`.
 */
export const HostDescriptorSchema = z.strictObject({
  pid: z.number().int(),
  socket: z.string(),
  startedAt: z.string(),
  browserPid: z.number().int().nullable(),
  profile: z.string().nullable(),
  origin: z.string(),
  host: VersionInfoSchema,
  extension: VersionInfoSchema.extend({ id: z.string() }).nullable(),
});
export type HostDescriptor = z.infer<typeof HostDescriptorSchema>;
