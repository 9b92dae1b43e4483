/**
 * Entries of the page actions that need no ref: keys, type, back/forward/reload, close, wait, get,
 * js, dialog, download. Same shape as the TOOLS entries they are spread into (tools.ts).
 */
import * as z from 'zod';
import { lazy } from '../lazy.js';
import { RefField, ReadinessTimeoutField, TabIdField, WaitUntilField } from '../fields.js';
import { toolEntry } from '../toolSpec.js';
import type { CliShape } from '../cliShape.js';

const tabId = TabIdField;
/** `--frame @e12`: a ref param (cliShape REF_PARAMS), so the ref's own tab is the call's. */
const frameRef = lazy(() => RefField().describe('Run inside this iframe: its ref from a snapshot (same-origin or cross-origin); the ref carries the tab'));

/** A JavaScript dialog (alert/confirm/prompt/beforeunload) as the page opened it. */
export const DialogInfoSchema = lazy(() =>
  z.strictObject({
    type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
    message: z.string(),
    url: z.string(),
    defaultPrompt: z.string().optional(),
  }),
);
export type DialogInfo = z.infer<ReturnType<typeof DialogInfoSchema>>;

const dialogOpened = lazy(() =>
  DialogInfoSchema().optional().describe(
    'Set when the action opened a JavaScript dialog; the tab is blocked until `chrome-relay dialog accept|dismiss`',
  ),
);

const historyResult = lazy(() =>
  z.strictObject({
    tabId: z.number(),
    url: z.string(),
    title: z.string(),
    ready: z.boolean(),
    dialog: dialogOpened(),
  }),
);

const historyParams = lazy(() =>
  z.strictObject({
    tab: tabId().optional(),
    wait: WaitUntilField().optional(),
    timeoutMs: ReadinessTimeoutField().optional(),
  }),
);

const historyCli = (command: 'back' | 'forward' | 'reload', summary: string): CliShape => ({
  command,
  summary,
  task: 'navigate',
  output: 'action',
  flags: [{ flag: '--wait-timeout', param: 'timeoutMs' }],
  examples: [`chrome-relay ${command}`, `chrome-relay ${command} --tab 123 --wait domcontentloaded --snapshot`],
});

export const WAIT_CONDITIONS = ['text', 'url', 'load', 'networkIdle', 'fn', 'selector', 'download'] as const;
export type WaitCondition = (typeof WAIT_CONDITIONS)[number];

export const DownloadInfoSchema = lazy(() =>
  z.strictObject({
    path: z.string().describe('Absolute path of the completed file, as the browser saved it'),
    url: z.string(),
    suggestedFilename: z.string(),
    bytes: z.number(),
    dir: z.string().nullable().describe('Directory armed with `download --dir` (the CLI moves the file there), or null'),
  }),
);
export type DownloadInfo = z.infer<ReturnType<typeof DownloadInfoSchema>>;

export const GET_WHAT = ['title', 'url', 'text', 'value', 'attr', 'count'] as const;
export type GetWhat = (typeof GET_WHAT)[number];

const waitParams = lazy(() =>
  z
    .strictObject({
      text: z.string().min(1).optional().describe('Wait until the rendered page text (open shadow roots included) contains this, case-sensitive'),
      url: z.string().min(1).optional().describe('Wait until the tab URL matches this glob (`*` = anything but "/", `**` = anything)'),
      load: z.literal(true).optional().describe('Wait until the current document has fired load (readyState complete)'),
      networkIdle: z.literal(true).optional().describe('Wait until the tab made no network request for 500 ms'),
      fn: z.string().min(1).optional().describe('Wait until this JavaScript expression (page main world) is truthy'),
      selector: z.string().min(1).optional().describe('Wait until an element matching this CSS selector (searched in open shadow roots too) is visible'),
      download: z.literal(true).optional().describe('Wait for the next download of the tab to complete; returns its path'),
      frame: frameRef().optional(),
      tab: tabId().optional(),
      timeoutMs: z.number().int().positive().optional().describe('Give up after this long (default: the call deadline, which is then set a moment above it so the wait can still report; a shorter call deadline cuts the wait)'),
    })
    .superRefine((params, ctx) => {
      const given = WAIT_CONDITIONS.filter((name) => params[name] !== undefined);
      if (given.length !== 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['condition'],
          message: `give exactly one condition (text, url, load, networkIdle, fn, selector or download), got ${given.length === 0 ? 'none' : given.join(' + ')}`,
        });
      }
    }),
);

