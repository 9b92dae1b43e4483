/**
 * One node of the compact accessibility snapshot, and its validator.
 *
 * The tree of a large page has tens of thousands of nodes and crosses two process edges (worker → host → CLI).
 * A recursive zod schema checked it at both edges at a cost comparable to building it; this iterative check
 * enforces the same contract (known keys only, field types, `checked` values, refs like e12) in one tight loop.
 */
import { isWireRef } from './refs.js';

export interface SnapshotNode {
  role: string;
  name?: string | undefined;
  ref?: string | undefined;
  value?: string | undefined;
  url?: string | undefined;
  level?: number | undefined;
  checked?: 'true' | 'false' | 'mixed' | undefined;
  disabled?: boolean | undefined;
  expanded?: boolean | undefined;
  selected?: boolean | undefined;
  /** aria-pressed of a toggle button ('false' = a toggle that is off). */
  pressed?: 'true' | 'false' | 'mixed' | undefined;
  required?: boolean | undefined;
  /** Keyboard focus is here (the deepest focused element of its document). */
  focused?: boolean | undefined;
  /** A text field that takes several lines (a textarea). */
  multiline?: boolean | undefined;
  /** A rich-text editing host (contenteditable). */
  richtext?: boolean | undefined;
  /** A field the page does not let anyone edit (`fill` refuses it). */
  readonly?: boolean | undefined;
  /** The name is not Chrome's (empty) but inferred: from the icon it shows, its tooltip, or the label next to it. */
  nameFrom?: 'icon' | 'tooltip' | 'label' | undefined;
  /** What the image the element draws through CSS shows (its file name's words): state such as a board's "x". */
  img?: string | undefined;
  /** Past the edge the page can scroll to: in the page, but no pointer reaches it (fill, select and keys do). */
  offscreen?: boolean | undefined;
  /** The bounds a slider or spin button moves between (a native range input's, or aria-valuemin/max). */
  min?: number | undefined;
  max?: number | undefined;
  /** The name (text) was cut: its whole length; `get text @ref` or `snapshot --max-text` reads it all. */
  nameLength?: number | undefined;
  /** The value was cut: its whole length; `get value @ref` reads it all. */
  valueLength?: number | undefined;
  /**
   * An <iframe> showing a site the person blocked for agents: the rule of their block list it falls under. Nothing
   * inside it is read, shown or given a ref; the iframe's own ref fails `site_blocked`.
   */
  siteBlocked?: string | undefined;
  children?: SnapshotNode[] | undefined;
}
type FieldCheck = (value: unknown) => boolean;
const isString: FieldCheck = (v) => typeof v === 'string';
const isBoolean: FieldCheck = (v) => typeof v === 'boolean';
const isFiniteNumber: FieldCheck = (v) => typeof v === 'number' && Number.isFinite(v);

const FIELDS: Readonly<Record<string, FieldCheck>> = {
  role: isString,
  name: isString,
  ref: isWireRef,
  value: isString,
  url: isString,
  level: isFiniteNumber,
  checked: (v) => v === 'true' || v === 'false' || v === 'mixed',
  disabled: isBoolean,
  expanded: isBoolean,
  selected: isBoolean,
  pressed: (v) => v === 'true' || v === 'false' || v === 'mixed',
  required: isBoolean,
  focused: isBoolean,
  multiline: isBoolean,
  richtext: isBoolean,
  readonly: isBoolean,
  nameFrom: (v) => v === 'icon' || v === 'tooltip' || v === 'label',
  img: isString,
  offscreen: isBoolean,
  min: isFiniteNumber,
  max: isFiniteNumber,
  nameLength: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
  valueLength: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
  siteBlocked: isString,
  children: Array.isArray,
};

/** Null when `nodes` is a valid snapshot forest, else a message naming the first bad path. */
export function snapshotTreeProblem(nodes: unknown): string | null {
  if (!Array.isArray(nodes)) return 'tree: expected an array';
  const stack: { node: unknown; path: string }[] = nodes.map((node, i) => ({ node, path: `tree.${i}` }));
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === undefined) break;
    const { node, path } = item;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return `${path}: expected a node object`;
    const record = node as Record<string, unknown>;
    if (typeof record.role !== 'string') return `${path}.role: expected a string`;
    for (const key of Object.keys(record)) {
      const check = FIELDS[key];
      const value = record[key];
      if (check === undefined) return `${path}: unknown key "${key}"`;
      if (value !== undefined && !check(value)) return `${path}.${key}: invalid value`;
    }
    const children = record.children;
    if (Array.isArray(children)) children.forEach((child, i) => stack.push({ node: child, path: `${path}.children.${i}` }));
  }
  return null;
}
