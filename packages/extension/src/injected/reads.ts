/**
 * Reads of page state and waits on the page, as methods of the page API (types.ts PageApi extends ReadsApi): the
 * worker calls them through the one page-call path (page/pageCall.ts), in chrome-relay's isolated world, so the page
 * cannot patch what they use (a redefined querySelector, innerText or JSON) nor see them run. Adding a read is adding
 * a method here: its types travel with it.
 */
import { isSecretField, SECRET_MASK } from './secrets.js';
import type { ResolveOutcome } from './refStatus.js';
import { agentSelectAll, agentSelectFirst, isRefusal, type SelectorRefusal } from './selectors.js';

type Stale = Extract<ResolveOutcome, { status: 'stale' }>;
/** The page API's own way to act on a ref's element (resolved, healed, or stale). */
export type WithElement = <R>(ref: string, act: (element: Element, healed: boolean) => R) => R | Stale;

export type ElementBox = { found: false } | { found: true; x: number; y: number; width: number; height: number; scrollX: number; scrollY: number };
export type FocusReport = { editable: true; description: string } | { editable: false; description: string };
export type ReadResult =
  | { status: 'ok'; value: string | number | null }
  | SelectorRefusal
  | { status: 'none' }
  | { status: 'many'; count: number }
  | { status: 'no_value'; tag: string };

export type WaitConditionAnswer = { status: 'ok'; met: boolean; exists?: boolean; url?: string } | SelectorRefusal;

/** The read methods the worker may call by name with JSON arguments (callPage). */
export type ReadMethod = 'elementBox' | 'focusReport' | 'waitCondition' | 'readyState' | 'readElement' | 'style';
/** The ones that answer later (callPageAwait). */
export type ReadAwaitMethod = 'twoFrames' | 'turn' | 'parsed';

/** Longest computed value returned whole (a data: URL in background-image can be megabytes). */
const MAX_STYLE_VALUE = 4096;

export function createReads(withElement: WithElement) {
  return {
    /** `get style`: the computed value of each CSS property asked for, on a ref's element (resolved and healed like any ref). */
    style({ ref, properties }: { ref: string; properties: string[] }) {
      return withElement(ref, (element, healed) => {
        const computed = getComputedStyle(element);
        const style: Record<string, string> = {};
        const truncated: string[] = [];
        for (const property of properties) {
          const value = computed.getPropertyValue(property).trim();
          if (value.length > MAX_STYLE_VALUE) truncated.push(property);
          style[property] = value.slice(0, MAX_STYLE_VALUE);
        }
        return { status: 'ok' as const, style, truncated, healed };
      });
    },

    /**
     * Scroll the first element matching `selector` into view and return its box in viewport coordinates (element
     * screenshots by CSS selector); why not, when the selector is refused (selectors.ts).
     */
    elementBox({ selector }: { selector: string }): ElementBox | SelectorRefusal {
      const el = agentSelectFirst(selector);
      if (isRefusal(el)) return el;
      if (!el) return { found: false };
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      const r = el.getBoundingClientRect();
      // Viewport coordinates: the frame is of the viewport, after the scroll above.
      return { found: true, x: r.left, y: r.top, width: r.width, height: r.height, scrollX: window.scrollX, scrollY: window.scrollY };
    },

    /** The deepest focused element (through open shadow roots and same-origin frames) and whether it takes typed text. */
    focusReport(): FocusReport {
      return describeFocus();
    },

    /** One check of a `wait` condition in this document: load, url, text (shadow trees included) or a visible selector. */
    waitCondition({ kind, arg }: { kind: string; arg: string }): WaitConditionAnswer {
      return waitCondition(kind, arg);
    },

    /**
     * `get` by selector: the title, the URL, or one element's text, value or attribute (the match must be unique), or
     * how many elements match. A selector matches in the document and in every open shadow root, each scope searched on
     * its own, as the snapshot sees them.
     */
    readElement({ what, selector, name }: { what: string; selector: string; name: string }): ReadResult {
      return readElement(what, selector, name);
    },

    readyState(): string {
      return document.readyState;
    },

    /** Resolves once this frame's renderer has produced two animation frames (so a new layout has been drawn). */
    twoFrames(): Promise<true> {
      return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))));
    },

    /** Resolves once the document has been parsed (DOMContentLoaded, or at once when it already was). */
    parsed(): Promise<true> {
      if (document.readyState !== 'loading') return Promise.resolve(true);
      return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(true), { once: true }));
    },

    /** Resolves after one task queued behind everything the page has queued now (our world's own setTimeout). */
    turn(): Promise<true> {
      return new Promise((resolve) => setTimeout(() => resolve(true), 0));
    },
  };
}

export type ReadsApi = ReturnType<typeof createReads>;

