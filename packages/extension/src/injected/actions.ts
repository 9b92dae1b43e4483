/**
 * Page-side halves of the element actions (fill, select, check state, focus, scroll, file inputs).
 * Each takes an element the ref already resolved to and returns an outcome value; the worker turns
 * refusals into errors and does the trusted input (typing, mouse) itself.
 *
 * Why values are set from this isolated world and still reach frameworks: React (and others)
 * install a value "tracker" as an own `value` property on the element in the PAGE's world, and
 * only fire onChange when an input event finds the DOM value different from the tracker's. An
 * assignment from our world goes straight to the native setter (the page's own property is not
 * visible here), so the tracker keeps the old value and the next input event is seen as a change.
 * Text-like fields are not set at all: the worker types into them with trusted Input.insertText.
 *
 * Tag names rather than instanceof: an element of a same-origin frame belongs to another realm.
 */
import { normalizeText } from './dom.js';
import { textLines } from './text.js';
import type { ScrollDirection } from './types.js';

/** Input types that take typed text (selection + Input.insertText replaces their value). */
const TYPED_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '']);
/** Input types with a picker instead of typing: their value is set and input/change dispatched. */
const SET_INPUT_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

export type FillPlan =
  | { kind: 'typed' }
  | { kind: 'contenteditable' }
  | { kind: 'set' }
  | { kind: 'select' }
  | { kind: 'refused'; reason: string };

function describeTag(element: Element): string {
  const type = element.localName === 'input' ? `[type=${(element as HTMLInputElement).type}]` : '';
  return `<${element.localName}${type}>`;
}

/** How `fill` would put a value into this element, or why it cannot. */
export function planFill(element: Element): FillPlan {
  const tag = element.localName;
  if (tag === 'select') return { kind: 'select' };
  if (tag === 'input' || tag === 'textarea') {
    const field = element as HTMLInputElement | HTMLTextAreaElement;
    if (field.disabled) return { kind: 'refused', reason: `${describeTag(element)} is disabled` };
    if (field.readOnly) return { kind: 'refused', reason: `${describeTag(element)} is read-only` };
    if (tag === 'textarea') return { kind: 'typed' };
    const type = (element as HTMLInputElement).type;
    if (TYPED_INPUT_TYPES.has(type)) return { kind: 'typed' };
    if (SET_INPUT_TYPES.has(type)) return { kind: 'set' };
    if (type === 'checkbox' || type === 'radio') return { kind: 'refused', reason: `${describeTag(element)} has no text value; use \`chrome-relay check\` or \`uncheck\`` };
    if (type === 'file') return { kind: 'refused', reason: `${describeTag(element)} takes files; use \`chrome-relay upload\`` };
    return { kind: 'refused', reason: `${describeTag(element)} is a button, not a field; use \`chrome-relay click\`` };
  }
  if ((element as HTMLElement).isContentEditable === true) return { kind: 'contenteditable' };
  return { kind: 'refused', reason: `${describeTag(element)} is not an input, textarea, select or contenteditable element` };
}

