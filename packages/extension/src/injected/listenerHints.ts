/**
 * Elements with page listeners for actions a person performs on them (click, dblclick, drag and drop), which the
 * page registered with addEventListener. Page JavaScript cannot list an element's listeners, and our isolated world
 * cannot see the page's; the worker reads them over CDP (DOMDebugger.getEventListeners on the document, all worlds)
 * and hands the elements to this world before a snapshot (see page/listeners.ts), through the page API like every
 * other call (api.ts listenerScanState, documentNode, noteListeners). Held weakly: a hint never keeps a
 * removed element alive.
 *
 * A hint only ever adds a ref to a visible element (the walker's visibility rules still apply), so a page that
 * registers listeners everywhere gains nothing but refs on what a person can already see.
 *
 * The read costs the page's main thread (~40 ms with 1,500 listeners, more the first time inline handlers are
 * compiled), so it is repeated only when elements may have come or gone: a MutationObserver notes added or removed
 * elements (text alone changing does not count). Shadow trees are outside its reach, so a document with open shadow
 * roots is always read again. A listener added later to an element that was already there, with no element coming
 * or going, is seen at the next such change.
 */
import type { ListenerScanState } from './types.js';

/**
 * Listener types of a press (a click in all but name): on buttons and links most often, which have refs anyway, so
 * the worker counts them only on pages with few of them (page/listeners.ts pickListenerNodes).
 */
export const CLICK_LISTENER_TYPES: readonly string[] = ['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'contextmenu'];

/**
 * The inline handler attributes of CLICK_LISTENER_TYPES, which the walker reads itself (walker.ts ACTION_HANDLERS):
 * elements that have one are elements with such a listener, so counting them tells whether a read's click-type
 * listeners are all inline ones (page/listeners.ts).
 */
export const INLINE_CLICK_SELECTOR = CLICK_LISTENER_TYPES.map((type) => `[on${type}]`).join(', ');

export interface ListenerHints {
  has(element: Element): boolean;
}

export const NO_HINTS: ListenerHints = { has: () => false };

/** Node.ELEMENT_NODE (a literal: pure code here also runs where there is no DOM). */
const ELEMENT_NODE = 1;

type NodeList = ArrayLike<{ nodeType: number }>;

/**
 * Pure: whether mutation records add or remove an element. Only elements hold the listeners a read looks for, so a
 * change of text alone (a status line, a counter: what most clicks change) keeps the last read valid.
 */
export function addsOrRemovesElements(records: readonly { addedNodes: NodeList; removedNodes: NodeList }[]): boolean {
  for (const record of records) {
    for (const list of [record.addedNodes, record.removedNodes]) {
      for (let i = 0; i < list.length; i++) if (list[i]?.nodeType === ELEMENT_NODE) return true;
    }
  }
  return false;
}

/** The hints of one document, replaced as a whole by each scan. */
export class ListenerHintSet implements ListenerHints {
  #elements = new WeakSet<Element>();
  /**
   * The hinted elements by backend node id, so a later read that reports them again needs no DOM.resolveNode for
   * them (each is a round trip through chrome.debugger: ~0.13 ms, 200 of them are most of a re-read's cost).
   */
  #byNode = new Map<number, WeakRef<Element>>();
  #size = 0;
  #scanned = false;
  #changed = false;
  /** The last walk met an open shadow root (changes inside it are not observed). */
  shadowRoots = false;
  #observer: MutationObserver | undefined;

  /**
   * The new set: `reused` are ids of elements this world already holds (see state().known), `fresh[i]` is the id
   * of `elements[i]`, just resolved. An id no longer held is dropped (its element is gone).
   */
  replace(reused: readonly number[], fresh: readonly number[], elements: readonly Element[]): void {
    const byNode = new Map<number, WeakRef<Element>>();
    for (const id of reused) {
      const held = this.#byNode.get(id);
      if (held !== undefined) byNode.set(id, held);
    }
    fresh.forEach((id, i) => {
      const element = elements[i];
      if (element instanceof Element) byNode.set(id, new WeakRef(element));
    });
    const live: Element[] = [];
    for (const held of byNode.values()) {
      const element = held.deref();
      if (element !== undefined) live.push(element);
    }
    this.#byNode = byNode;
    this.#elements = new WeakSet(live);
    this.#size = live.length;
    this.#scanned = true;
    this.#changed = false;
    if (this.#observer === undefined) {
      this.#observer = new MutationObserver((records) => {
        if (!this.#changed && addsOrRemovesElements(records)) this.#changed = true;
      });
      this.#observer.observe(document, { childList: true, subtree: true });
    }
  }

  /** Whether the page's listeners should be read again before the next walk. */
  stale(): boolean {
    return !this.#scanned || this.#changed || this.shadowRoots;
  }

  /**
   * What the worker needs before a read: whether to read, the ids it need not resolve again, and — only when it will
   * read — how many elements carry an inline click-type handler (our world's querySelectorAll is the browser's own).
   */
  state(): ListenerScanState {
    const known: number[] = [];
    for (const [id, held] of this.#byNode) if (held.deref() !== undefined) known.push(id);
    const stale = this.stale();
    return { stale, known, inlineClicks: stale ? document.querySelectorAll(INLINE_CLICK_SELECTOR).length : -1 };
  }

  has(element: Element): boolean {
    return this.#size > 0 && this.#elements.has(element);
  }
}
