// @vitest-environment happy-dom
/** Which element each ref names, in our world: one element per ref and one ref per element, whatever came before. */
import { describe, expect, it } from 'vitest';
import { Bindings, type Binding } from './bindings.js';

const binding = (ref: string, element: Element, hidden = false): Binding => ({
  record: { ref, role: 'button', name: ref, context: '', twinIndex: 0, twinCount: 1 },
  element: new WeakRef(element),
  ...(hidden ? { hidden: true as const } : {}),
});

describe('Bindings', () => {
  it('a snapshot replaces every binding: refs it did not keep no longer name anything', () => {
    const a = document.createElement('button');
    const b = document.createElement('button');
    const bindings = new Bindings();
    bindings.replaceAll([binding('e1', a), binding('e2', b)]);
    expect(bindings.refOf(a)).toBe('e1');
    bindings.replaceAll([binding('e3', b)]);
    expect(bindings.get('e1')).toBeUndefined();
    expect(bindings.refOf(a)).toBeUndefined();
    expect(bindings.refOf(b)).toBe('e3');
    expect([...bindings.all()].map((kept) => kept.record.ref)).toEqual(['e3']);
  });

  it('a heal moves the ref to the copy: the old element answers to nothing, and the ref is no longer a hidden one', () => {
    const old = document.createElement('button');
    const copy = document.createElement('button');
    const bindings = new Bindings();
    bindings.replaceAll([binding('e1', old, true)]);
    bindings.rebind('e1', copy);
    expect(bindings.refOf(copy)).toBe('e1');
    expect(bindings.refOf(old)).toBeUndefined();
    expect(bindings.get('e1')?.element.deref()).toBe(copy);
    expect(bindings.get('e1')?.hidden).toBeUndefined();
    bindings.rebind('e9', copy);
    expect(bindings.get('e9')).toBeUndefined();
  });

  it('a ref added outside a snapshot joins the current ones', () => {
    const a = document.createElement('button');
    const overlay = document.createElement('div');
    const bindings = new Bindings();
    bindings.replaceAll([binding('e1', a)]);
    bindings.add(binding('e5', overlay));
    expect(bindings.refOf(overlay)).toBe('e5');
    expect(bindings.refOf(a)).toBe('e1');
  });
});
