/**
 * Elements with page listeners for actions a person performs on them (click, dblclick, drag and drop), which the
 * page registered with addEventListener. Page JavaScript cannot list an element's listeners, and our isolated world
 * cannot see the page's; the worker reads them over CDP (DOMDebugger.getEventListeners on the document, all worlds)
 * and hands the elements to this world before a snapshot (see page/listeners.ts). Held weakly: a hint never keeps a
 * removed element alive.
 *
 * A hint only ever adds a ref to a visible element (the walker's visibility rules still apply), so a page that
 * registers listeners everywhere gains nothing but refs on what a person can already see.
 *
 * The read costs the page's main thread (~40 ms with 1,500 listeners, more the first time inline handlers are
 * compiled), so it is repeated only when elements may have come or gone: a MutationObserver notes added or removed
 * nodes. Shadow trees are outside its reach, so a document with open shadow roots is always read again. A listener
 * added later to an element that was already there, with nothing else changing, is seen at the next change.
 */
export interface ListenerHints {
  has(element: Element): boolean;
}

export const NO_HINTS: ListenerHints = { has: () => false };

/** The hints of one document, replaced as a whole by each scan. */
export class ListenerHintSet implements ListenerHints {
  #elements = new WeakSet<Element>();
  #size = 0;
  #scanned = false;
  #changed = false;
  /** The last walk met an open shadow root (changes inside it are not observed). */
  shadowRoots = false;
  #observer: MutationObserver | undefined;

  replace(elements: readonly Element[]): void {
    this.#elements = new WeakSet(elements.filter((element) => element instanceof Element));
    this.#size = elements.length;
    this.#scanned = true;
    this.#changed = false;
    if (this.#observer === undefined) {
      this.#observer = new MutationObserver(() => {
        this.#changed = true;
      });
      this.#observer.observe(document, { childList: true, subtree: true });
    }
  }

  /** Whether the page's listeners should be read again before the next walk. */
  stale(): boolean {
    return !this.#scanned || this.#changed || this.shadowRoots;
  }

  has(element: Element): boolean {
    return this.#size > 0 && this.#elements.has(element);
  }
}
