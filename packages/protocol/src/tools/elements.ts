/**
 * Entries of the element-addressed actions: fill, focus, hover, dblclick, select, check, uncheck,
 * scroll, drag, upload. Same shape as the TOOLS entries they are spread into (tools.ts).
 *
 * Every one takes a ref from a snapshot; a ref carries its tab, so `tab` is only a cross-check
 * (a contradiction is target_conflict). `healed` says the ref's element had been re-rendered and
 * was re-found by identity (role + name + context) before acting.
 */
import * as z from 'zod';
import { lazy } from '../lazy.js';
import { HealedField, RefField, TabIdField } from '../fields.js';
import type { CliShape } from '../cliShape.js';
import { toolEntry } from '../toolSpec.js';

const tabId = TabIdField;
const ref = RefField;
const healed = HealedField;

const refParams = lazy(() => z.strictObject({ ref: ref(), tab: tabId().optional() }));

/** The common shape: `<name> <ref>`. */
const refCli = (command: 'focus' | 'hover' | 'dblclick' | 'check' | 'uncheck', summary: string, example: string): CliShape => ({
  command,
  summary,
  task: 'act',
  output: 'action',
  args: [{ param: 'ref', help: 'element ref from snapshot, e.g. @e12' }],
  examples: [example],
});

export const SCROLL_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

