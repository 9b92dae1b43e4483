/**
 * Where a person points to operate a native control that the page hid from sight under a drawing of its own. MUI's
 * Slider clips its `<input type=range>` to nothing inside the thumb it draws; other kits shrink the input to a pixel
 * (the "visually hidden" pattern) inside a handle, or wrap it in an element that is (react-aria's `VisuallyHidden`, a
 * 1 px clipped `<div>` holding only the input). The input is still the control — Chrome's tree shows it as the slider
 * it is, keyboard focus and value live on it — but a pointer can only reach the drawing. So the snapshot shows the
 * input (walker.ts), and a pointer action on its ref aims at the drawn part and counts a press there as reaching the
 * input (hitTest.ts `locateClick`, `reaches`).
 *
 * The drawn part is the nearest flat-tree ancestor of what is hidden (at most MAX_LEVELS up) that has a box a person
 * can see and aim at, holds the hidden box's centre, is the size of a handle rather than a region (each side ≤
 * MAX_PART_PX), and holds no other control: an ancestor holding two inputs (a range slider's two thumbs) or any other
 * control stands for none of them, and a `<label>` is the label's business (it forwards clicks itself).
 */
import { flatParent } from './dom.js';
import { bigEnough, clipPathHides, clipRectHides, MIN_BOX_PX } from './visibility.js';

const NATIVE_CONTROLS = new Set(['input', 'select', 'textarea']);
const MAX_LEVELS = 3;
/** How far up from the control a wrapper that hides it is looked for (react-aria's VisuallyHidden is its parent). */
const MAX_WRAPPER_LEVELS = 2;
const MAX_PART_PX = 160;
/** Anything else a press on the part could be meant for. */
const OTHER_CONTROLS =
  'input:not([type=hidden]), select, textarea, button, a[href], [contenteditable]:not([contenteditable="false"]), [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=slider], [role=spinbutton], [role=textbox], [role=combobox], [role=option], [role=menuitem], [role=tab]';

/**
 * The control is rendered but a pointer cannot reach it: clipped to nothing or under MIN_BOX_PX. (A transparent one is
 * still hit where it lies, over what it draws: the pointer aims at it as ever, see walker.ts #operableWhileTransparent.)
 */
function hiddenFromSight(control: Element, style: CSSStyleDeclaration): boolean {
  const box = control.getBoundingClientRect();
  return box.width < MIN_BOX_PX || box.height < MIN_BOX_PX || clipped(control, style);
}

/** Clipped to less than MIN_BOX_PX by `clip` (positioned boxes only) or `clip-path`. */
function clipped(element: Element, style: CSSStyleDeclaration): boolean {
  const position = style.position;
  if ((position === 'absolute' || position === 'fixed') && clipRectHides(style.clip)) return true;
  return position !== 'static' && clipPathHides(style.clipPath, element);
}

function holdsOtherControl(part: Element, control: Element): boolean {
  for (const other of part.querySelectorAll(OTHER_CONTROLS)) if (other !== control) return true;
  return false;
}

/**
 * What hides the control from sight: the control itself, or a wrapper that holds nothing else (up to
 * MAX_WRAPPER_LEVELS up, in its own tree); null when neither is hidden.
 */
function hiddenBoxOf(control: Element): Element | null {
  let node: Element = control;
  for (let level = 0; ; level++) {
    const style = getComputedStyle(node);
    // A wrapper hides what it holds only by clipping it: a zero-sized one that lets its content overflow shows it.
    if (hiddenFromSight(node, style) && (node === control || style.overflow !== 'visible' || clipped(node, style))) return node;
    const parent = node.parentElement;
    if (level >= MAX_WRAPPER_LEVELS || parent === null || parent.childElementCount !== 1 || parent.localName === 'label') return null;
    node = parent;
  }
}

/** The drawn part a person points at to operate `control`, or null when it shows itself (or no part qualifies). */
export function drawnPartOf(control: Element): Element | null {
  if (!NATIVE_CONTROLS.has(control.localName) || (control instanceof HTMLInputElement && control.type === 'hidden')) return null;
  // Not rendered at all (display:none, no box): no part stands for it.
  if (control.getClientRects().length === 0) return null;
  if (getComputedStyle(control).visibility !== 'visible') return null;
  const hidden = hiddenBoxOf(control);
  if (hidden === null) return null;
  const box = hidden.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  let node = flatParent(hidden);
  for (let level = 0; node !== null && level < MAX_LEVELS; node = flatParent(node), level++) {
    if (node.localName === 'label' || node === document.body || node === document.documentElement) return null;
    const part = node.getBoundingClientRect();
    if (!bigEnough(part)) continue;
    if (part.width > MAX_PART_PX || part.height > MAX_PART_PX) return null;
    if (x < part.left - 1 || x > part.right + 1 || y < part.top - 1 || y > part.bottom + 1) return null;
    if (!node.checkVisibility({ opacityProperty: true, visibilityProperty: true } as CheckVisibilityOptions)) return null;
    return holdsOtherControl(node, control) ? null : node;
  }
  return null;
}
