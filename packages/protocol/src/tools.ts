/**
 * Every tool, written once: an entry per tool (toolSpec.ts) with its wire shape (params and result
 * as zod), policies and command-line shape. Params are flat (strings, numbers, enums, refs); unknown
 * keys are an error (strictObject). The CLI, MCP server, help and docs are generated from here.
 */
import * as z from 'zod';
import { lazy } from './lazy.js';
import { RefField, TabIdField, ReadinessTimeoutField, WaitUntilField } from './fields.js';
import { toolEntry } from './toolSpec.js';
import { snapshotTreeProblem, type SnapshotNode } from './snapshotNode.js';

export type { SnapshotNode } from './snapshotNode.js';
import { ACTION_TOOLS, DialogInfoSchema } from './tools/actions.js';
import { OBSERVE_TOOLS } from './tools/observe.js';
import { ELEMENT_TOOLS } from './tools/elements.js';

const TabInfo = lazy(() =>
  z.strictObject({
    id: z.number(),
    windowId: z.number(),
    index: z.number(),
    url: z.string(),
    title: z.string(),
    active: z.boolean(),
    status: z.string(),
    groupId: z.number(),
  }),
);
export type TabInfo = z.infer<ReturnType<typeof TabInfo>>;

const WindowInfo = lazy(() =>
  z.strictObject({
    id: z.number(),
    focused: z.boolean(),
    type: z.string(),
    tabs: z.array(TabInfo()),
  }),
);