const getParams = lazy(() =>
  z
    .strictObject({
      what: z.enum(GET_WHAT).describe('What to read: title, url (of the tab, or of --frame), or text, value, attr (of a ref or --selector), count (of --selector)'),
      ref: RefField().optional().describe('The element to read (text, value, attr), whole and exactly as the page holds it; the ref carries its tab'),
      selector: z.string().min(1).optional().describe('CSS selector of the element, matched in open shadow roots too (text, value, attr without a ref; count)'),
      name: z.string().min(1).optional().describe('Attribute name (required for attr)'),
      frame: frameRef().optional(),
      tab: tabId().optional(),
    })
    .superRefine((params, ctx) => {
      const needsSelector = params.what !== 'title' && params.what !== 'url';
      if (params.ref !== undefined && params.selector !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['selector'], message: 'give the element once: a ref (@e12) or --selector, not both' });
      }
      if (params.ref !== undefined && (!needsSelector || params.what === 'count')) {
        ctx.addIssue({ code: 'custom', path: ['ref'], message: `get ${params.what} takes no ref (a ref names one element: get text, value or attr)` });
      }
      if (params.ref !== undefined && params.frame !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['frame'], message: 'a ref already names its frame; leave out --frame' });
      }
      if (needsSelector && params.selector === undefined && params.ref === undefined) {
        ctx.addIssue({ code: 'custom', path: ['selector'], message: params.what === 'count' ? 'get count needs a CSS selector (--selector)' : `get ${params.what} needs a ref (@e12) or a CSS selector (--selector)` });
      }
      if (!needsSelector && params.selector !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['selector'], message: `get ${params.what} reads the tab itself and takes no selector` });
      }
      if (params.what === 'attr' && params.name === undefined) {
        ctx.addIssue({ code: 'custom', path: ['name'], message: 'get attr needs the attribute name' });
      }
      if (params.what !== 'attr' && params.name !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['name'], message: `an attribute name only goes with get attr, not get ${params.what}` });
      }
    }),
);