/** The deepest focused element (through open shadow roots), in this element's document. */
function deepActive(element: Element): Element | null {
  let active = element.ownerDocument.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Focus the element; whether it (or something inside it) now has focus. */
export function focusElement(element: Element): boolean {
  (element as HTMLElement).focus({ preventScroll: true });
  const active = deepActive(element);
  return active !== null && (active === element || element.contains(active));
}

/**
 * Focus and select the whole current value, so the trusted text the worker inserts next replaces
 * it. Returns false when the element would not take focus.
 */
export function selectForTyping(element: Element, plan: 'typed' | 'contenteditable'): boolean {
  if (!focusElement(element)) return false;
  if (plan === 'typed') {
    (element as HTMLInputElement).select();
    return true;
  }
  const selection = element.ownerDocument.getSelection();
  if (selection === null) return false;
  const range = element.ownerDocument.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
}

/**
 * The value as fill reads it back: the field's value, or a contenteditable's text as the snapshot and `get value` read
 * it (text.ts: one line per block and per <br>, indentation kept where the editor keeps it).
 */
export function currentValue(element: Element): string {
  const tag = element.localName;
  if (tag === 'input' || tag === 'textarea' || tag === 'select') return (element as HTMLInputElement).value;
  return textLines(element, false).text;
}

function fire(element: Element, type: 'input' | 'change'): void {
  element.dispatchEvent(new Event(type, { bubbles: true, composed: type === 'input' }));
}

/** Set a picker-type input's value (date, color, range…); false when the input rejected it. */
export function setPickerValue(element: Element, value: string): boolean {
  const input = element as HTMLInputElement;
  input.value = value;
  if (input.value !== value) return false;
  fire(element, 'input');
  fire(element, 'change');
  return true;
}

export type SelectResult = { status: 'done'; selected: string[] } | { status: 'no_option'; missing: string; available: string[] } | { status: 'refused'; reason: string };

/**
 * Select options of a <select> by value, else by visible label (exact after whitespace
 * normalisation). Every requested option must exist and be enabled, or nothing changes.
 */
export function selectOptions(element: Element, wanted: readonly string[]): SelectResult {
  if (element.localName !== 'select') {
    return { status: 'refused', reason: `${describeTag(element)} is not a <select>; for a custom listbox, click its options` };
  }
  const select = element as HTMLSelectElement;
  if (select.disabled) return { status: 'refused', reason: '<select> is disabled' };
  if (wanted.length > 1 && !select.multiple) return { status: 'refused', reason: `this <select> takes one option, ${wanted.length} were given` };
  const options = [...select.options];
  const chosen = new Set<HTMLOptionElement>();
  for (const value of wanted) {
    const option = options.find((o) => o.value === value) ?? options.find((o) => normalizeText(o.label || o.text) === normalizeText(value));
    if (option === undefined) {
      return { status: 'no_option', missing: value, available: options.slice(0, 50).map((o) => normalizeText(o.label || o.text)) };
    }
    if (option.disabled) return { status: 'refused', reason: `option ${JSON.stringify(normalizeText(option.label || option.text))} is disabled` };
    chosen.add(option);
  }
  for (const option of options) option.selected = chosen.has(option);
  fire(element, 'input');
  fire(element, 'change');
  return { status: 'done', selected: [...select.selectedOptions].map((o) => o.value) };
}

export type CheckState = { status: 'ok'; checked: 'true' | 'false' | 'mixed'; radio: boolean } | { status: 'refused'; reason: string };

const ARIA_CHECKABLE = new Set(['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio']);

/** The checked state of a native checkbox/radio or an ARIA checkable (aria-checked). */
export function checkState(element: Element, role: string): CheckState {
  if (element.localName === 'input') {
    const input = element as HTMLInputElement;
    if (input.type === 'checkbox' || input.type === 'radio') {
      return { status: 'ok', checked: input.indeterminate ? 'mixed' : input.checked ? 'true' : 'false', radio: input.type === 'radio' };
    }
  }
  if (ARIA_CHECKABLE.has(role)) {
    const aria = element.getAttribute('aria-checked');
    const checked = aria === 'true' || aria === 'mixed' ? aria : 'false';
    return { status: 'ok', checked, radio: role === 'radio' || role === 'menuitemradio' };
  }
  return { status: 'refused', reason: `${describeTag(element)} with role ${role || 'none'} has no checked state` };
}

export function isFileInput(element: Element): { ok: true; multiple: boolean } | { ok: false; reason: string } {
  if (element.localName === 'input' && (element as HTMLInputElement).type === 'file') {
    const input = element as HTMLInputElement;
    if (input.disabled) return { ok: false, reason: '<input type=file> is disabled' };
    return { ok: true, multiple: input.multiple };
  }
  return {
    ok: false,
    reason: `${describeTag(element)} is not an <input type=file>; if clicking it opens a file chooser, use \`chrome-relay upload --via\``,
  };
}

export interface ScrollPosition {
  x: number;
  y: number;
}

function isScrollable(element: Element, dx: number, dy: number): boolean {
  const style = getComputedStyle(element);
  const scrolls = (overflow: string): boolean => overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay';
  const vertical = dy !== 0 && scrolls(style.overflowY) && element.scrollHeight > element.clientHeight;
  const horizontal = dx !== 0 && scrolls(style.overflowX) && element.scrollWidth > element.clientWidth;
  return vertical || horizontal;
}

/** The spacing of the points scrollerOnScreen samples, and the most it takes along one side of the window. */
const SCROLLER_GRID_PX = 24;
const SCROLLER_GRID_MAX = 60;

/**
 * The scroller a person would turn when the page itself cannot move that way: of the elements on screen that can
 * scroll further in `direction`, the one showing the most area. Sampled where a person looks (a grid of points over
 * the viewport), so nothing off screen or covered is chosen. Null when none can.
 */
export function scrollerOnScreen(direction: ScrollDirection): Element | null {
  const dx = direction === 'left' ? -1 : direction === 'right' ? 1 : 0;
  const dy = direction === 'up' ? -1 : direction === 'down' ? 1 : 0;
  const seen = new Set<Element>();
  // Many points of the grid hit the same element (a panel, a card): its way up is walked once.
  const hits = new Set<Element>();
  let best: Element | null = null;
  let bestArea = 0;
  // Points at most SCROLLER_GRID_PX apart (fewer on a huge window), so a strip one row of cards high is not missed.
  const columns = Math.min(SCROLLER_GRID_MAX, Math.ceil(window.innerWidth / SCROLLER_GRID_PX));
  const rows = Math.min(SCROLLER_GRID_MAX, Math.ceil(window.innerHeight / SCROLLER_GRID_PX));
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const x = (window.innerWidth * (column + 0.5)) / columns;
      const y = (window.innerHeight * (row + 0.5)) / rows;
      const hit = document.elementFromPoint(x, y) ?? document.documentElement;
      if (hits.has(hit)) continue;
      hits.add(hit);
      for (let current = scrollContainer(hit, Math.abs(dx), Math.abs(dy)); current !== null && !seen.has(current); ) {
        seen.add(current);
        const canMove = dx < 0 ? current.scrollLeft > 0 : dx > 0 ? current.scrollLeft + current.clientWidth < current.scrollWidth - 1 : dy < 0 ? current.scrollTop > 0 : current.scrollTop + current.clientHeight < current.scrollHeight - 1;
        if (canMove) {
          const box = current.getBoundingClientRect();
          const area = Math.max(0, Math.min(box.right, window.innerWidth) - Math.max(box.left, 0)) * Math.max(0, Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0));
          if (area > bestArea) {
            best = current;
            bestArea = area;
          }
          break;
        }
        const parent = current.parentElement;
        current = parent === null ? null : scrollContainer(parent, Math.abs(dx), Math.abs(dy));
      }
    }
  }
  return best;
}

