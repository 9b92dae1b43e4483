/**
 * Which element each ref names, inside our isolated world. Elements are held weakly (WeakRef and
 * WeakMap) so our bookkeeping never keeps a removed node alive in the page.
 */
import type { RefRecord } from './types.js';

export interface Binding {
  record: RefRecord;
  element: WeakRef<Element>;
  /**
   * The last snapshot did not show the element, but it is still in the page, hidden (a closed menu, a collapsed
   * section, a list being re-rendered): the ref is kept, answers stale_ref `hidden` while it stays hidden, and
   * works again once it shows.
   */
  hidden?: true;
}

export class Bindings {
  #byRef = new Map<string, Binding>();
  #refOf = new WeakMap<Element, string>();

  get(ref: string): Binding | undefined {
    return this.#byRef.get(ref);
  }

  /** Every binding, in the order they were made. */
  all(): IterableIterator<Binding> {
    return this.#byRef.values();
  }

  /** The ref currently naming this element, if any. */
  refOf(element: Element): string | undefined {
    const ref = this.#refOf.get(element);
    return ref !== undefined && this.#byRef.get(ref)?.element.deref() === element ? ref : undefined;
  }

  /**
   * A new snapshot replaces every binding: refs of elements it did not see die here (except those it keeps as
   * hidden), so the world's registry always equals the last snapshot's (plus heals since).
   */
  replaceAll(bindings: readonly Binding[]): void {
    for (const old of this.#byRef.values()) {
      const element = old.element.deref();
      if (element !== undefined) this.#refOf.delete(element);
    }
    this.#byRef = new Map();
    for (const binding of bindings) {
      this.#byRef.set(binding.record.ref, binding);
      const element = binding.element.deref();
      if (element !== undefined) this.#refOf.set(element, binding.record.ref);
    }
  }

  /** A ref issued outside a snapshot (a click's interceptor) joins the current ones. */
  add(binding: Binding): void {
    const element = binding.element.deref();
    if (element === undefined) return;
    this.#byRef.set(binding.record.ref, binding);
    this.#refOf.set(element, binding.record.ref);
  }

  /** Heal: the ref now names `element` (its re-rendered copy). */
  rebind(ref: string, element: Element): void {
    const binding = this.#byRef.get(ref);
    if (binding === undefined) return;
    const previous = binding.element.deref();
    if (previous !== undefined) this.#refOf.delete(previous);
    // A ref healed onto a shown element is no longer a hidden one.
    this.#byRef.set(ref, { record: binding.record, element: new WeakRef(element) });
    this.#refOf.set(element, ref);
  }
}
