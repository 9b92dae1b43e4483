/**
 * Entries of the observation and organisation tools: screenshots, screencast recording, console
 * and network buffers, workspaces (named unfocused windows), native tab groups and per-agent leases.
 * Same shape as the TOOLS entries they are spread into (tools.ts).
 *
 * Binary payloads (screenshots, frames) travel base64 in the result; the CLI writes the files. That
 * direction (extension → host → CLI) allows 64 MiB per message, which the frame caps stay under.
 */
import * as z from 'zod';
import { lazy } from '../lazy.js';
import { AgentField, NameField, RefField, TabIdField } from '../fields.js';
import { toolEntry } from '../toolSpec.js';

const tabId = TabIdField;
const name = NameField;
const agent = AgentField;
const tabList = lazy(() => z.array(tabId()).min(1).max(100).describe('Tab ids'));
const otherTabs = lazy(() => z.number().int().nonnegative().describe("How many tabs in these windows agents may not use (the person's own, or their limits keep them out): counted, never shown"));
const allowPartial = lazy(() => z.boolean().optional().describe('Apply what can be applied and list what failed, instead of partial_success_disallowed'));

export const CONSOLE_LEVELS = ['debug', 'log', 'info', 'warn', 'error'] as const;
export const GROUP_COLORS = ['grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange'] as const;

const ConsoleEntry = lazy(() =>
  z.strictObject({
    id: z.number().int().describe('Increasing per tab; pass as --since to get only newer entries'),
    level: z.enum(CONSOLE_LEVELS),
    source: z.enum(['console', 'exception']),
    text: z.string(),
    url: z.string().optional(),
    line: z.number().optional(),
    timestamp: z.number().describe('Epoch ms'),
  }),
);
export type ConsoleEntry = z.infer<ReturnType<typeof ConsoleEntry>>;

const Headers = lazy(() => z.record(z.string(), z.string()));

const NetworkEntry = lazy(() =>
  z.strictObject({
    id: z.string().describe('Request id for `network body <id>`'),
    url: z.string(),
    method: z.string(),
    type: z.string(),
    status: z.number().nullable().describe('HTTP status, null while pending or when the request failed'),
    statusText: z.string(),
    mimeType: z.string(),
    failed: z.string().optional().describe('Network error text when the request failed'),
    requestHeaders: Headers(),
    responseHeaders: Headers(),
    startedAt: z.number().describe('Epoch ms'),
    durationMs: z.number().nullable(),
    encodedBytes: z.number(),
  }),
);
export type NetworkEntry = z.infer<ReturnType<typeof NetworkEntry>>;

const MaskBox = lazy(() =>
  z
    .strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
    .describe('CSS pixels of the captured area (x, y from its top-left corner; whole pixels around the frame)'),
);
const SiteFields = lazy(() => ({
  rule: z.string().describe("The person's block-list rule that covers the frame"),
  origin: z.string().describe('The origin the frame shows (never its path; empty when it has none)'),
}));
const MaskedArea = lazy(() => z.strictObject({ ...SiteFields(), box: MaskBox() }));

const FailedTarget = lazy(() => z.strictObject({ target: z.string(), code: z.string(), message: z.string() }));
const Applied = lazy(() => ({ applied: z.array(z.number()), failed: z.array(FailedTarget()) }));

const Workspace = lazy(() => z.strictObject({ name: z.string(), windowId: z.number(), tabIds: z.array(z.number()), owner: z.string().nullable() }));
const Group = lazy(() => z.strictObject({ name: z.string(), groupId: z.number(), windowId: z.number(), color: z.string(), tabIds: z.array(z.number()) }));
const Lease = lazy(() =>
  z.strictObject({
    kind: z.enum(['tab', 'workspace']),
    target: z.string().describe('Tab id or workspace name'),
    owner: z.string(),
    ttlMs: z.number(),
    expiresAt: z.number().describe('Epoch ms; every call by the owner pushes it back'),
  }),
);
export type LeaseInfo = z.infer<ReturnType<typeof Lease>>;

