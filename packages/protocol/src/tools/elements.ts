/**
 * Wire shapes of the element-addressed actions: fill, focus, hover, select, check, uncheck,
 * scroll, drag, upload. Same shape as the TOOLS entries they are spread into (tools.ts).
 *
 * Every one takes a ref from a snapshot; a ref carries its tab, so `tab` is only a cross-check
 * (a contradiction is target_conflict). `healed` says the ref's element had been re-rendered and
 * was re-found by identity (role + name + context) before acting.
 *
 * This module cannot import from tools.ts (tools.ts imports it), so the shared field schemas are
 * declared again here, identically.
 */
import * as z from 'zod';
import { lazyTool } from '../toolSpec.js';

const tabId = z.number().int().positive().describe('Tab id (from `chrome-relay tabs`); only a cross-check for a ref, which carries its tab');
const ref = z.string().regex(/^e[1-9][0-9]*$/, 'must be a ref like e12 (written @e12 on the command line)').describe('Element ref from a snapshot');
const healed = z.boolean().describe('The element had been re-rendered and was re-found by identity before acting');

const refParams = z.strictObject({ ref, tab: tabId.optional() });

export const SCROLL_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

export const ELEMENT_TOOLS = {
  fill: lazyTool(() => ({
    description:
      'Replace the value of an input, textarea, contenteditable or <select> (by option value or visible text). Text is typed with trusted input so frameworks (React…) see it; no hit-test (a covered field can still be filled).',
    mutates: true,
    params: z.strictObject({
      ref,
      value: z.string().describe('The new value ("" clears the field)'),
      tab: tabId.optional(),
    }),
    result: z.strictObject({
      tabId: z.number(),
      ref: z.string(),
      value: z.string().describe('What the element holds afterwards (verified equal to the request)'),
      healed,
    }),
  })),
  focus: lazyTool(() => ({
    description: 'Give an element keyboard focus (e.g. before `keys` or `type`).',
    mutates: true,
    params: refParams,
    result: z.strictObject({ tabId: z.number(), ref: z.string(), healed }),
  })),
  hover: lazyTool(() => ({
    description: 'Move the mouse over an element (scroll into view, refuse if covered, trusted mouse move).',
    mutates: true,
    params: refParams,
    result: z.strictObject({ tabId: z.number(), ref: z.string(), x: z.number(), y: z.number(), healed }),
  })),
  select: lazyTool(() => ({
    description: 'Select options of a <select> by value or visible text (several only for <select multiple>); fires input and change.',
    mutates: true,
    params: z.strictObject({
      ref,
      values: z.array(z.string()).min(1).describe('Option values or visible texts'),
      tab: tabId.optional(),
    }),
    result: z.strictObject({
      tabId: z.number(),
      ref: z.string(),
      selected: z.array(z.string()).describe('Values of the options selected afterwards'),
      healed,
    }),
  })),
  check: lazyTool(() => ({
    description: 'Make a checkbox, radio or switch checked: click it only if needed, then verify the new state.',
    mutates: true,
    params: refParams,
    result: z.strictObject({
      tabId: z.number(),
      ref: z.string(),
      checked: z.boolean(),
      changed: z.boolean().describe('false when it already was in the requested state (nothing was clicked)'),
      healed,
    }),
  })),
  uncheck: lazyTool(() => ({
    description: 'Make a checkbox or switch unchecked: click it only if needed, then verify the new state.',
    mutates: true,
    params: refParams,
    result: z.strictObject({
      tabId: z.number(),
      ref: z.string(),
      checked: z.boolean(),
      changed: z.boolean().describe('false when it already was in the requested state (nothing was clicked)'),
      healed,
    }),
  })),
  scroll: lazyTool(() => ({
    description:
      'Scroll the page, or the scroll container of a ref, in a direction (default: most of a screen), or bring a ref into view (intoView).',
    mutates: true,
    params: z.strictObject({
      direction: z.enum(SCROLL_DIRECTIONS).optional().describe('up, down, left or right'),
      amount: z.number().int().positive().max(100_000).optional().describe('CSS pixels (default 85% of the visible size)'),
      ref: ref.optional().describe('Scroll the container this element is in (with direction), or bring it into view (with intoView)'),
      intoView: z.literal(true).optional().describe('Scroll until the ref is centred in view'),
      tab: tabId.optional(),
    }),
    result: z.strictObject({
      tabId: z.number(),
      ref: z.string().optional(),
      container: z.enum(['page', 'element']).describe('What scrolled'),
      before: z.strictObject({ x: z.number(), y: z.number() }).optional(),
      after: z.strictObject({ x: z.number(), y: z.number() }).optional(),
      moved: z.boolean().describe('false when it was already at the edge (or already in view)'),
      healed,
    }),
  })),
  drag: lazyTool(() => ({
    description:
      'Drag one element onto another with trusted mouse press, moves and release (HTML5 drag and drop included). The drop target is a ref, or where no ref fits, the first visible element matching a CSS selector (hit-tested like a ref), or a point of the viewport.',
    mutates: true,
    params: z
      .strictObject({
        from: ref.describe('Element to drag'),
        to: ref.optional().describe('Element to drop on'),
        toSelector: z.string().min(1).optional().describe('Drop on the first visible element matching this CSS selector (in the dragged element\'s page; open shadow roots searched)'),
        toX: z.number().nonnegative().optional().describe('Drop at this viewport x in CSS pixels (with toY)'),
        toY: z.number().nonnegative().optional().describe('Drop at this viewport y in CSS pixels (with toX)'),
        tab: tabId.optional(),
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
      healed,
    }),
  })),
  upload: lazyTool(() => ({
    description:
      'Set files on an <input type=file> (hidden inputs too) without a file dialog; with via, click the ref (a button that opens a file chooser) and answer the chooser instead.',
    mutates: true,
    params: z.strictObject({
      ref,
      files: z.array(z.string().min(1)).min(1).describe('Absolute paths of existing files'),
      via: z.literal(true).optional().describe('The ref is a button that opens a file chooser when clicked'),
      tab: tabId.optional(),
    }),
    result: z.strictObject({
      tabId: z.number(),
      ref: z.string(),
      files: z.array(z.string()),
      via: z.enum(['input', 'chooser']),
      healed,
    }),
  })),
} as const;
