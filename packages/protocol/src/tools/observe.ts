/**
 * Wire shapes of the observation and organisation tools: screenshots, screencast recording, console
 * and network buffers, workspaces (named unfocused windows), native tab groups and per-agent leases.
 * Same shape as the TOOLS entries they are spread into (tools.ts).
 *
 * This module cannot import from tools.ts (tools.ts imports it), so the tab field is declared again
 * here, identically.
 *
 * Binary payloads (screenshots, frames) travel base64 in the result; the CLI writes the files. That
 * direction (extension → host → CLI) allows 64 MiB per message, which the frame caps stay under.
 */
import * as z from 'zod';
import { lazyTool } from '../toolSpec.js';

const tabId = z.number().int().positive().describe('Tab id (from `chrome-relay tabs`); default: the tab chrome-relay last used');
const name = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w.-]+$/, 'must be letters, digits, "_", "." or "-"')
  .describe('Name (letters, digits, _ . -)');
const agent = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w.@-]+$/, 'must be letters, digits, "_", ".", "@" or "-"')
  .describe('Agent identity (--agent or CHROME_RELAY_AGENT)');
const tabList = z.array(tabId).min(1).max(100).describe('Tab ids');
const allowPartial = z.boolean().optional().describe('Apply what can be applied and list what failed, instead of partial_success_disallowed');

export const CONSOLE_LEVELS = ['debug', 'log', 'info', 'warn', 'error'] as const;
export const GROUP_COLORS = ['grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange'] as const;

const ConsoleEntry = z.strictObject({
  id: z.number().int().describe('Increasing per tab; pass as --since to get only newer entries'),
  level: z.enum(CONSOLE_LEVELS),
  source: z.enum(['console', 'exception']),
  text: z.string(),
  url: z.string().optional(),
  line: z.number().optional(),
  timestamp: z.number().describe('Epoch ms'),
});
export type ConsoleEntry = z.infer<typeof ConsoleEntry>;

const Headers = z.record(z.string(), z.string());

const NetworkEntry = z.strictObject({
  id: z.string().describe('Request id for `network body <id>`'),
  url: z.string(),
  method: z.string(),
  type: z.string(),
  status: z.number().nullable().describe('HTTP status, null while pending or when the request failed'),
  statusText: z.string(),
  mimeType: z.string(),
  failed: z.string().optional().describe('Network error text when the request failed'),
  requestHeaders: Headers,
  responseHeaders: Headers,
  startedAt: z.number().describe('Epoch ms'),
  durationMs: z.number().nullable(),
  encodedBytes: z.number(),
});
export type NetworkEntry = z.infer<typeof NetworkEntry>;

const FailedTarget = z.strictObject({ target: z.string(), code: z.string(), message: z.string() });
const Applied = { applied: z.array(z.number()), failed: z.array(FailedTarget) };

const Workspace = z.strictObject({ name: z.string(), windowId: z.number(), tabIds: z.array(z.number()), owner: z.string().nullable() });
const Group = z.strictObject({ name: z.string(), groupId: z.number(), windowId: z.number(), color: z.string(), tabIds: z.array(z.number()) });
const Lease = z.strictObject({
  kind: z.enum(['tab', 'workspace']),
  target: z.string().describe('Tab id or workspace name'),
  owner: z.string(),
  ttlMs: z.number(),
  expiresAt: z.number().describe('Epoch ms; every call by the owner pushes it back'),
});
export type LeaseInfo = z.infer<typeof Lease>;