export const OBSERVE_TOOLS = {
  screenshot: toolEntry({
    description: 'Capture the tab (viewport, --full page, or one element by ref or --selector) as PNG or JPEG, without activating it.',
    mutates: false,
    mcp: { group: 'core', description: 'Capture the viewport, the full page, or one element (ref or CSS selector) as an image.' },
    cli: {
      command: 'screenshot',
      summary: 'Capture the tab (or --full page, or one element by ref or --selector) to a PNG/JPEG file; prints the path.',
      task: 'observe',
      output: 'image',
      args: [{ param: 'ref', label: 'element', optional: true, help: 'element ref from snapshot (@e12), scrolled into view' }],
      examples: ['chrome-relay screenshot', 'chrome-relay screenshot @e12 --out shot.png', 'chrome-relay screenshot --full --format jpeg --quality 70'],
    },
    schemas: () => ({
      params: z.strictObject({
        tab: tabId().optional(),
        full: z.boolean().optional().describe('Whole scrollable page instead of the viewport'),
        ref: RefField().optional().describe('Element ref to capture (scrolled into view first; it carries its tab)'),
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
        masked: z
          .array(MaskedArea())
          .optional()
          .describe('Frames showing a site the person blocked, painted over with flat grey in the image (absent when none is shown)'),
      }),
    }),
  }),
  record_start: toolEntry({
    description: 'Start recording the tab as screencast frames (kept in the extension, capped).',
    mutates: true,
    mcp: { group: 'record', description: 'Start recording the tab as screencast frames.' },
    cli: {
      command: 'record start',
      summary: 'Start recording the tab (frames are kept in the browser until `record stop`).',
      task: 'observe',
      examples: ['chrome-relay record start', 'chrome-relay record start --max-frames 100 --quality 50'],
    },
    schemas: () => ({
      params: z.strictObject({
        tab: tabId().optional(),
        maxFrames: z.number().int().min(1).max(1000).optional().describe('Frames kept (oldest dropped beyond it; default 300)'),
        quality: z.number().int().min(1).max(100).optional().describe('JPEG quality of each frame (default 70)'),
        maxEdge: z.number().int().min(16).max(4096).optional().describe('Scale frames so the longer edge is at most this (default 1280)'),
      }),
      result: z.strictObject({ tabId: z.number(), recording: z.literal(true) }),
    }),
  }),
  record_stop: toolEntry({
    description: 'Stop recording the tab and return its frames (JPEG, base64, with timestamps).',
    mutates: true,
    mcp: { group: 'record', description: 'Stop recording; returns the frame count and timestamps, and the last frame as an image.' },
    cli: {
      command: 'record stop',
      summary: 'Stop recording and write frame-NNNNN.jpg files to --out; --gif also encodes recording.gif with ffmpeg.',
      task: 'observe',
      output: 'frames',
      examples: ['chrome-relay record stop --out ./frames', 'chrome-relay record stop --out ./frames --gif --fps 5'],
    },
    schemas: () => ({
      params: z.strictObject({ tab: tabId().optional() }),
      result: z.strictObject({
        tabId: z.number(),
        frames: z.array(z.strictObject({ data: z.string(), timestamp: z.number().describe('Seconds, from the screencast') })),
        dropped: z.number().describe('Frames discarded because the cap was reached'),
        masked: z
          .array(z.strictObject({ ...SiteFields(), frames: z.number().describe('How many of the kept frames show it painted over') }))
          .optional()
          .describe('Frames of the page showing a site the person blocked, painted over with flat grey in the recording (absent when none was shown)'),
        withheld: z
          .number()
          .optional()
          .describe('Frames left out because a blocked frame in them could not be measured or painted over (absent when none)'),
      }),
    }),
  }),
  console: toolEntry({
    description: 'Console messages and uncaught exceptions of the tab, captured since chrome-relay attached to it; credentials in them (bearer strings, tokens, the tab\'s cookie values) are masked.',
    mutates: false,
    mcp: { group: 'devtools', description: 'Console messages and uncaught exceptions of the tab; credentials masked.' },
    cli: {
      command: 'console',
      output: 'list',
      summary: 'Console messages and uncaught exceptions of the tab (captured since chrome-relay attached to it).',
      task: 'observe',
      examples: ['chrome-relay console', 'chrome-relay console --level warn --since 12', 'chrome-relay console --clear'],
    },
    schemas: () => ({
      params: z.strictObject({
        tab: tabId().optional(),
        level: z.enum(CONSOLE_LEVELS).optional().describe('Only this level and more severe'),
        since: z.number().int().nonnegative().optional().describe('Only entries with a larger id'),
        clear: z.boolean().optional().describe('Empty the buffer after reading'),
      }),
      result: z.strictObject({ tabId: z.number(), entries: z.array(ConsoleEntry()), dropped: z.number().describe('Entries lost to the buffer cap') }),
    }),
  }),
  network: toolEntry({
    description: 'Requests of the tab captured since chrome-relay attached to it; credentials in headers (Cookie, Authorization…) are redacted unless rawHeaders, and in URLs (token/key/password/sig/code parameters, also in Referer) always.',
    mutates: false,
    mcp: { group: 'network', description: 'Requests of the tab since chrome-relay attached to it, filtered by url, status or method; credentials redacted.' },
    cli: {
      command: 'network',
      output: 'list',
      summary: 'Requests of the tab (captured since chrome-relay attached to it); sensitive headers redacted.',
      task: 'observe',
      examples: ['chrome-relay network', 'chrome-relay network --url api --status 4xx', 'chrome-relay network --method POST --raw-headers'],
    },
    schemas: () => ({
      params: z.strictObject({
        tab: tabId().optional(),
        url: z.string().min(1).optional().describe('Only URLs containing this text'),
        status: z.string().regex(/^([1-5]xx|[1-5][0-9]{2}|failed|pending)$/, 'must be like 404, 4xx, failed or pending').optional().describe('404, 4xx, failed or pending'),
        method: z.string().regex(/^[A-Za-z]+$/, 'must be an HTTP method').optional().describe('HTTP method'),
        rawHeaders: z.boolean().optional().describe('Show headers (Cookie, Authorization…) as sent; URL credentials stay redacted'),
      }),
      result: z.strictObject({ tabId: z.number(), requests: z.array(NetworkEntry()), dropped: z.number() }),
    }),
  }),
  network_body: toolEntry({
    description: 'Response body of one captured request.',
    mutates: false,
    mcp: { group: 'network', description: 'Response body of one request (id from network).' },
    cli: {
      command: 'network body',
      summary: 'Response body of one captured request (id from `chrome-relay network`).',
      task: 'observe',
      output: 'body',
      args: [{ param: 'id' }],
      examples: ['chrome-relay network body 1234.5', 'chrome-relay network body 1234.5 --out body.json'],
    },
    schemas: () => ({
      params: z.strictObject({ tab: tabId().optional(), id: z.string().min(1).describe('Request id from `chrome-relay network`') }),
      result: z.strictObject({ tabId: z.number(), id: z.string(), mimeType: z.string(), base64Encoded: z.boolean(), body: z.string() }),
    }),
  }),
  network_har: toolEntry({
    description: 'The captured requests of the tab as a HAR 1.2 log; credentials in headers and URLs redacted unless rawHeaders.',
    mutates: false,
    mcp: { group: 'network', description: "The tab's captured requests as a HAR 1.2 log; credentials redacted." },
    cli: {
      command: 'network har',
      summary: 'Write the captured requests as a HAR 1.2 file.',
      task: 'observe',
      output: 'har',
      examples: ['chrome-relay network har --out requests.har'],
    },
    schemas: () => ({
      params: z.strictObject({ tab: tabId().optional(), rawHeaders: z.boolean().optional().describe('Do not redact credentials in headers and URLs') }),
      result: z.strictObject({ tabId: z.number(), entries: z.number(), har: z.record(z.string(), z.unknown()) }),
    }),
  }),
  workspace_create: toolEntry({
    description: 'Open a named, unfocused window (a workspace) for an agent; it never takes focus from the human.',
    mutates: true,
    leases: 'exempt',
    loads: 'url',
    mcp: { group: 'tabs-admin', description: 'Open a named, unfocused window (a workspace) leased to this session; it never takes the focus.' },
    cli: {
      command: 'workspace create',
      summary: 'Open an unfocused window named <name>; with an agent identity, it is leased to that agent.',
      task: 'organize',
      args: [{ param: 'name' }],
      examples: ['chrome-relay workspace create research --url https://example.com'],
    },
    schemas: () => ({
      params: z.strictObject({ name: name(), url: z.string().min(1).optional().describe('First URL (default about:blank)'), agent: agent().optional() }),
      result: z.strictObject({ name: z.string(), windowId: z.number(), tabId: z.number(), owner: z.string().nullable() }),
    }),
  }),
  workspace_list: toolEntry({
    description: 'List workspaces that still have a window.',
    mutates: false,
    leases: 'exempt',
    lists: 'workspaces',
    mcp: { group: 'tabs-admin', description: 'List the workspaces that still have a window.' },
    cli: { command: 'workspace list', output: 'list', summary: 'List live workspaces.', task: 'organize', examples: ['chrome-relay workspace list'] },
    schemas: () => ({
      params: z.strictObject({}),
      result: z.strictObject({ workspaces: z.array(Workspace()), otherTabs: otherTabs().optional() }),
    }),
  }),
  workspace_close: toolEntry({
    description: 'Close a workspace window and its tabs.',
    mutates: true,
    destructive: true,
    leases: 'named_workspace',
    reaches: { workspace: 'name' },
    mcp: { group: 'tabs-admin', description: 'Close a workspace window and its tabs.' },
    cli: {
      command: 'workspace close',
      summary: 'Close the workspace window and its tabs.',
      task: 'organize',
      args: [{ param: 'name' }],
      examples: ['chrome-relay workspace close research'],
    },
    schemas: () => ({
      params: z.strictObject({ name: name(), agent: agent().optional() }),
      result: z.strictObject({ name: z.string(), windowId: z.number(), closedTabs: z.array(z.number()) }),
    }),
  }),
  group_create: toolEntry({
    description: 'Put tabs into a new native tab group with a name and colour (all or nothing unless allowPartial).',
    mutates: true,
    reaches: { tabIds: 'tabs' },
    mcp: { group: 'tabs-admin', description: 'Put tabs into a new named tab group (all or nothing unless allowPartial).' },
    cli: {
      command: 'group create',
      summary: 'Group tabs under a new name (all or nothing unless --allow-partial).',
      task: 'organize',
      args: [{ param: 'name' }, { param: 'tabs' }],
      examples: ['chrome-relay group create checkout 123 456 --color blue'],
    },
    schemas: () => ({
      params: z.strictObject({ name: name(), tabs: tabList(), color: z.enum(GROUP_COLORS).optional().describe('Group colour'), allowPartial: allowPartial(), agent: agent().optional() }),
      result: z.strictObject({ name: z.string(), groupId: z.number(), ...Applied() }),
    }),
  }),
  group_add: toolEntry({
    description: 'Add tabs to an existing named group (all or nothing unless allowPartial).',
    mutates: true,
    reaches: { tabIds: 'tabs', group: 'name' },
    mcp: { group: 'tabs-admin', description: 'Add tabs to a named tab group (all or nothing unless allowPartial).' },
    cli: {
      command: 'group add',
      summary: 'Add tabs to a named group (all or nothing unless --allow-partial).',
      task: 'organize',
      args: [{ param: 'name' }, { param: 'tabs' }],
      examples: ['chrome-relay group add checkout 789'],
    },
    schemas: () => ({
      params: z.strictObject({ name: name(), tabs: tabList(), allowPartial: allowPartial(), agent: agent().optional() }),
      result: z.strictObject({ name: z.string(), groupId: z.number(), ...Applied() }),
    }),
  }),
  group_list: toolEntry({
    description: 'List the tab groups whose every tab this agent may use; the others are only counted (otherGroups).',
    mutates: false,
    leases: 'exempt',
    lists: 'groups',
    mcp: { group: 'tabs-admin', description: 'List the tab groups you may use; the rest are only counted.' },
    cli: { command: 'group list', output: 'list', summary: 'List tab groups.', task: 'organize', examples: ['chrome-relay group list'] },
    schemas: () => ({
      params: z.strictObject({}),
      result: z.strictObject({
        groups: z.array(Group()),
        otherGroups: z.number().int().nonnegative().optional().describe("How many other tab groups hold tabs agents may not use (the person's): counted, never named"),
      }),
    }),
  }),
  group_close: toolEntry({
    description: 'Close every tab of a named group (all or nothing unless allowPartial).',
    mutates: true,
    destructive: true,
    reaches: { group: 'name' },
    mcp: { group: 'tabs-admin', description: 'Close every tab of a named group (all or nothing unless allowPartial).' },
    cli: {
      command: 'group close',
      summary: 'Close every tab of the group (all or nothing unless --allow-partial).',
      task: 'organize',
      args: [{ param: 'name' }],
      examples: ['chrome-relay group close checkout'],
    },
    schemas: () => ({
      params: z.strictObject({ name: name(), allowPartial: allowPartial(), agent: agent().optional() }),
      result: z.strictObject({ name: z.string(), groupId: z.number(), ...Applied() }),
    }),
  }),
  lease_claim: toolEntry({
    description: 'Claim a tab or workspace for an agent; others acting there get target_conflict until it is released or idle past its ttl.',
    mutates: true,
    tabUse: 'none',
    leases: 'exempt',
    reaches: { tabIds: 'tab', workspace: 'workspace' },
    mcp: { group: 'tabs-admin', description: 'Lease a tab or workspace to this session: other agents acting there fail until it is released or idle past ttlSec.' },
    cli: {
      command: 'lease claim',
      summary: 'Claim a tab or workspace for your agent (--agent or CHROME_RELAY_AGENT).',
      task: 'leases',
      flags: [{ flag: '--ttl', param: 'ttlSec', placeholder: '<seconds>' }],
      examples: ['chrome-relay --agent planner lease claim --tab 123', 'chrome-relay --agent planner lease claim --workspace research --ttl 900'],
    },
    schemas: () => ({
      params: z.strictObject({
        agent: agent(),
        tab: tabId().optional().describe('Tab to lease'),
        workspace: name().optional().describe('Workspace to lease'),
        ttlSec: z.number().int().min(1).max(86_400).optional().describe('Idle seconds before the lease expires (default 600)'),
      }),
      result: z.strictObject({ lease: Lease() }),
    }),
  }),
  lease_list: toolEntry({
    description: 'List live (unexpired) leases.',
    mutates: false,
    leases: 'exempt',
    mcp: { group: 'tabs-admin', description: 'List the live leases.' },
    cli: { command: 'lease list', output: 'list', summary: 'List live leases.', task: 'leases', examples: ['chrome-relay lease list'] },
    schemas: () => ({
      params: z.strictObject({}),
      result: z.strictObject({ leases: z.array(Lease()) }),
    }),
  }),
  lease_release: toolEntry({
    description:
      "Release this agent's lease on a tab or workspace, or all of its leases. Another agent's lease is not yours to free: wait for it to expire, or ask the person, who can free it from the extension's toolbar popup.",
    mutates: true,
    tabUse: 'none',
    leases: 'exempt',
    mcp: { group: 'tabs-admin', description: "Release this session's lease on a tab or workspace, or all of them (all); force frees one whoever holds it." },
    cli: {
      command: 'lease release',
      summary: 'Release your lease on a tab or workspace, or all of them.',
      task: 'leases',
      examples: ['chrome-relay --agent planner lease release --all', 'chrome-relay --agent planner lease release --tab 123'],
    },
    schemas: () => ({
      params: z.strictObject({
        agent: agent(),
        tab: tabId().optional().describe('Tab to release'),
        workspace: name().optional().describe('Workspace to release'),
        all: z.boolean().optional().describe('Every lease of this agent'),
      }),
      result: z.strictObject({ released: z.array(Lease()) }),
    }),
  }),
} as const;
