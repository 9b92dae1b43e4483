/**
 * Wire shapes of the page actions that need no ref: keys, type, back/forward/reload, close, wait,
 * get, js, dialog, download. Same shape as the TOOLS entries they are spread into (tools.ts).
 *
 * This module cannot import from tools.ts (tools.ts imports it), so the few shared field schemas
 * are declared again here, identically.
 *
 * Seams for part B (ref-addressed actions): `type` and `wait` gain an optional `ref`, `get` a `ref`
 * alternative to `selector`; nothing here pretends to accept a ref today.
 */
import * as z from 'zod';
import { lazyTool } from '../toolSpec.js';

const tabId = z.number().int().positive().describe('Tab id (from `chrome-relay tabs`); default: the tab chrome-relay last used');
const frameRef = z
  .string()
  .regex(/^e[1-9][0-9]*$/, 'must be a ref like e12 (written @e12 on the command line)')
  .describe("Run inside this iframe: its ref from a snapshot (same-origin or cross-origin); the ref carries the tab");
const waitUntil = z.enum(['commit', 'domcontentloaded', 'load', 'none']);
const readinessTimeout = z.number().int().positive().max(120_000).describe('How long to wait for readiness before answering ready:false');

/** A JavaScript dialog (alert/confirm/prompt/beforeunload) as the page opened it. */
export const DialogInfoSchema = z.strictObject({
  type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
  message: z.string(),
  url: z.string(),
  defaultPrompt: z.string().optional(),
});
export type DialogInfo = z.infer<typeof DialogInfoSchema>;

const dialogOpened = DialogInfoSchema.optional().describe(
  'Set when the action opened a JavaScript dialog; the tab is blocked until `chrome-relay dialog accept|dismiss`',
);

const historyResult = z.strictObject({
  tabId: z.number(),
  url: z.string(),
  title: z.string(),
  ready: z.boolean(),
  dialog: dialogOpened,
});

const historyParams = z.strictObject({
  tab: tabId.optional(),
  wait: waitUntil.optional().describe('Readiness to wait for (default load)'),
  timeoutMs: readinessTimeout.optional(),
});

export const WAIT_CONDITIONS = ['text', 'url', 'load', 'networkIdle', 'fn', 'selector', 'download'] as const;
export type WaitCondition = (typeof WAIT_CONDITIONS)[number];

export const DownloadInfoSchema = z.strictObject({
  path: z.string().describe('Absolute path of the completed file, as the browser saved it'),
  url: z.string(),
  suggestedFilename: z.string(),
  bytes: z.number(),
  dir: z.string().nullable().describe('Directory armed with `download --dir` (the CLI moves the file there), or null'),
});
export type DownloadInfo = z.infer<typeof DownloadInfoSchema>;

export const GET_WHAT = ['title', 'url', 'text', 'value', 'attr', 'count'] as const;
export type GetWhat = (typeof GET_WHAT)[number];

const waitParams = z
  .strictObject({
    text: z.string().min(1).optional().describe('Wait until the rendered page text (open shadow roots included) contains this, case-sensitive'),
    url: z.string().min(1).optional().describe('Wait until the tab URL matches this glob (`*` = anything but "/", `**` = anything)'),
    load: z.literal(true).optional().describe('Wait until the current document has fired load (readyState complete)'),
    networkIdle: z.literal(true).optional().describe('Wait until the tab made no network request for 500 ms'),
    fn: z.string().min(1).optional().describe('Wait until this JavaScript expression (page main world) is truthy'),
    selector: z.string().min(1).optional().describe('Wait until an element matching this CSS selector (searched in open shadow roots too) is visible'),
    download: z.literal(true).optional().describe('Wait for the next download of the tab to complete; returns its path'),
    frame: frameRef.optional(),
    tab: tabId.optional(),
    timeoutMs: z.number().int().positive().optional().describe('Give up after this long; the CLI sets the call deadline WAIT_REPORT_MS above it (a shorter call deadline cuts the wait)'),
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
  });

