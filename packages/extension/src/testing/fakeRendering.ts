/**
 * Rendering for unit tests of the page script in a DOM without one: happy-dom resolves the styles a page sets, but
 * lays nothing out and leaves most properties it was not given empty. `installFakeRendering` gives every element the
 * box its `data-box="left top width height"` attribute says (else DEFAULT_BOX; none when not rendered), a document
 * that scrolls over 1280 × 3000 px in a 1280 × 800 viewport, and computed styles whose unset properties read as a
 * browser's initial values. Only what the snapshot core reads. Returns the function that restores the DOM's own.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';

const DEFAULT_BOX = [0, 0, 100, 20] as const;

/** Initial values of the properties the page script reads, where happy-dom leaves them empty. */
const INITIAL: Readonly<Record<string, string>> = {
  visibility: 'visible',
  opacity: '1',
  position: 'static',
  overflow: 'visible',
  overflowX: 'visible',
  overflowY: 'visible',
  clip: 'auto',
  clipPath: 'none',
  cursor: 'auto',
  backgroundColor: 'rgba(0, 0, 0, 0)',
  backgroundImage: 'none',
  borderWidth: '0px',
  boxShadow: 'none',
  content: 'normal',
  whiteSpace: 'normal',
  fontWeight: '400',
  fontStyle: 'normal',
  fontSize: '16px',
  writingMode: 'horizontal-tb',
  direction: 'ltr',
  display: 'inline',
};

function rectOf(left: number, top: number, width: number, height: number): DOMRect {
  return { left, top, width, height, x: left, y: top, right: left + width, bottom: top + height, toJSON: () => ({}) };
}

function boxOf(element: Element): DOMRect {
  const given = element.getAttribute('data-box')?.trim().split(/\s+/).map(Number);
  const [left = 0, top = 0, width = 0, height = 0] = given !== undefined && given.length === 4 && given.every(Number.isFinite) ? given : DEFAULT_BOX;
  return rectOf(left, top, width, height);
}

/** Whether the element or a flat-tree ancestor is display:none (happy-dom does not inherit "not rendered"). */
function unrendered(element: Element): boolean {
  for (let node: Element | null = element; node !== null; node = node.assignedSlot ?? node.parentElement ?? (node.parentNode instanceof ShadowRoot ? node.parentNode.host : null)) {
    if (getComputedStyle(node).display === 'none') return true;
  }
  return false;
}

/**
 * A test file's rendering: installed before its tests, taken away after them, and the document emptied after each
 * test (body and title), so no fixture leaks into the next.
 */
export function useFakeRendering(): void {
  let restore: (() => void) | undefined;
  beforeAll(() => {
    restore = installFakeRendering();
  });
  afterAll(() => restore?.());
  afterEach(() => {
    document.body.innerHTML = '';
    document.title = '';
  });
}

export function installFakeRendering(): () => void {
  const proto = Element.prototype;
  const own = {
    rect: Object.getOwnPropertyDescriptor(proto, 'getBoundingClientRect'),
    rects: Object.getOwnPropertyDescriptor(proto, 'getClientRects'),
    style: window.getComputedStyle,
  };
  const computed = own.style.bind(window);
  window.getComputedStyle = (element: Element, pseudo?: string | null): CSSStyleDeclaration => {
    const declaration = computed(element, pseudo);
    return new Proxy(declaration, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof property === 'string' && value === '' && property in INITIAL) return pseudo ? (property === 'content' ? 'none' : INITIAL[property]) : INITIAL[property];
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  Object.defineProperty(proto, 'getBoundingClientRect', {
    configurable: true,
    value(this: Element): DOMRect {
      return this.isConnected && !unrendered(this) ? boxOf(this) : rectOf(0, 0, 0, 0);
    },
  });
  Object.defineProperty(proto, 'getClientRects', {
    configurable: true,
    value(this: Element): DOMRect[] {
      const box = this.getBoundingClientRect();
      return box.width > 0 && box.height > 0 ? [box] : [];
    },
  });
  // happy-dom's `document` is an instance of a Document class other than the global one: make `instanceof Document`
  // (how the page script tells a document scope from a shadow root) true of it, as in a browser.
  const documentClass = Object.getOwnPropertyDescriptor(globalThis, 'Document');
  if (!(document instanceof Document)) Object.defineProperty(globalThis, 'Document', { configurable: true, writable: true, value: Object.getPrototypeOf(Object.getPrototypeOf(document)).constructor });
  const root = document.documentElement;
  const sizes = { scrollWidth: 1280, scrollHeight: 3000, clientWidth: 1280, clientHeight: 800 };
  for (const [key, size] of Object.entries(sizes)) Object.defineProperty(root, key, { configurable: true, get: () => size });
  return () => {
    window.getComputedStyle = own.style;
    for (const [key, descriptor] of [['getBoundingClientRect', own.rect], ['getClientRects', own.rects]] as const) {
      if (descriptor !== undefined) Object.defineProperty(proto, key, descriptor);
      else Reflect.deleteProperty(proto, key);
    }
    for (const key of Object.keys(sizes)) Reflect.deleteProperty(root, key);
    if (documentClass !== undefined) Object.defineProperty(globalThis, 'Document', documentClass);
  };
}