/** A whole snapshot forest (shape and iterative validator in snapshotNode.ts); the error names the first bad path. */
export const SnapshotTreeSchema: () => z.ZodType<SnapshotNode[]> = lazy(() =>
  z.custom<SnapshotNode[]>().superRefine((value, ctx) => {
    const problem = snapshotTreeProblem(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

export const TOOLS = {
  status: toolEntry({
    description: 'Report the host, extension and browser this CLI is talking to (answered by the host).',
    mutates: false,
    answeredBy: 'host',
    leases: 'exempt',
    mcp: { group: 'extra', description: 'Which host, extension and browser profile this server reaches.' },
    cli: {
      command: 'status',
      summary: 'Show which host, extension and browser profile this CLI reaches, and what `launch` started.',
      task: 'setup',
      output: 'status',
      examples: ['chrome-relay status'],
    },
    schemas: () => ({
      params: z.strictObject({}),
      result: z.strictObject({
        host: z.strictObject({ version: z.string(), protocolVersion: z.number(), pid: z.number(), socket: z.string() }),
        extension: z.strictObject({ id: z.string(), version: z.string(), protocolVersion: z.number() }).nullable(),
        browser: z.strictObject({ userAgent: z.string(), pid: z.number().nullable() }).nullable(),
        profile: z.string().nullable().describe("The browser's --user-data-dir; null for the browser's own profile (started without one, as a person's Chrome is)"),
        pausedSince: z.number().nullable().describe('When the person paused agents from the extension (epoch ms); null when not paused or no extension is connected'),
      }),
    }),
  }),
  tabs: toolEntry({
    description: "List the windows and tabs this agent may use; the person's other tabs are only counted (otherTabs).",
    mutates: false,
    leases: 'exempt',
    lists: 'tabs',
    mcp: { group: 'core', description: 'List the windows and tabs you may use (id, url, title); the rest are only counted.' },
    cli: { command: 'tabs', output: 'list', summary: 'List the windows and tabs agents may use (ids for --tab).', task: 'navigate', examples: ['chrome-relay tabs'] },
    schemas: () => ({
      params: z.strictObject({}),
      result: z.strictObject({
        windows: z.array(WindowInfo()).describe('The windows holding tabs this agent may use, and those tabs only'),
        otherTabs: z.number().int().nonnegative().optional().describe("How many other tabs are open that agents may not use (the person's own, on a blocked site, extension or browser pages): counted, never shown"),
      }),
    }),
  }),
  navigate: toolEntry({
    description:
      "Load a URL in the tab chrome-relay last used (or --tab; --new-tab, or no tab used yet, opens a new background tab) and wait until the real document is ready. The result carries the main document's HTTP status: a 404 still loaded (exit 0), and says so.",
    mutates: true,
    tabUse: 'page_or_new',
    loads: 'url',
    mcp: { group: 'core', description: 'Load a URL in the current tab (or `tab`; newTab opens another) and wait until the page is ready. Returns its tabId and HTTP status.' },
    cli: {
      command: 'navigate',
      summary: 'Load a URL in the current tab (--tab, or --new-tab for another) and wait for the real document; says its HTTP status.',
      task: 'navigate',
      output: 'action',
      args: [{ param: 'url' }],
      flags: [{ flag: '--wait-timeout', param: 'timeoutMs' }],
      examples: [
        'chrome-relay navigate https://example.com',
        'chrome-relay navigate https://example.com --snapshot -i',
        'chrome-relay navigate https://example.com --new-tab',
        'chrome-relay navigate https://example.com --tab 123 --wait domcontentloaded',
      ],
    },
    schemas: () => ({
      params: z
        .strictObject({
          url: z.string().min(1).describe('Absolute URL to open'),
          tab: TabIdField().optional(),
          newTab: z.literal(true).optional().describe('Open a new background tab instead of using the current one'),
          wait: WaitUntilField().optional(),
          timeoutMs: ReadinessTimeoutField().optional(),
        })
        .superRefine((params, ctx) => {
          if (params.newTab === true && params.tab !== undefined) ctx.addIssue({ code: 'custom', path: ['newTab'], message: 'give --tab (that tab) or --new-tab (another one), not both' });
        }),
      result: z.strictObject({
        tabId: z.number(),
        url: z.string(),
        title: z.string(),
        ready: z.boolean(),
        status: z.number().int().optional().describe('HTTP status of the main document (absent where there is none: data:, about:, a same-document move, not answered yet)'),
        newTab: z.boolean(),
      }),
    }),
  }),
  snapshot: toolEntry({
    description: 'Compact accessibility tree of the tab; every actionable element gets a ref.',
    mutates: false,
    mcp: { group: 'core', description: 'The page as a compact accessibility tree, one element per line; actionable ones carry [ref=eN]. Take one before acting.' },
    cli: {
      command: 'snapshot',
      summary: 'Print the page as a compact accessibility tree; actionable elements get refs like [ref=e12].',
      task: 'read',
      output: 'snapshot',
      flags: [
        { flag: '-i, --interactive', param: 'interactive' },
        { flag: '-d, --depth', param: 'depth' },
        { flag: '-s, --scope', param: 'scopeRef', parse: 'refOrSelector', otherwise: 'scopeSelector', placeholder: '<ref|css>', help: 'only the subtree of this element: a ref (@e12) or a CSS selector' },
        { flag: '--no-elide', param: 'noElide', value: true, help: 'keep long runs of identical siblings (elided by default)' },
        { flag: '--diff', param: 'diff', help: "print only what changed since this tab's previous snapshot" },
      ],
      examples: [
        'chrome-relay snapshot',
        'chrome-relay snapshot -i --max-chars 8000',
        'chrome-relay snapshot -s "form#checkout" --urls',
        'chrome-relay snapshot --diff',
        'chrome-relay snapshot --max-text 2000',
        'chrome-relay snapshot --json',
      ],
    },
    schemas: () => ({
      params: z.strictObject({
        tab: TabIdField().optional(),
        interactive: z.literal(true).optional().describe('Only actionable elements (and the ancestors that give them context)'),
        depth: z.number().int().nonnegative().max(1000).optional().describe('Cut the tree below this depth (0 = top level only)'),
        scopeRef: RefField().optional().describe('Only the subtree of this element (refs of the whole page stay valid)'),
        scopeSelector: z.string().min(1).optional().describe('Only the subtree of the first element matching this CSS selector'),
        diff: z.literal(true).optional().describe("Also return this tab's previous snapshot (shaped the same way) so the caller can show what changed"),
        noElide: z.literal(true).optional().describe('Keep long runs of identical siblings instead of eliding them'),
        maxText: z.number().int().min(20).max(100_000).optional().describe('Cut text and values at this many characters (default 100; a cut one says its whole length)'),
      }),
      result: z.strictObject({
        tabId: z.number(),
        url: z.string(),
        title: z.string(),
        refCount: z.number(),
        modal: z.string().optional().describe("A modal dialog is open (its name, possibly ''): the page outside it is left out, as a person cannot reach it"),
        tree: SnapshotTreeSchema(),
        previous: SnapshotTreeSchema().nullable().optional().describe('With diff: the previous snapshot of this tab (null when there was none)'),
      }),
    }),
  }),
  click: toolEntry({
    description: 'Click an element by ref (scroll into view, refuse if covered, trusted mouse events), or at viewport coordinates.',
    mutates: true,
    mcp: { group: 'core', description: 'Click an element by ref with real mouse events; fails if something covers it. x and y click a viewport point instead.' },
    input: true,
    cli: {
      command: 'click',
      summary: 'Click an element by ref (refuses if something covers it), or at viewport coordinates.',
      task: 'act',
      output: 'action',
      args: [{ param: 'ref', optional: true, help: 'element ref from snapshot, e.g. @e12' }],
      flags: [
        { flag: '--x', param: 'x', placeholder: '<px>' },
        { flag: '--y', param: 'y', placeholder: '<px>' },
        { flag: '--double', param: 'clickCount', value: 2, help: 'double click' },
        { flag: '--triple', param: 'clickCount', value: 3, help: "triple click (selects a paragraph or a field's text)" },
        { flag: '--modifiers', param: 'modifiers', parse: 'modifiers', placeholder: '<keys>', help: 'keys held during the click, e.g. Shift or Control,Shift' },
        { flag: '--hold', param: 'holdMs', placeholder: '<ms>', help: 'press and hold the button this long before releasing it' },
      ],
      examples: [
        'chrome-relay click @e12',
        'chrome-relay click @e12 --snapshot -i',
        'chrome-relay click @e12 --double',
        'chrome-relay click @e7 --triple',
        'chrome-relay click @e9 --hold 3000',
        'chrome-relay click @e5 --button right --modifiers Shift',
        'chrome-relay click --x 120 --y 340',
      ],
    },
    schemas: () => ({
      params: z
        .strictObject({
          ref: RefField().optional(),
          x: z.number().nonnegative().optional().describe('Viewport x in CSS pixels (with y, instead of a ref)'),
          y: z.number().nonnegative().optional().describe('Viewport y in CSS pixels'),
          button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (default left)'),
          clickCount: z.number().int().min(1).max(3).optional().describe('2 = double click, 3 = triple click'),
          modifiers: z.array(z.enum(['Alt', 'Control', 'Meta', 'Shift'])).optional().describe('Keys held during the click'),
          holdMs: z.number().int().min(1).max(20_000).optional().describe('Press and hold: milliseconds the button stays down before the release'),
          tab: TabIdField().optional(),
        })
        .superRefine((params, ctx) => {
          if (params.holdMs !== undefined && (params.clickCount ?? 1) > 1) ctx.addIssue({ code: 'custom', path: ['holdMs'], message: 'hold goes with a single click, not a double or triple one' });
          // Name what is missing: with one coordinate given, that is the other one.
          const { ref, x, y } = params;
          if (ref !== undefined && (x !== undefined || y !== undefined)) ctx.addIssue({ code: 'custom', path: ['ref'], message: 'give either a ref or x and y, not both' });
          else if (ref === undefined && x === undefined && y === undefined) ctx.addIssue({ code: 'custom', path: ['ref'], message: 'give a ref (e.g. @e12) or both x and y' });
          else if (ref === undefined && x === undefined) ctx.addIssue({ code: 'custom', path: ['x'], message: 'y was given without x; give both, or a ref instead' });
          else if (ref === undefined && y === undefined) ctx.addIssue({ code: 'custom', path: ['y'], message: 'x was given without y; give both, or a ref instead' });
        }),
      result: z.strictObject({
        clicked: z.literal(true).describe('Always true: the element (or what was at the point) got the click; a click that did not land is an error (exit 1), never clicked: false'),
        tabId: z.number(),
        ref: z.string().optional(),
        x: z.number(),
        y: z.number(),
        healed: z.boolean(),
        navigated: z.boolean(),
        url: z.string(),
        target: z
          .strictObject({
            tag: z.string(),
            id: z.string().optional(),
            name: z.string().describe('Its short accessible name or text (page content)'),
            ref: z.string().optional().describe('Its ref, or the ref of its nearest ancestor, when a snapshot gave it one'),
          })
          .optional()
          .describe('With x and y: the element at the point, which got the press and the release (for a point over an iframe: the <iframe>)'),
        dialog: DialogInfoSchema().optional().describe('A JavaScript dialog the click opened; answer it with `chrome-relay dialog`'),
        acted: z
          .strictObject({
            what: z
              .enum(['opened', 'closed', 'expanded', 'collapsed', 'checked', 'unchecked', 'pressed', 'unpressed', 'selected', 'chosen', 'focused'])
              .describe('opened/closed its popup, expanded/collapsed, (un)checked, (un)pressed, selected (an option, or itself), chosen (a menu item, whose menu then closed), focused (a text field)'),
            popup: z
              .strictObject({ role: z.string(), name: z.string().optional().describe('Its own short name, when it has one') })
              .optional()
              .describe('opened, closed: the popup, by role (listbox, menu, dialog…)'),
            releaseHeld: z
              .literal(true)
              .optional()
              .describe(
                'The widget acted on the press (as Radix, MUI, react-select and Headless UI do), then the release went to another element (what the press opened, or what was under the pointer once the pressed item left) and was held back: the press did the job',
              ),
            summary: z.string().describe('The same in a few words, e.g. `opened: listbox "Size"`'),
          })
          .optional()
          .describe("What the click visibly did, as the control's own state shows it (ARIA and native state: expanded, checked, pressed, selected, focus)"),
      }),
    }),
  }),
  rearm: toolEntry({
    description:
      'Re-arm the connection to the extension after it stopped answering (calls failing with extension_not_connected, reason circuit_open): the host pings the extension now and forwards calls again once it answers. Restarts nothing and cuts no call in flight; fails while the extension still does not answer. `chrome-relay reconnect` sends it to every connected browser.',
    // Re-arms the host's breaker only; no page or browser state changes.
    mutates: false,
    answeredBy: 'host',
    internal: true,
    schemas: () => ({
      params: z.strictObject({}),
      result: z.strictObject({
        wasOpen: z.boolean().describe('Whether the host was failing calls fast (circuit open) before this re-arm'),
        roundTripMs: z.number().int().nonnegative().describe('How long the extension took to answer the ping'),
      }),
    }),
  }),
  ping: toolEntry({
    description: 'Round trip to the extension (answered by its service worker, not the host) and, with page, a trivial evaluation in the tab chrome-relay last worked on; `chrome-relay doctor` uses it.',
    mutates: false,
    internal: true,
    health: true,
    probe: true,
    schemas: () => ({
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
    }),
  }),
  restart_host: toolEntry({
    description: 'Drop the native-messaging port and connect again, so Chrome stops this host and starts the installed one (only `chrome-relay update` uses it: it cuts every call in flight). Answers before the port closes.',
    // Touches neither page nor browser state; repeating it only reconnects once more.
    mutates: false,
    internal: true,
    health: true,
    endsHost: true,
    schemas: () => ({
      params: z.strictObject({}),
      result: z.strictObject({
        reconnectInMs: z.number().int().nonnegative().describe('Delay after this answer before the extension closes its port'),
      }),
    }),
  }),
  ...ACTION_TOOLS,
  ...OBSERVE_TOOLS,
  ...ELEMENT_TOOLS,
} as const;

export type ToolName = keyof typeof TOOLS;
export type ToolParams<T extends ToolName> = z.infer<(typeof TOOLS)[T]['params']>;
export type ToolResult<T extends ToolName> = z.infer<(typeof TOOLS)[T]['result']>;
