/**
 * Envelopes for the two hops. Tool params/results inside them are validated separately against
 * TOOLS, at the process edge that receives them. Every schema is built on first use (lazy.ts).
 *
 *   CLI ──ClientRequest──▶ host ──HostToExtension(call)──▶ extension
 *   CLI ◀─ClientResponse── host ◀─ExtensionToHost(result)── extension
 *
 * A call may ask for a snapshot after its tool (`snapshot`: the CLI's `--snapshot` on an action):
 * the extension runs the tool, then a snapshot of the tab the result names, back to back in the
 * same call, and answers both (`snapshot` on the result). The snapshot params travel opaque like
 * `params`; the extension validates them against TOOLS.snapshot.
 */
import * as z from 'zod';
import { VIA_KINDS, VIA_LABEL_MAX } from './bridge.js';
import { AGENT_NAME_PATTERN, AGENT_NAME_RULE } from './constants.js';
import { RelayErrorDataSchema } from './errors.js';
import { lazy } from './lazy.js';

export const VersionInfoSchema = lazy(() =>
  z.strictObject({
    version: z.string(),
    protocolVersion: z.number().int(),
  }),
);
export type VersionInfo = z.infer<ReturnType<typeof VersionInfoSchema>>;

/** Envelope targeting: --tab/--workspace/--group, resolved by the extension like the `tab` param (extension targeting/resolveCall.ts). */
export const CallTargetSchema = lazy(() =>
  z.strictObject({
    tab: z.number().int().positive().optional(),
    workspace: z.string().min(1).max(64).optional(),
    group: z.string().min(1).max(64).optional(),
  }),
);
export type CallTarget = z.infer<ReturnType<typeof CallTargetSchema>>;
/** Agent identity for leases (--agent or CHROME_RELAY_AGENT). */
export const AgentSchema = lazy(() => z.string().regex(AGENT_NAME_PATTERN, `must be ${AGENT_NAME_RULE}`));

/** Where a call came from when a bridge relayed it (bridge.ts); absent for a local client. */
export const ViaSchema = lazy(() => z.strictObject({ kind: z.enum(VIA_KINDS), label: z.string().min(1).max(VIA_LABEL_MAX) }));

/** Snapshot params (without `tab`: the result's tab) for a snapshot right after the tool. */
const SnapshotAfterSchema = lazy(() => z.record(z.string(), z.unknown()));

/** How the snapshot after the tool went: its result, or its own failure (the tool's result still stands). */
export const AfterSnapshotSchema = lazy(() =>
  z.discriminatedUnion('ok', [z.strictObject({ ok: z.literal(true), result: z.unknown() }), z.strictObject({ ok: z.literal(false), error: RelayErrorDataSchema() })]),
);
export type AfterSnapshot = z.infer<ReturnType<typeof AfterSnapshotSchema>>;

export const ClientRequestSchema = lazy(() =>
  z.strictObject({
    id: z.number().int().nonnegative(),
    tool: z.string().min(1),
    params: z.record(z.string(), z.unknown()),
    timeoutMs: z.number().int().positive(),
    client: VersionInfoSchema(),
    target: CallTargetSchema().optional(),
    agent: AgentSchema().optional(),
    snapshot: SnapshotAfterSchema().optional(),
    /**
     * A host on a named pipe (Windows) answers only clients that prove they can read this user's secret:
     * HMAC-SHA256 of the pipe's name under the secret, hex (host-files secret.ts). Unused on a Unix socket,
     * which file modes guard.
     */
    auth: z.string().regex(/^[0-9a-f]{64}$/).optional(),
    /**
     * Set by a bridge (bridge.ts), which overwrites whatever its client sent: the call came from another machine, a
     * container or WSL. The host hands it to the extension, which shows it and may refuse the call.
     */
    via: ViaSchema().optional(),
  }),
);
export type ClientRequest = z.infer<ReturnType<typeof ClientRequestSchema>>;

const VersionsSchema = lazy(() =>
  z.strictObject({
    host: VersionInfoSchema(),
    extension: VersionInfoSchema().nullable(),
  }),
);

export const ClientResponseSchema = lazy(() =>
  z.discriminatedUnion('ok', [
    z.strictObject({ id: z.number(), ok: z.literal(true), result: z.unknown(), snapshot: AfterSnapshotSchema().optional(), versions: VersionsSchema() }),
    z.strictObject({ id: z.number(), ok: z.literal(false), error: RelayErrorDataSchema(), versions: VersionsSchema() }),
  ]),
);
export type ClientResponse = z.infer<ReturnType<typeof ClientResponseSchema>>;

export const HostToExtensionSchema = lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('call'),
      id: z.number().int(),
      tool: z.string(),
      params: z.record(z.string(), z.unknown()),
      /** Milliseconds the extension has before the host gives up on this call. */
      timeoutMs: z.number().int().positive(),
      target: CallTargetSchema().optional(),
      agent: AgentSchema().optional(),
      snapshot: SnapshotAfterSchema().optional(),
      /** The CLI that made the call (the extension shows it to the person; it decides nothing). */
      client: VersionInfoSchema().optional(),
      /** The bridge the call came through (ClientRequest.via); absent for a client on the person's machine. */
      via: ViaSchema().optional(),
    }),
    z.strictObject({ type: z.literal('hello'), host: VersionInfoSchema().extend({ pid: z.number() }) }),
  ]),
);
export type HostToExtension = z.infer<ReturnType<typeof HostToExtensionSchema>>;

export const ExtensionHelloSchema = lazy(() =>
  z.strictObject({
    type: z.literal('hello'),
    extension: VersionInfoSchema().extend({ id: z.string() }),
    userAgent: z.string(),
    /** When the person paused agents (epoch ms), or null; sent again whenever it changes, so `status` can say so. */
    pausedSince: z.number().nullable().optional(),
    /** False when the person turned off agents that come through a bridge; the host then refuses them the tools it answers itself. */
    remoteAgents: z.boolean().optional(),
  }),
);
export type ExtensionHello = z.infer<ReturnType<typeof ExtensionHelloSchema>>;

export const ExtensionToHostSchema = lazy(() =>
  z.discriminatedUnion('type', [
    ExtensionHelloSchema(),
    z.strictObject({ type: z.literal('result'), id: z.number().int(), ok: z.literal(true), result: z.unknown(), snapshot: AfterSnapshotSchema().optional() }),
    z.strictObject({ type: z.literal('error'), id: z.number().int(), error: RelayErrorDataSchema() }),
  ]),
);
export type ExtensionToHost = z.infer<ReturnType<typeof ExtensionToHostSchema>>;

/**
 * Written by each running host next to its socket so the CLI can find the host of each browser
 * profile. File name: `<runDir>/host-<pid>.json`; socket: `<runDir>/host-<pid>.sock`.
 */
export const HostDescriptorSchema = lazy(() =>
  z.strictObject({
    pid: z.number().int(),
    socket: z.string(),
    startedAt: z.string(),
    browserPid: z.number().int().nullable(),
    profile: z.string().nullable(),
    /** Read and ignored: hosts of earlier builds wrote whether launch started their browser; the CLI reads that from launch's own record now (packages/cli/src/launched.ts). */
    launched: z.boolean().optional(),
    origin: z.string(),
    host: VersionInfoSchema(),
    extension: VersionInfoSchema().extend({ id: z.string() }).nullable(),
  }),
);
export type HostDescriptor = z.infer<ReturnType<typeof HostDescriptorSchema>>;
