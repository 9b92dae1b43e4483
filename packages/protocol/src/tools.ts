/**
 * Every tool's wire shape, written once: params and result as zod schemas, plus a description
 * that feeds `--help` and docs/tools.md. Params are flat (strings, numbers, enums, refs) so they
 * map 1:1 onto CLI flags. Unknown keys are an error (strictObject).
 */
import * as z from 'zod';
import { lazyTool } from './toolSpec.js';
import { snapshotTreeProblem, type SnapshotNode } from './snapshotNode.js';

export type { SnapshotNode } from './snapshotNode.js';
import { ACTION_TOOLS, DialogInfoSchema } from './tools/actions.js';
import { OBSERVE_TOOLS } from './tools/observe.js';
import { ELEMENT_TOOLS } from './tools/elements.js';

const tabId = z.number().int().positive().describe('Tab id (from `chrome-relay tabs`)');
const ref = z.string().regex(/^e[1-9][0-9]*$/, 'must be a ref like e12 (written @e12 on the command line)').describe('Element ref from a snapshot');

const TabInfo = z.strictObject({
  id: z.number(),
  windowId: z.number(),
  index: z.number(),
  url: z.string(),
  title: z.string(),
  active: z.boolean(),
  status: z.string(),
  groupId: z.number(),
});
export type TabInfo = z.infer<typeof TabInfo>;

const WindowInfo = z.strictObject({
  id: z.number(),
  focused: z.boolean(),
  type: z.string(),
  tabs: z.array(TabInfo),
});