export const OBSERVE_TOOLS = {
  screenshot: lazyTool(() => ({
    description: 'Capture the tab (viewport, --full page, or one element by ref or --selector) as PNG or JPEG, without activating it.',
    mutates: false,
    params: z.strictObject({
      tab: tabId.optional(),
      full: z.boolean().optional().describe('Whole scrollable page instead of the viewport'),
      ref: z.string().regex(/^e[1-9][0-9]*$/, 'must be a ref like e12 (written @e12 on the command line)').optional().describe('Element ref to capture (scrolled into view first; it carries its tab)'),
      selector: z.string().min(1).optional().describe('CSS selector of one element to capture (scrolled into view first)'),
      maxEdge: z.number().int().min(16).max(16_384).optional().describe('Scale down so the longer edge is at most this many pixels'),
      format: z.enum(['png', 'jpeg']).optional().describe('Image format (default png)'),
      quality: z.number().int().min(0).max(100).optional().describe('JPEG quality 0–100 (jpeg only)'),
    }),
    result: z.strictObject({
      tabId: z.number(),
      format: z.enum(['png', 'jpeg']),
      width: z.number().describe('CSS pixels of the captured area'),
      height: z.number(),
      scale: z.number().describe('Image pixels per CSS pixel'),
      data: z.string().describe('Base64 image bytes (the CLI writes them to a file)'),
    }),
  })),
  record_start: lazyTool(() => ({
    description: 'Start recording the tab as screencast frames (kept in the extension, capped).',
    mutates: true,
    params: z.strictObject({
      tab: tabId.optional(),
      maxFrames: z.number().int().min(1).max(1000).optional().describe('Frames kept (oldest dropped beyond it; default 300)'),
      quality: z.number().int().min(1).max(100).optional().describe('JPEG quality of each frame (default 70)'),
      maxEdge: z.number().int().min(16).max(4096).optional().describe('Scale frames so the longer edge is at most this (default 1280)'),
    }),
    result: z.strictObject({ tabId: z.number(), recording: z.literal(true) }),
  })),
  record_stop: lazyTool(() => ({
    description: 'Stop recording the tab and return its frames (JPEG, base64, with timestamps).',
    mutates: true,
    params: z.strictObject({ tab: tabId.optional() }),
    result: z.strictObject({
      tabId: z.number(),
      frames: z.array(z.strictObject({ data: z.string(), timestamp: z.number().describe('Seconds, from the screencast') })),
      dropped: z.number().describe('Frames discarded because the cap was reached'),
    }),
  })),
  console: lazyTool(() => ({
    description: 'Console messages and uncaught exceptions of the tab, captured since chrome-relay attached to it; credentials in them (bearer strings, tokens, the tab\'s cookie values) are masked.',
    mutates: false,
    params: z.strictObject({
      tab: tabId.optional(),
      level: z.enum(CONSOLE_LEVELS).optional().describe('Only this level and more severe'),
      since: z.number().int().nonnegative().optional().describe('Only entries with a larger id'),
      clear: z.boolean().optional().describe('Empty the buffer after reading'),
    }),
    result: z.strictObject({ tabId: z.number(), entries: z.array(ConsoleEntry), dropped: z.number().describe('Entries lost to the buffer cap') }),
  })),
  network: lazyTool(() => ({
    description: 'Requests of the tab captured since chrome-relay attached to it; credentials in headers and URLs (Cookie, Authorization, token/key/password/sig/code parameters, also in Referer) are redacted unless rawHeaders.',
    mutates: false,
    params: z.strictObject({
      tab: tabId.optional(),
      url: z.string().min(1).optional().describe('Only URLs containing this text'),
      status: z.string().regex(/^([1-5]xx|[1-5][0-9]{2}|failed|pending)$/, 'must be like 404, 4xx, failed or pending').optional().describe('404, 4xx, failed or pending'),
      method: z.string().regex(/^[A-Za-z]+$/, 'must be an HTTP method').optional().describe('HTTP method'),
      rawHeaders: z.boolean().optional().describe('Do not redact: show Cookie, Authorization, URL tokens and the like as sent'),
    }),
    result: z.strictObject({ tabId: z.number(), requests: z.array(NetworkEntry), dropped: z.number() }),
  })),
  network_body: lazyTool(() => ({
    description: 'Response body of one captured request.',
    mutates: false,
    params: z.strictObject({ tab: tabId.optional(), id: z.string().min(1).describe('Request id from `chrome-relay network`') }),
    result: z.strictObject({ tabId: z.number(), id: z.string(), mimeType: z.string(), base64Encoded: z.boolean(), body: z.string() }),
  })),
  network_har: lazyTool(() => ({
    description: 'The captured requests of the tab as a HAR 1.2 log; credentials in headers and URLs redacted unless rawHeaders.',
    mutates: false,
    params: z.strictObject({ tab: tabId.optional(), rawHeaders: z.boolean().optional().describe('Do not redact credentials in headers and URLs') }),
    result: z.strictObject({ tabId: z.number(), entries: z.number(), har: z.record(z.string(), z.unknown()) }),
  })),
  workspace_create: lazyTool(() => ({
    description: 'Open a named, unfocused window (a workspace) for an agent; it never takes focus from the human.',
    mutates: true,
    params: z.strictObject({ name, url: z.string().min(1).optional().describe('First URL (default about:blank)'), agent: agent.optional() }),
    result: z.strictObject({ name: z.string(), windowId: z.number(), tabId: z.number(), owner: z.string().nullable() }),
  })),
  workspace_list: lazyTool(() => ({
    description: 'List workspaces that still have a window.',
    mutates: false,
    params: z.strictObject({}),
    result: z.strictObject({ workspaces: z.array(Workspace) }),
  })),
  workspace_close: lazyTool(() => ({
    description: 'Close a workspace window and its tabs.',
    mutates: true,
    params: z.strictObject({ name, agent: agent.optional() }),
    result: z.strictObject({ name: z.string(), windowId: z.number(), closedTabs: z.array(z.number()) }),
  })),
  group_create: lazyTool(() => ({
    description: 'Put tabs into a new native tab group with a name and colour (all or nothing unless allowPartial).',
    mutates: true,
    params: z.strictObject({ name, tabs: tabList, color: z.enum(GROUP_COLORS).optional(), allowPartial, agent: agent.optional() }),
    result: z.strictObject({ name: z.string(), groupId: z.number(), ...Applied }),
  })),
  group_add: lazyTool(() => ({
    description: 'Add tabs to an existing named group (all or nothing unless allowPartial).',
    mutates: true,
    params: z.strictObject({ name, tabs: tabList, allowPartial, agent: agent.optional() }),
    result: z.strictObject({ name: z.string(), groupId: z.number(), ...Applied }),
  })),
  group_list: lazyTool(() => ({
    description: 'List named tab groups.',
    mutates: false,
    params: z.strictObject({}),
    result: z.strictObject({ groups: z.array(Group) }),
  })),
  group_close: lazyTool(() => ({
    description: 'Close every tab of a named group (all or nothing unless allowPartial).',
    mutates: true,
    params: z.strictObject({ name, allowPartial, agent: agent.optional() }),
    result: z.strictObject({ name: z.string(), groupId: z.number(), ...Applied }),
  })),
  lease_claim: lazyTool(() => ({
    description: 'Claim a tab or workspace for an agent; others acting there get target_conflict until it is released or idle past its ttl.',
    mutates: true,
    params: z.strictObject({
      agent,
      tab: tabId.optional(),
      workspace: name.optional(),
      ttlSec: z.number().int().min(1).max(86_400).optional().describe('Idle seconds before the lease expires (default 600)'),
    }),
    result: z.strictObject({ lease: Lease }),
  })),
  lease_list: lazyTool(() => ({
    description: 'List live (unexpired) leases.',
    mutates: false,
    params: z.strictObject({}),
    result: z.strictObject({ leases: z.array(Lease) }),
  })),
  lease_release: lazyTool(() => ({
    description:
      "Release an agent's lease on a tab or workspace, or all of its leases. With force, release the lease on a tab or workspace whoever holds it (a person freeing a stuck agent's tab); no agent identity needed.",
    mutates: true,
    params: z.strictObject({
      agent: agent.optional(),
      tab: tabId.optional(),
      workspace: name.optional(),
      all: z.boolean().optional().describe('Every lease of this agent'),
      force: z.boolean().optional().describe('Release it whoever holds it (with tab or workspace)'),
    }),
    result: z.strictObject({ released: z.array(Lease) }),
  })),
} as const;
