/**
 * Small DOM helpers shared by the walker and the hit-test. "Flat tree" = the tree as rendered:
 * open shadow roots are entered, slotted light-DOM nodes sit under their slot.
 */

export const NAME_CAP = 100;

/** Collapse whitespace runs to one space and trim, the way rendered text reads. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cap a normalized string at `max` characters, marking the cut with an ellipsis. */
export function cap(text: string, max = NAME_CAP): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The parent in the flat tree: the assigned slot, else the parent element, else the shadow host. */
export function flatParent(node: Node): Element | null {
  if (node instanceof Element || node instanceof Text) {
    const slot = node.assignedSlot;
    if (slot) return slot;
  }
  const parent = node.parentNode;
  if (parent === null) return null;
  if (parent instanceof ShadowRoot) return parent.host;
  return parent instanceof Element ? parent : null;
}

/** Whether `ancestor` contains `node` in the flat tree (or is it). */
export function flatContains(ancestor: Element, node: Node): boolean {
  for (let current: Node | null = node; current !== null; current = flatParent(current)) {
    if (current === ancestor) return true;
  }
  return false;
}

/** Whether `host` is the shadow host of a shadow tree that (transitively) contains `element`. */
export function isShadowHostOf(host: Element, element: Element): boolean {
  let root = element.getRootNode();
  while (root instanceof ShadowRoot) {
    if (root.host === host) return true;
    root = root.host.getRootNode();
  }
  return false;
}

/**
 * elementFromPoint that descends through open shadow roots (the document-level call stops at the
 * outermost host). null when the point is outside the viewport.
 */
export function deepElementFromPoint(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (inner === null || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** An <iframe> or <frame>: input over it, and focus in it, belong to the document it shows. */
export function isFrameElement(element: Element): boolean {
  return element instanceof HTMLIFrameElement || element instanceof HTMLFrameElement;
}

/** Same as getRootNode().getElementById, for aria-labelledby and label[for] lookups inside shadow trees. */
export function getElementByIdInScope(element: Element, id: string): Element | null {
  const root = element.getRootNode();
  if (root instanceof Document || root instanceof ShadowRoot) return root.getElementById(id);
  return null;
}

/** The deepest focused element of a document (through open shadow roots); null when nothing but the body has focus. */
export function deepActiveElement(doc: Document): Element | null {
  let active = doc.activeElement;
  if (active === null || active === doc.body || active === doc.documentElement) return null;
  while (active.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