export const ELEMENT_TOOLS = {
  fill: toolEntry({
    description:
      'Replace the value of an input, textarea, contenteditable or <select> (by option value or visible text). Text is typed with trusted input so frameworks (React…) see it; no hit-test (a covered field can still be filled).',
    mutates: true,
    mcp: { group: 'core', description: 'Replace the value of an input, textarea, contenteditable or select ("" clears it).' },
    input: true,
    cli: {
      command: 'fill',
      summary: 'Replace the value of an input, textarea, contenteditable or <select> (works even when the field is covered).',
      task: 'act',
      output: 'action',
      args: [{ param: 'ref', help: 'element ref from snapshot, e.g. @e12' }, { param: 'value', help: 'the new value ("" clears it); for a <select>, an option value or its visible text' }],
      examples: ['chrome-relay fill @e4 "ada@example.com"', 'chrome-relay fill @e9 "Germany"', 'chrome-relay fill @e4 ""'],
    },
    schemas: () => ({
      params: z.strictObject({
        ref: ref(),
        value: z.string().describe('The new value ("" clears the field)'),
        tab: tabId().optional(),
      }),
      result: z.strictObject({
        tabId: z.number(),
        ref: z.string(),
        value: z.string().describe('What the element holds afterwards (verified: the request, or with formatted the request as the page formats it; a contenteditable\'s text line for line, as `get value` reads it); a password or one-time code shows as ••••••'),
        formatted: z
          .literal(true)
          .optional()
          .describe('The page formatted the value as it was typed (an input mask: `12/34` held as `12 / 34`): the same letters and digits in the same order, only separators and spacing differ'),
        healed: healed(),
      }),
    }),
  }),
  focus: toolEntry({
    description: 'Give an element keyboard focus (e.g. before `keys` or `type`).',
    mutates: true,
    mcp: { group: 'extra', description: 'Give an element keyboard focus (then keys or type).' },
    input: true,
    cli: refCli('focus', 'Give an element keyboard focus (then use `keys` or `type`).', 'chrome-relay focus @e4'),
    schemas: () => ({ params: refParams(), result: z.strictObject({ tabId: z.number(), ref: z.string(), healed: healed() }) }),
  }),
  hover: toolEntry({
    description: 'Move the mouse over an element (scroll into view, refuse if covered, trusted mouse move).',
    mutates: true,
    mcp: { group: 'core', description: 'Move the mouse over an element (menus, tooltips); fails if something covers it.' },
    input: true,
    cli: refCli('hover', 'Move the mouse over an element (refuses if something covers it).', 'chrome-relay hover @e7 --snapshot'),
    schemas: () => ({ params: refParams(), result: z.strictObject({ tabId: z.number(), ref: z.string(), x: z.number(), y: z.number(), healed: healed() }) }),
  }),
  dblclick: toolEntry({
    description:
      'Double-click an element: two trusted clicks at a point proven to reach it (scrolled into view, hit-tested; a covered element is refused), each press and release verified to reach it, as click does.',
    mutates: true,
    mcp: { group: 'extra', description: 'Double-click an element (edit a cell, open an item); fails if something covers it.' },
    input: true,
    cli: refCli('dblclick', 'Double-click an element (refuses if something covers it).', 'chrome-relay dblclick @e7'),
    schemas: () => ({ params: refParams(), result: z.strictObject({ tabId: z.number(), ref: z.string(), x: z.number(), y: z.number(), healed: healed() }) }),
  }),
  select: toolEntry({
    description: 'Select options of a <select> by value or visible text (several only for <select multiple>); fires input and change.',
    mutates: true,
    mcp: { group: 'core', description: 'Choose options of a <select> by value or visible text.' },
    cli: {
      command: 'select',
      summary: 'Select options of a <select> by value or visible text (several only for <select multiple>).',
      task: 'act',
      output: 'action',
      args: [{ param: 'ref', help: 'the <select> ref from snapshot' }, { param: 'values', label: 'options', help: 'option values or visible texts' }],
      examples: ['chrome-relay select @e9 "Germany"', 'chrome-relay select @e10 red blue'],
    },
    schemas: () => ({
      params: z.strictObject({
        ref: ref(),
        values: z.array(z.string()).min(1).describe('Option values or visible texts'),
        tab: tabId().optional(),
      }),
      result: z.strictObject({
        tabId: z.number(),
        ref: z.string(),
        selected: z.array(z.string()).describe('Values of the options selected afterwards'),
        healed: healed(),
      }),
    }),
  }),
  check: toolEntry({
    description: 'Make a checkbox, radio or switch checked: click it only if needed, then verify the new state.',
    mutates: true,
    mcp: { group: 'core', description: 'Make a checkbox, radio or switch checked; clicks only if needed, then verifies.' },
    input: true,
    cli: refCli('check', 'Check a checkbox, radio or switch; clicks only if needed and verifies the result.', 'chrome-relay check @e5'),
    schemas: () => ({
      params: refParams(),
      result: z.strictObject({
        tabId: z.number(),
        ref: z.string(),
        checked: z.boolean(),
        changed: z.boolean().describe('false when it already was in the requested state (nothing was clicked)'),
        healed: healed(),
      }),
    }),
  }),
  uncheck: toolEntry({
    description: 'Make a checkbox or switch unchecked: click it only if needed, then verify the new state.',
    mutates: true,
    mcp: { group: 'core', description: 'Make a checkbox or switch unchecked; clicks only if needed, then verifies.' },
    input: true,
    cli: refCli('uncheck', 'Uncheck a checkbox or switch; clicks only if needed and verifies the result.', 'chrome-relay uncheck @e5'),
    schemas: () => ({
      params: refParams(),
      result: z.strictObject({
        tabId: z.number(),
        ref: z.string(),
        checked: z.boolean(),
        changed: z.boolean().describe('false when it already was in the requested state (nothing was clicked)'),
        healed: healed(),
      }),
    }),
  }),
  scroll: toolEntry({
    description:
      'Scroll the page, or the scroll container of a ref, in a direction (default: most of a screen), or bring a ref into view (intoView). When the page cannot move that way, the biggest scroller on screen that can is scrolled, and named in the result.',
    mutates: true,
    mcp: { group: 'core', description: 'Scroll the page, or the container of ref, in a direction; or bring ref into view (intoView).' },
    cli: {
      command: 'scroll',
      summary: 'Scroll the page (or the container of --in @ref) up/down/left/right, or bring a ref into view.',
      task: 'act',
      output: 'action',
      args: [{ param: 'direction' }, { param: 'amount' }],
      flags: [
        { flag: '--in', param: 'ref', help: 'scroll the scroll container this element is in instead of the page' },
        { flag: '--into-view', param: 'ref', also: { intoView: true }, help: 'scroll until this element is centred in view' },
      ],
      examples: ['chrome-relay scroll down', 'chrome-relay scroll down 300 --in @e12', 'chrome-relay scroll --into-view @e40'],
    },
    schemas: () => ({
      params: z
        .strictObject({
          direction: z.enum(SCROLL_DIRECTIONS).optional().describe('up, down, left or right'),
          amount: z.number().int().positive().max(100_000).optional().describe('CSS pixels (default 85% of the visible size)'),
          ref: ref().optional().describe('Scroll the container this element is in (with direction), or bring it into view (with intoView)'),
          intoView: z.literal(true).optional().describe('Scroll until the ref is centred in view'),
          tab: tabId().optional(),
        })
        .superRefine((params, ctx) => {
          if (params.intoView === true && params.direction !== undefined) ctx.addIssue({ code: 'custom', path: ['direction'], message: 'give either intoView (--into-view @ref) or a direction, not both' });
          if (params.intoView === undefined && params.direction === undefined) ctx.addIssue({ code: 'custom', path: ['direction'], message: 'give a direction (up, down, left, right) or intoView with a ref (--into-view @ref)' });
          if (params.intoView === true && params.ref === undefined) ctx.addIssue({ code: 'custom', path: ['ref'], message: 'intoView needs the ref to bring into view' });
        }),
      result: z.strictObject({
        tabId: z.number(),
        ref: z.string().optional(),
        container: z.enum(['page', 'element']).describe('What scrolled'),
        scroller: z
          .strictObject({ tag: z.string(), id: z.string(), className: z.string(), name: z.string(), ref: z.string().optional() })
          .optional()
          .describe('The element that scrolled, when not the page or the ref itself (with no ref given: the biggest scroller on screen, as the page could not move)'),
        before: z.strictObject({ x: z.number(), y: z.number() }).optional(),
        after: z.strictObject({ x: z.number(), y: z.number() }).optional(),
        moved: z.boolean().describe('false when it was already at the edge (or already in view)'),
        healed: healed(),
      }),
    }),
  }),
  drag: toolEntry({
    description:
      'Drag one element onto another with trusted mouse press, moves and release (HTML5 drag and drop included). The drop target is a ref, or where no ref fits, the first visible element matching a CSS selector (hit-tested like a ref), or a point of the viewport.',
    mutates: true,
    mcp: { group: 'core', description: 'Drag an element onto a ref, the first visible match of a CSS selector, or a viewport point.' },
    input: true,
    cli: {
      command: 'drag',
      summary: 'Drag one element onto another with trusted mouse events (HTML5 drag and drop included); the target may also be a CSS selector or a viewport point.',
      task: 'act',
      output: 'action',
      args: [{ param: 'from', help: 'ref of the element to drag' }, { param: 'to', help: 'ref of the element to drop on' }],
      examples: ['chrome-relay drag @e3 @e8', 'chrome-relay drag @e3 --to-selector "#trash"', 'chrome-relay drag @e3 --to-x 640 --to-y 300'],
    },
    schemas: () => ({
      params: z
        .strictObject({
          from: ref().describe('Element to drag'),
          to: ref().optional().describe('Element to drop on'),
          toSelector: z.string().min(1).optional().describe("Drop on the first visible element matching this CSS selector (in the dragged element's page; open shadow roots searched)"),
          toX: z.number().nonnegative().optional().describe('Drop at this viewport x in CSS pixels (with toY)'),
          toY: z.number().nonnegative().optional().describe('Drop at this viewport y in CSS pixels (with toX)'),
          tab: tabId().optional(),
        })
        .superRefine((params, ctx) => {
          const point = params.toX !== undefined || params.toY !== undefined;
          const given = [params.to !== undefined, params.toSelector !== undefined, point].filter(Boolean).length;
          if (given !== 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'give one drop target: a ref, a CSS selector (toSelector), or toX and toY' });
          else if (point && (params.toX === undefined || params.toY === undefined)) {
            ctx.addIssue({ code: 'custom', path: [params.toX === undefined ? 'toX' : 'toY'], message: 'toX and toY go together' });
          }
        }),
      result: z.strictObject({
        tabId: z.number(),
        from: z.strictObject({ ref: z.string(), x: z.number(), y: z.number() }),
        to: z.strictObject({ ref: z.string().optional(), selector: z.string().optional(), x: z.number(), y: z.number() }),
        healed: healed(),
      }),
    }),
  }),
  upload: toolEntry({
    description:
      'Set files on an <input type=file> (hidden inputs too) without a file dialog; with via, click the ref (a button that opens a file chooser) and answer the chooser instead.',
    mutates: true,
    mcp: { group: 'core', description: 'Set files (absolute paths) on a file input; with via, click a button that opens a file chooser and answer it.' },
    input: true,
    cli: {
      command: 'upload',
      summary: 'Set files on an <input type=file> (hidden ones too) without a dialog; --via clicks a button that opens a file chooser and answers it.',
      task: 'act',
      output: 'action',
      args: [{ param: 'ref', optional: true, help: 'the file input ref (not with --via)' }, { param: 'files', parse: 'files', help: 'files to set' }],
      flags: [{ flag: '--via', param: 'ref', also: { via: true }, help: 'a button that opens a file chooser when clicked' }],
      examples: ['chrome-relay upload @e7 ./photo.png', 'chrome-relay upload --via @e8 a.pdf b.pdf'],
    },
    schemas: () => ({
      params: z.strictObject({
        ref: ref(),
        files: z.array(z.string().min(1)).min(1).describe('Absolute paths of existing files'),
        via: z.literal(true).optional().describe('The ref is a button that opens a file chooser when clicked'),
        tab: tabId().optional(),
      }),
      result: z.strictObject({
        tabId: z.number(),
        ref: z.string(),
        files: z.array(z.string()),
        via: z.enum(['input', 'chooser']),
        healed: healed(),
      }),
    }),
  }),
  get_box: toolEntry({
    description:
      "Where an element is: its box in CSS pixels of its frame's viewport (the tab's viewport unless it sits in an iframe), after scrolling it into view. For coordinates to click (`click --x --y`) or to check layout without a screenshot.",
    mutates: false,
    mcp: { group: 'devtools', description: "An element's box (x, y, width, height in CSS px) after scrolling it into view." },
    cli: {
      command: 'get box',
      summary: 'Print the box (x, y, width, height in CSS px) of an element by ref, scrolled into view.',
      task: 'read',
      args: [{ param: 'ref', help: 'element ref from snapshot, e.g. @e12' }],
      examples: ['chrome-relay get box @e12'],
    },
    schemas: () => ({
      params: refParams(),
      result: z.strictObject({
        tabId: z.number(),
        ref: z.string(),
        x: z.number().describe('Left edge, CSS px from the left of the viewport'),
        y: z.number().describe('Top edge, CSS px from the top of the viewport'),
        width: z.number(),
        height: z.number(),
        healed: healed(),
      }),
    }),
  }),
  get_style: toolEntry({
    description:
      "How an element is drawn: the computed value of one or more CSS properties (getComputedStyle, what the browser applies after every stylesheet, inline style and inheritance). To check that something is hidden, disabled-looking, the right colour or size, without a screenshot. A value longer than 4,096 characters is cut, and the property named in `truncated`.",
    mutates: false,
    mcp: { group: 'devtools', description: "Computed CSS values of an element by ref (e.g. display, color, font-size)." },
    cli: {
      command: 'get style',
      summary: 'Print computed CSS values of an element by ref (getComputedStyle).',
      task: 'read',
      args: [
        { param: 'ref', help: 'element ref from snapshot, e.g. @e12' },
        { param: 'properties', help: 'CSS property names, e.g. display color font-size (custom properties after --: -- --brand)' },
      ],
      examples: ['chrome-relay get style @e12 display color', 'chrome-relay get style @e4 background-color --json'],
    },
    schemas: () => ({
      params: z.strictObject({
        ref: ref(),
        properties: z
          .array(z.string().regex(/^-{0,2}[a-zA-Z][a-zA-Z0-9-]*$/, 'a CSS property name, e.g. display, color, font-size or --my-var'))
          .min(1, 'give at least one CSS property, e.g. display')
          .max(50)
          .describe('CSS property names (custom properties too, e.g. --brand)'),
        tab: tabId().optional(),
      }),
      result: z.strictObject({
        tabId: z.number(),
        ref: z.string(),
        style: z.record(z.string(), z.string()).describe('Each property asked for → its computed value ("" for a property the browser does not know)'),
        truncated: z.array(z.string()).optional().describe('Properties whose value was cut at 4,096 characters'),
        healed: healed(),
      }),
    }),
  }),
} as const;
