/**
 * Elements with page listeners for actions a person performs on them (click, dblclick, drag and drop), which the
 * page registered with addEventListener. Page JavaScript cannot list an element's listeners, and our isolated world
 * cannot see the page's; the worker reads them over CDP (DOMDebugger.getEventListeners on the document, all worlds)
 * and hands the elements to this world before a snapshot (see tools/listenerScan.ts). Held weakly: a hint never
 * keeps a removed element alive.
 *
 * A hint only ever adds a ref to a visible element (the walker's visibility rules still apply), so a page that
 * registers listeners everywhere gains nothing but refs on what a person can already see.
 */
export interface ListenerHints {
  has(element: Element): boolean;
}

export const NO_HINTS: ListenerHints = { has: () => false };

/** The hints of one document, replaced as a whole by each scan. */
export class ListenerHintSet implements ListenerHints {
  #elements = new WeakSet<Element>();
  #size = 0;

  replace(elements: readonly Element[]): void {
    this.#elements = new WeakSet(elements.filter((element) => element instanceof Element));
    this.#size = elements.length;
  }

  has(element: Element): boolean {
    return this.#size > 0 && this.#elements.has(element);
  }
}
