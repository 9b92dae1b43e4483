// @vitest-environment happy-dom
/** The flat-tree helpers every page-side module leans on: slots, shadow roots and their id scopes. */
import { describe, expect, it } from 'vitest';
import { useFakeRendering } from '../testing/fakeRendering.js';
import { cap, deepActiveElement, flatContains, flatParent, getElementByIdInScope, isShadowHostOf, normalizeText } from './dom.js';

useFakeRendering();

/** A host whose shadow root slots its light child: `<x-card><span id="light">…</span></x-card>`. */
function slotted(): { host: Element; light: Element; slot: Element; inner: Element; root: ShadowRoot } {
  document.body.innerHTML = '<x-card><span id="light">Title</span></x-card>';
  const host = document.querySelector('x-card');
  const light = document.getElementById('light');
  if (host === null || light === null) throw new Error('fixture');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = '<div id="frame"><slot></slot></div><button id="inner">Go</button>';
  const slot = root.querySelector('slot');
  const inner = root.getElementById('inner');
  if (slot === null || inner === null) throw new Error('fixture');
  // happy-dom assigns nodes to slots but gives them no assignedSlot: state what a browser says.
  Object.defineProperty(light, 'assignedSlot', { value: slot });
  return { host, light, slot, inner, root };
}

describe('text', () => {
  it('normalizes whitespace as rendered text reads, and cuts long names with an ellipsis', () => {
    expect(normalizeText('  a \n\t b  ')).toBe('a b');
    expect(cap('abcdef', 4)).toBe('abc…');
    expect(cap('abcd', 4)).toBe('abcd');
  });
});

describe('the flat tree', () => {
  it("a slotted child's parent is its slot; a shadow root's child's parent is the host", () => {
    const { host, light, slot, inner } = slotted();
    expect(flatParent(light)).toBe(slot);
    expect(flatParent(inner)).toBe(host);
    expect(flatContains(host, light)).toBe(true);
    expect(flatContains(host, inner)).toBe(true);
    expect(flatContains(inner, light)).toBe(false);
  });

  it('isShadowHostOf: only for elements inside the host\'s shadow tree, not its light children', () => {
    const { host, light, inner } = slotted();
    expect(isShadowHostOf(host, inner)).toBe(true);
    expect(isShadowHostOf(host, light)).toBe(false);
  });

  it('ids resolve in the element\'s own tree scope', () => {
    const { inner, light, root } = slotted();
    const twin = document.createElement('span');
    twin.setAttribute('id', 'light');
    root.append(twin);
    expect(getElementByIdInScope(inner, 'light')).toBe(twin);
    expect(getElementByIdInScope(light, 'light')).toBe(light);
    expect(getElementByIdInScope(document.createElement('div'), 'light')).toBeNull();
  });

  it('deepActiveElement follows focus into shadow roots, and is null while only the body has it', () => {
    const { inner } = slotted();
    expect(deepActiveElement(document)).toBeNull();
    (inner as HTMLElement).focus();
    expect(deepActiveElement(document)).toBe(inner);
  });
});