export const ACTION_TOOLS = {
  keys: toolEntry({
    description: 'Press keys or key combinations in the tab, as trusted keyboard events (e.g. Enter, Shift+Tab, Control+a).',
    mutates: true,
    mcp: { group: 'core', description: 'Press keys or combinations in order, e.g. ["Enter"] or ["Control+a", "Backspace"].' },
    input: true,
    cli: {
      command: 'keys',
      summary: 'Press keys or combinations as trusted keyboard events, in order.',
      task: 'keyboard',
      output: 'action',
      args: [{ param: 'keys', help: 'keys like Enter, Tab, Escape, ArrowDown, a, A, or combinations like Shift+Tab, Control+a, ControlOrMeta+Enter' }],
      examples: ['chrome-relay keys Enter', 'chrome-relay keys Control+a Backspace', 'chrome-relay keys Shift+Tab --snapshot'],
    },
    schemas: () => ({
      params: z.strictObject({
        keys: z.array(z.string().refine((key) => key.trim() !== '', 'a key cannot be empty; write e.g. Enter, Tab, Shift+Tab, Control+a')).min(1, 'give at least one key, e.g. Enter or Control+a').max(100).describe('Keys pressed in order; a combination joins modifiers with + (Shift, Control, Alt, Meta, ControlOrMeta)'),
        tab: tabId().optional(),
      }),
      result: z.strictObject({
        tabId: z.number(),
        pressed: z.array(z.string()).describe('The combinations pressed, in canonical spelling'),
        dialog: dialogOpened(),
      }),
    }),
  }),
  type: toolEntry({
    description:
      'Type text into the focused editable element: a trusted key press per character a US keyboard has (keydown, beforeinput, input, keyup), Input.insertText for the rest; works with contenteditable and beforeinput-based editors. Nothing editable focused is element_not_found.',
    mutates: true,
    mcp: { group: 'core', description: 'Type text as key presses into the focused element, or into ref after focusing it (rich editors); fill suits plain fields.' },
    input: true,
    cli: {
      command: 'type',
      summary: 'Type text into the focused field as trusted key events (contenteditable and rich editors included).',
      task: 'keyboard',
      output: 'action',
      args: [{ param: 'text', help: 'text to type (a newline presses Enter)' }],
      flags: [{ flag: '-s, --target', param: 'ref', help: 'focus this element first: a ref like @e7 (typing needs a ref: a CSS selector is not taken here)' }],
      examples: ['chrome-relay type "hello" -s @e7', 'chrome-relay type "Ünïcode ✓" --tab 123'],
    },
    schemas: () => ({
      params: z.strictObject({
        text: z.string().min(1, 'give the text to type (use `chrome-relay keys` for Enter, Tab and shortcuts)').max(100_000).describe('Text to type; characters without a key on a US keyboard are inserted as text input'),
        ref: RefField().optional().describe('Focus this element first'),
        tab: tabId().optional(),
      }),
      result: z.strictObject({
        tabId: z.number(),
        typed: z.number().describe('Characters typed'),
        into: z.string().describe('The focused element that received the text, e.g. input#email[type=email]'),
        dialog: dialogOpened(),
      }),
    }),
  }),
  back: toolEntry({
    description: "Go back one entry in the tab's history and wait for that document.",
    mutates: true,
    mcp: { group: 'core', description: "Go back one entry in the tab's history and wait for that page." },
    cli: historyCli('back', "Go back in the tab's history and wait for that page."),
    schemas: () => ({ params: historyParams(), result: historyResult() }),
  }),
  forward: toolEntry({
    description: "Go forward one entry in the tab's history and wait for that document.",
    mutates: true,
    mcp: { group: 'extra', description: "Go forward one entry in the tab's history and wait for that page." },
    cli: historyCli('forward', "Go forward in the tab's history and wait for that page."),
    schemas: () => ({ params: historyParams(), result: historyResult() }),
  }),
  reload: toolEntry({
    description: 'Reload the tab and wait for the new document.',
    mutates: true,
    mcp: { group: 'extra', description: 'Reload the tab and wait for the new document.' },
    cli: historyCli('reload', 'Reload the tab and wait for the new document.'),
    schemas: () => ({ params: historyParams(), result: historyResult() }),
  }),
  close: toolEntry({
    description: 'Close tabs, all or none: if any id does not exist, or another agent leases one, nothing is closed. Without ids, closes the tab chrome-relay last used (target_not_found when that one is gone).',
    mutates: true,
    destructive: true,
    tabUse: 'close',
    dialog: 'self',
    mcp: { group: 'core', description: 'Close tabs by id, all or none; without ids, the tab last used.' },
    cli: {
      command: 'close',
      summary: 'Close tabs, all or none (a missing id closes nothing). Without ids: --tab, else the tab chrome-relay last used.',
      task: 'navigate',
      args: [{ param: 'tabs', help: 'tab ids from `chrome-relay tabs`' }],
      examples: ['chrome-relay close', 'chrome-relay close 123 456', 'chrome-relay --tab 123 close'],
    },
    schemas: () => ({
      params: z.strictObject({
        tabs: z.array(z.number().int().positive()).min(1).max(500).optional().describe('Tab ids to close (from `chrome-relay tabs`)'),
      }),
      result: z.strictObject({ closed: z.array(z.number()) }),
    }),
  }),
  wait: toolEntry({
    agentCode: 'fn',
    description:
      'Wait for one condition in the tab: text, URL glob, load, network idle, a JS expression, a visible selector, or a download. On timeout: `timeout` with details {url, readyState, targetExists?}; a dialog opening meanwhile: target_conflict.',
    mutates: false,
    mcp: { group: 'core', description: 'Wait for one condition: text, URL glob, load, network idle, a JS expression, a visible CSS selector, or a download.' },
    cli: {
      command: 'wait',
      summary: 'Wait for one condition in the tab for up to --timeout ms (default 30000); fails with `timeout` (and the page state) when it runs out.',
      task: 'page',
      output: 'download',
      budget: 'timeoutMs',
      flags: [{ flag: '--networkidle', param: 'networkIdle', help: 'no network request for 500 ms' }],
      examples: [
        'chrome-relay wait --text "Order placed"',
        'chrome-relay wait --url "**/checkout/done" --timeout 60000',
        'chrome-relay wait --selector "#results li" --snapshot',
        'chrome-relay wait --text "Paid" --frame @e12',
        'chrome-relay wait --download',
      ],
    },
    schemas: () => ({
      params: waitParams(),
      result: z.strictObject({
        tabId: z.number(),
        condition: z.enum(WAIT_CONDITIONS),
        elapsedMs: z.number(),
        url: z.string().describe('Tab URL when the condition was met'),
        download: DownloadInfoSchema().optional(),
      }),
    }),
  }),
  get: toolEntry({
    description: 'Read one value without a snapshot: the tab title or URL, the whole text, value or an attribute of a ref or CSS selector (exactly as the page holds it, never cut), or the match count of a selector.',
    mutates: false,
    mcp: { group: 'core', description: "Read one value without a snapshot: the tab's title or url, or the text, value, attribute or match count of a CSS selector." },
    cli: {
      command: 'get',
      summary: 'Read one value without a snapshot: title, url, or the whole text/value/attr of a ref or CSS selector, or a count.',
      task: 'read',
      args: [{ param: 'what' }, { param: 'ref', optional: true, parse: 'refIfGiven', help: 'element ref from snapshot, e.g. @e12' }, { param: 'name', label: 'attribute', help: 'attribute name, for get attr' }],
      flags: [{ flag: '-s, --selector', param: 'ref', parse: 'refOrSelector', otherwise: 'selector', placeholder: '<ref|css>', help: 'the element: a ref (@e12) or a CSS selector' }],
      examples: ['chrome-relay get title', 'chrome-relay get text @e12', 'chrome-relay get text -s @e12', 'chrome-relay get attr @e12 href', 'chrome-relay get value @e14', 'chrome-relay get text -s "h1"', 'chrome-relay get attr href -s "a.next"', 'chrome-relay get count -s ".result"', 'chrome-relay get value -s "#card" --frame @e12'],
    },
    schemas: () => ({
      params: getParams(),
      result: z.strictObject({
        tabId: z.number(),
        what: z.enum(GET_WHAT),
        value: z.union([z.string(), z.number(), z.null()]).describe('null only for an attribute the element does not have'),
      }),
    }),
  }),
  js: toolEntry({
    description:
      "Evaluate JavaScript in the page's main world (top-level await allowed; a returned promise is awaited) and return its value as JSON. Code that does not compile is invalid_arguments and never runs. Once it has run: a page exception or rejected promise is cdp_error (retryable false, details.exception); a value JSON cannot carry without loss (DOM node, function, Map, NaN, a cycle) is invalid_arguments on the expression with details.mayHaveActed (it ran; retryable false), naming what to return instead; a promise still pending when the call must answer is timeout, reason promise_pending.",
    mutates: true,
    agentCode: 'expression',
    mcp: { group: 'devtools', description: "Evaluate JavaScript in the page's main world (await allowed) and return its value as JSON." },
    cli: {
      command: 'js',
      summary: "Evaluate JavaScript in the page's main world (await allowed) and print the value as JSON.",
      task: 'page',
      args: [{ param: 'expression' }],
      examples: ['chrome-relay js "document.title"', "chrome-relay js \"[...document.querySelectorAll('a')].map(a => a.href)\"", "chrome-relay js \"await fetch('/api/me').then(r => r.json())\"", 'chrome-relay js "location.href" --frame @e12'],
    },
    schemas: () => ({
      params: z.strictObject({
        expression: z.string().min(1).max(1_000_000).describe('JavaScript to evaluate; the value of the last expression is returned'),
        frame: frameRef().optional(),
        tab: tabId().optional(),
      }),
      result: z.strictObject({
        tabId: z.number(),
        value: z.json().optional().describe('The result as JSON; absent when it is undefined or when a dialog interrupted the evaluation'),
        dialog: dialogOpened(),
      }),
    }),
  }),
  dialog: toolEntry({
    description: 'Accept or dismiss the JavaScript dialog (alert, confirm, prompt, beforeunload) open in the tab.',
    mutates: true,
    dialog: 'self',
    mcp: { group: 'core', description: 'Accept or dismiss the alert, confirm, prompt or beforeunload dialog open in the tab.' },
    cli: {
      command: 'dialog',
      summary: 'Accept or dismiss the alert/confirm/prompt/beforeunload dialog open in the tab.',
      task: 'page',
      output: 'action',
      args: [{ param: 'action' }],
      examples: ['chrome-relay dialog accept', 'chrome-relay dialog accept --text "Ada"', 'chrome-relay dialog dismiss --tab 123'],
    },
    schemas: () => ({
      params: z.strictObject({
        action: z.enum(['accept', 'dismiss']).describe('accept or dismiss'),
        text: z.string().optional().describe('Text to enter into a prompt before accepting'),
        tab: tabId().optional(),
      }),
      result: z.strictObject({
        tabId: z.number(),
        action: z.enum(['accept', 'dismiss']),
        dialog: DialogInfoSchema().nullable().describe('The dialog that was answered (null if it opened before chrome-relay watched the tab)'),
      }),
    }),
  }),
  download: toolEntry({
    description: "Arm the tab's downloads: `wait --download` then reports each completed file, moved into --dir.",
    mutates: true,
    mcp: { group: 'extra', description: "Arm the tab's downloads: wait with download then reports each completed file, moved into dir." },
    cli: {
      command: 'download',
      summary: "Arm the tab's downloads: `wait --download` then moves each finished file into --dir and prints its path.",
      task: 'page',
      flags: [{ flag: '--dir', param: 'dir', parse: 'dir', placeholder: '<dir>', help: 'existing directory for the downloaded files' }],
      examples: ['chrome-relay download --dir ./downloads', 'chrome-relay download --dir /tmp --tab 123'],
    },
    schemas: () => ({
      params: z.strictObject({
        dir: z
          .string()
          .min(1)
          .refine((dir) => dir.startsWith('/'), 'must be an absolute directory path')
          .describe('Absolute directory completed downloads are moved into'),
        tab: tabId().optional(),
      }),
      result: z.strictObject({ tabId: z.number(), dir: z.string(), armed: z.literal(true) }),
    }),
  }),
} as const;