/** The element itself or its nearest ancestor that scrolls in the asked direction; null = the page. */
export function scrollContainer(element: Element, dx: number, dy: number): Element | null {
  for (let current: Element | null = element; current !== null; ) {
    if (current === current.ownerDocument.documentElement || current === current.ownerDocument.body) return null;
    if (isScrollable(current, dx, dy)) return current;
    const parent: Node | null = current.assignedSlot ?? current.parentNode;
    current = parent instanceof ShadowRoot ? parent.host : parent instanceof Element ? parent : null;
  }
  return null;
}

/**
 * Scroll `container` (null = the page) one step in `direction`: `amount` CSS px, or by default
 * 85% of the container's visible size (some context stays in view, as Page Down does).
 */
export function scrollStep(container: Element | null, direction: ScrollDirection, amount: number | undefined): { before: ScrollPosition; after: ScrollPosition } {
  const target = container ?? document.scrollingElement ?? document.documentElement;
  const before = { x: Math.round(target.scrollLeft), y: Math.round(target.scrollTop) };
  const horizontal = direction === 'left' || direction === 'right';
  const size = container === null ? (horizontal ? window.innerWidth : window.innerHeight) : horizontal ? target.clientWidth : target.clientHeight;
  const step = (amount ?? Math.round(size * 0.85)) * (direction === 'up' || direction === 'left' ? -1 : 1);
  // 'instant': a smooth scroll would still be moving when we read the position back.
  target.scrollBy({ left: horizontal ? step : 0, top: horizontal ? 0 : step, behavior: 'instant' });
  return { before, after: { x: Math.round(target.scrollLeft), y: Math.round(target.scrollTop) } };
}