/** Tag names, not instanceof: elements of a same-origin frame belong to that frame's realm. */
function describeFocus(): FocusReport {
  let doc: Document = document;
  let el: Element | null = doc.activeElement;
  for (;;) {
    const root = el?.shadowRoot;
    if (root?.activeElement) {
      el = root.activeElement;
      continue;
    }
    if (el && (el.tagName === 'IFRAME' || el.tagName === 'FRAME')) {
      let inner: Document | null = null;
      try {
        inner = (el as HTMLIFrameElement).contentDocument;
      } catch {
        inner = null;
      }
      if (!inner) return { editable: true, description: 'iframe (cross-origin)' };
      doc = inner;
      el = inner.activeElement;
      continue;
    }
    break;
  }
  if (!el || el === doc.body || el === doc.documentElement) return { editable: false, description: 'nothing (the page body)' };
  let description = el.tagName.toLowerCase();
  if (el.id) description += `#${el.id}`;
  for (const attr of ['name', 'type']) {
    const value = el.getAttribute(attr);
    if (value) description += `[${attr}=${value}]`;
  }
  const field = el as HTMLInputElement;
  const contentEditable = (el as HTMLElement).isContentEditable === true;
  if (contentEditable) description += '[contenteditable]';
  // Inputs that take no typed text; every other type (text, email, date, number…) does.
  const notTyped = ['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'range', 'color', 'hidden'];
  const writable = field.readOnly !== true && field.disabled !== true;
  const editable =
    contentEditable ||
    (el.tagName === 'TEXTAREA' && writable) ||
    (el.tagName === 'INPUT' && writable && !notTyped.includes(field.type));
  return { editable, description };
}

function waitCondition(kind: string, arg: string): WaitConditionAnswer {
  if (kind === 'load') return { status: 'ok', met: document.readyState === 'complete' };
  if (kind === 'url') return { status: 'ok', met: false, url: location.href };
  const roots: ShadowRoot[] = [];
  const collect = (root: Document | ShadowRoot): void => {
    for (const element of root.querySelectorAll('*')) {
      if (element.shadowRoot !== null) {
        roots.push(element.shadowRoot);
        collect(element.shadowRoot);
      }
    }
  };
  if (kind === 'text') {
    if ((document.body?.innerText ?? '').includes(arg)) return { status: 'ok', met: true };
    // innerText leaves shadow trees out: read each open shadow root's rendered children.
    collect(document);
    for (const root of roots) {
      if (!root.host.checkVisibility()) continue;
      for (const child of root.childNodes) {
        const text = child instanceof HTMLElement ? (child.checkVisibility() ? child.innerText : '') : child.nodeType === Node.TEXT_NODE ? (child.textContent ?? '') : '';
        if (text.includes(arg)) return { status: 'ok', met: true };
      }
    }
    return { status: 'ok', met: false };
  }
  const matches = agentSelectAll(arg);
  if (isRefusal(matches)) return matches;
  for (const el of matches) {
    const box = el.getBoundingClientRect();
    const styleVisible = typeof el.checkVisibility === 'function' ? el.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true } as CheckVisibilityOptions) : true;
    if (styleVisible && box.width > 0 && box.height > 0) return { status: 'ok', met: true, exists: true };
  }
  return { status: 'ok', met: false, exists: matches.length > 0 };
}

function readElement(what: string, selector: string, name: string): ReadResult {
  if (what === 'title') return { status: 'ok', value: document.title };
  if (what === 'url') return { status: 'ok', value: location.href };
  // Matches in the document and in every open shadow root (each scope searched on its own), in tree order.
  const matches = agentSelectAll(selector);
  if (isRefusal(matches)) return matches;
  if (what === 'count') return { status: 'ok', value: matches.length };
  if (matches.length === 0) return { status: 'none' };
  if (matches.length > 1) return { status: 'many', count: matches.length };
  const el = matches[0] as HTMLElement;
  // A password (or one-time code) is the person's secret: masked as the snapshot and a read by ref mask it, its value
  // attribute (one the page prefilled) as much as its value.
  const masked = (value: string | null): string | null => (value !== null && value !== '' && isSecretField(el) ? SECRET_MASK : value);
  if (what === 'attr') return { status: 'ok', value: name.toLowerCase() === 'value' ? masked(el.getAttribute(name)) : el.getAttribute(name) };
  if (what === 'value') {
    const tag = el.tagName;
    if (tag !== 'INPUT' && tag !== 'TEXTAREA' && tag !== 'SELECT' && tag !== 'OPTION' && tag !== 'BUTTON' && tag !== 'OUTPUT') {
      return { status: 'no_value', tag: tag.toLowerCase() };
    }
    return { status: 'ok', value: masked((el as HTMLInputElement).value) };
  }
  // innerText is the rendered text (what a person sees); SVG and other non-HTML elements lack it.
  return { status: 'ok', value: typeof el.innerText === 'string' ? el.innerText : (el.textContent ?? '') };
}