/** A whole snapshot forest (shape and iterative validator in snapshotNode.ts); the error names the first bad path. */
export const SnapshotTreeSchema: z.ZodType<SnapshotNode[]> = z.custom<SnapshotNode[]>().superRefine((value, ctx) => {
  const problem = snapshotTreeProblem(value);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

const waitUntil = z.enum(['commit', 'domcontentloaded', 'load', 'none']);

export const TOOLS = {
  status: lazyTool(() => ({
    description: 'Report the host, extension and browser this CLI is talking to (answered by the host).',
    mutates: false,
    params: z.strictObject({}),
    result: z.strictObject({
      host: z.strictObject({ version: z.string(), protocolVersion: z.number(), pid: z.number(), socket: z.string() }),
      extension: z.strictObject({ id: z.string(), version: z.string(), protocolVersion: z.number() }).nullable(),
      browser: z.strictObject({ userAgent: z.string(), pid: z.number().nullable() }).nullable(),
      profile: z.string().nullable(),
    }),
  })),
  tabs: lazyTool(() => ({
    description: 'List windows and their tabs.',
    mutates: false,
    params: z.strictObject({}),
    result: z.strictObject({ windows: z.array(WindowInfo) }),
  })),
  navigate: lazyTool(() => ({
    description: 'Open a URL in a new background tab (default) or in --tab, and wait until the real document is ready.',
    mutates: true,
    params: z.strictObject({
      url: z.string().min(1).describe('Absolute URL to open'),
      tab: tabId.optional(),
      wait: waitUntil.optional().describe('Readiness to wait for (default load)'),
      timeoutMs: z.number().int().positive().max(120_000).optional().describe('How long to wait for readiness'),
    }),
    result: z.strictObject({
      tabId: z.number(),
      url: z.string(),
      title: z.string(),
      ready: z.boolean(),
      newTab: z.boolean(),
    }),
  })),
  snapshot: lazyTool(() => ({
    description: 'Compact accessibility tree of the tab; every actionable element gets a ref.',
    mutates: false,
    params: z.strictObject({
      tab: tabId.optional(),
      interactive: z.literal(true).optional().describe('Only actionable elements (and the ancestors that give them context)'),
      depth: z.number().int().nonnegative().max(1000).optional().describe('Cut the tree below this depth (0 = top level only)'),
      scopeRef: ref.optional().describe('Only the subtree of this element (refs of the whole page stay valid)'),
      scopeSelector: z.string().min(1).optional().describe('Only the subtree of the first element matching this CSS selector'),
      diff: z.literal(true).optional().describe("Also return this tab's previous snapshot (shaped the same way) so the caller can show what changed"),
      noElide: z.literal(true).optional().describe('Keep long runs of identical siblings instead of eliding them'),
    }),
    result: z.strictObject({
      tabId: z.number(),
      url: z.string(),
      title: z.string(),
      refCount: z.number(),
      tree: SnapshotTreeSchema,
      previous: SnapshotTreeSchema.nullable().optional().describe('With diff: the previous snapshot of this tab (null when there was none)'),
    }),
  })),
  click: lazyTool(() => ({
    description: 'Click an element by ref (scroll into view, refuse if covered, trusted mouse events), or at viewport coordinates.',
    mutates: true,
    params: z.strictObject({
      ref: ref.optional(),
      x: z.number().nonnegative().optional().describe('Viewport x in CSS pixels (with y, instead of a ref)'),
      y: z.number().nonnegative().optional().describe('Viewport y in CSS pixels'),
      button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (default left)'),
      clickCount: z.number().int().min(1).max(3).optional().describe('2 = double click, 3 = triple click'),
      modifiers: z.array(z.enum(['Alt', 'Control', 'Meta', 'Shift'])).optional().describe('Keys held during the click'),
      tab: tabId.optional(),
    }),
    result: z.strictObject({
      tabId: z.number(),
      ref: z.string().optional(),
      x: z.number(),
      y: z.number(),
      healed: z.boolean(),
      navigated: z.boolean(),
      url: z.string(),
      dialog: DialogInfoSchema.optional().describe('A JavaScript dialog the click opened; answer it with `chrome-relay dialog`'),
    }),
  })),
  rearm: lazyTool(() => ({
    description:
      'Re-arm the connection to the extension after it stopped answering (calls failing with extension_not_connected, reason circuit_open): the host pings the extension now and forwards calls again once it answers. Restarts nothing and cuts no call in flight; fails while the extension still does not answer. `chrome-relay reconnect` sends it to every connected browser.',
    // Re-arms the host's breaker only; no page or browser state changes.
    mutates: false,
    params: z.strictObject({}),
    result: z.strictObject({
      wasOpen: z.boolean().describe('Whether the host was failing calls fast (circuit open) before this re-arm'),
      roundTripMs: z.number().int().nonnegative().describe('How long the extension took to answer the ping'),
    }),
  })),
  ping: lazyTool(() => ({
    description: 'Round trip to the extension (answered by its service worker, not the host) and, with page, a trivial evaluation in the tab chrome-relay last worked on; `chrome-relay doctor` uses it.',
    mutates: false,
    params: z.strictObject({
      page: z.literal(true).optional().describe('Also evaluate `1` in the tab chrome-relay last worked on, if it is still open'),
    }),
    result: z.strictObject({
      extensionVersion: z.string(),
      page: z
        .strictObject({
          tabId: z.number(),
          url: z.string(),
          answered: z.boolean().describe('Whether the page evaluated the expression before the deadline'),
          ms: z.number().int().nonnegative().describe('Time spent on the page'),
          problem: z.string().optional().describe('Why the page did not answer'),
        })
        .nullable()
        .optional()
        .describe('With page: the tab check (null when chrome-relay has no open tab)'),
    }),
  })),
  restart_host: lazyTool(() => ({
    description: 'Drop the native-messaging port and connect again, so Chrome stops this host and starts the installed one (only `chrome-relay update` uses it: it cuts every call in flight). Answers before the port closes.',
    // Touches neither page nor browser state; repeating it only reconnects once more.
    mutates: false,
    params: z.strictObject({}),
    result: z.strictObject({
      reconnectInMs: z.number().int().nonnegative().describe('Delay after this answer before the extension closes its port'),
    }),
  })),
  ...ACTION_TOOLS,
  ...OBSERVE_TOOLS,
  ...ELEMENT_TOOLS,
} as const;

export type ToolName = keyof typeof TOOLS;
export type ToolParams<T extends ToolName> = z.infer<(typeof TOOLS)[T]['params']>;
export type ToolResult<T extends ToolName> = z.infer<(typeof TOOLS)[T]['result']>;

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(TOOLS, name);
}

/** Tools the host answers itself, without the extension. */
export const HOST_TOOLS: readonly ToolName[] = ['status', 'rearm'];
/**
 * Tools the CLI sends for its own commands, not commands an agent runs by their name: no
 * `chrome-relay <name>` command, not in SKILL.md, refused as batch steps. `restart_host` cuts every
 * agent's call in flight, so only `update` sends it; `ping` is doctor's round trip; `rearm` is what
 * `chrome-relay reconnect` sends. (The swap was once called `reconnect` on the wire: that name is
 * retired, so a host or extension from before cannot mistake the harmless re-arm for the swap.)
 */
export const INTERNAL_TOOLS: readonly ToolName[] = ['restart_host', 'ping', 'rearm'];