const getParams = z
  .strictObject({
    what: z.enum(GET_WHAT).describe('What to read: title, url (of the tab, or of --frame), or text, value, attr, count (of --selector)'),
    selector: z.string().min(1).optional().describe('CSS selector of the element, matched in open shadow roots too (required for text, value, attr, count)'),
    name: z.string().min(1).optional().describe('Attribute name (required for attr)'),
    frame: frameRef.optional(),
    tab: tabId.optional(),
  })
  .superRefine((params, ctx) => {
    const needsSelector = params.what !== 'title' && params.what !== 'url';
    if (needsSelector && params.selector === undefined) {
      ctx.addIssue({ code: 'custom', path: ['selector'], message: `get ${params.what} needs a CSS selector (--selector)` });
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
  });

export const ACTION_TOOLS = {
  keys: lazyTool(() => ({
    description: 'Press keys or key combinations in the tab, as trusted keyboard events (e.g. Enter, Shift+Tab, Control+a).',
    mutates: true,
    params: z.strictObject({
      keys: z.array(z.string().min(1)).min(1).max(100).describe('Keys pressed in order; a combination joins modifiers with + (Shift, Control, Alt, Meta, ControlOrMeta)'),
      tab: tabId.optional(),
    }),
    result: z.strictObject({
      tabId: z.number(),
      pressed: z.array(z.string()).describe('The combinations pressed, in canonical spelling'),
      dialog: dialogOpened,
    }),
  })),
  type: lazyTool(() => ({
    description:
      'Type text into the focused editable element: a trusted key press per character a US keyboard has (keydown, beforeinput, input, keyup), Input.insertText for the rest; works with contenteditable and beforeinput-based editors. Nothing editable focused is element_not_found.',
    mutates: true,
    params: z.strictObject({
      text: z.string().min(1).max(100_000).describe('Text to type; characters without a key on a US keyboard are inserted as text input'),
      ref: z.string().regex(/^e[1-9][0-9]*$/, 'must be a ref like e12 (written @e12 on the command line)').optional().describe('Focus this element first (-s @e12)'),
      tab: tabId.optional(),
    }),
    result: z.strictObject({
      tabId: z.number(),
      typed: z.number().describe('Characters typed'),
      into: z.string().describe('The focused element that received the text, e.g. input#email[type=email]'),
      dialog: dialogOpened,
    }),
  })),
  back: lazyTool(() => ({
    description: "Go back one entry in the tab's history and wait for that document.",
    mutates: true,
    params: historyParams,
    result: historyResult,
  })),
  forward: lazyTool(() => ({
    description: "Go forward one entry in the tab's history and wait for that document.",
    mutates: true,
    params: historyParams,
    result: historyResult,
  })),
  reload: lazyTool(() => ({
    description: 'Reload the tab and wait for the new document.',
    mutates: true,
    params: historyParams,
    result: historyResult,
  })),
  close: lazyTool(() => ({
    description: 'Close tabs, all or none: if any id does not exist, or another agent leases one, nothing is closed. Without ids, closes the tab chrome-relay last used (target_not_found when that one is gone).',
    mutates: true,
    params: z.strictObject({
      tabs: z.array(z.number().int().positive()).min(1).max(500).optional().describe('Tab ids to close (from `chrome-relay tabs`)'),
    }),
    result: z.strictObject({ closed: z.array(z.number()) }),
  })),
  wait: lazyTool(() => ({
    description:
      'Wait for one condition in the tab: text, URL glob, load, network idle, a JS expression, a visible selector, or a download. On timeout: `timeout` with details {url, readyState, targetExists?}; a dialog opening meanwhile: target_conflict.',
    mutates: false,
    params: waitParams,
    result: z.strictObject({
      tabId: z.number(),
      condition: z.enum(WAIT_CONDITIONS),
      elapsedMs: z.number(),
      url: z.string().describe('Tab URL when the condition was met'),
      download: DownloadInfoSchema.optional(),
    }),
  })),
  get: lazyTool(() => ({
    description: 'Read one small value without a snapshot: the tab title or URL, or the text, value, attribute or match count of a CSS selector.',
    mutates: false,
    params: getParams,
    result: z.strictObject({
      tabId: z.number(),
      what: z.enum(GET_WHAT),
      value: z.union([z.string(), z.number(), z.null()]).describe('null only for an attribute the element does not have'),
    }),
  })),
  js: lazyTool(() => ({
    description:
      "Evaluate JavaScript in the page's main world (top-level await allowed; a returned promise is awaited) and return its value as JSON. Code that does not compile is invalid_arguments and never runs. Once it has run: a page exception or rejected promise is cdp_error (retryable false, details.exception); a value JSON cannot carry without loss (DOM node, function, Map, NaN, a cycle) is partial_success_disallowed (retryable false) naming what to return instead.",
    mutates: true,
    params: z.strictObject({
      expression: z.string().min(1).max(1_000_000).describe('JavaScript to evaluate; the value of the last expression is returned'),
      frame: frameRef.optional(),
      tab: tabId.optional(),
    }),
    result: z.strictObject({
      tabId: z.number(),
      value: z.json().optional().describe('The result as JSON; absent when it is undefined or when a dialog interrupted the evaluation'),
      dialog: dialogOpened,
    }),
  })),
  dialog: lazyTool(() => ({
    description: 'Accept or dismiss the JavaScript dialog (alert, confirm, prompt, beforeunload) open in the tab.',
    mutates: true,
    params: z.strictObject({
      action: z.enum(['accept', 'dismiss']),
      text: z.string().optional().describe('Text to enter into a prompt before accepting'),
      tab: tabId.optional(),
    }),
    result: z.strictObject({
      tabId: z.number(),
      action: z.enum(['accept', 'dismiss']),
      dialog: DialogInfoSchema.nullable().describe('The dialog that was answered (null if it opened before chrome-relay watched the tab)'),
    }),
  })),
  download: lazyTool(() => ({
    description: "Arm the tab's downloads: `wait --download` then reports each completed file, moved into --dir.",
    mutates: true,
    params: z.strictObject({
      dir: z
        .string()
        .min(1)
        .refine((dir) => dir.startsWith('/'), 'must be an absolute directory path')
        .describe('Absolute directory the CLI moves completed downloads into'),
      tab: tabId.optional(),
    }),
    result: z.strictObject({ tabId: z.number(), dir: z.string(), armed: z.literal(true) }),
  })),
} as const;
