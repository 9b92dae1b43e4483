import { describe, expect, it } from 'vitest';
import { addsOrRemovesElements, INLINE_CLICK_SELECTOR } from './listenerHints.js';

const TEXT = { nodeType: 3 };
const ELEMENT = { nodeType: 1 };
const COMMENT = { nodeType: 8 };

describe('addsOrRemovesElements', () => {
  it('ignores changes of text alone (textContent replacing a text node, comments)', () => {
    expect(addsOrRemovesElements([{ addedNodes: [TEXT], removedNodes: [TEXT] }, { addedNodes: [COMMENT], removedNodes: [] }])).toBe(false);
    expect(addsOrRemovesElements([])).toBe(false);
  });

  it('counts an element added or removed anywhere in the records', () => {
    expect(addsOrRemovesElements([{ addedNodes: [TEXT], removedNodes: [] }, { addedNodes: [TEXT, ELEMENT], removedNodes: [] }])).toBe(true);
    expect(addsOrRemovesElements([{ addedNodes: [], removedNodes: [ELEMENT] }])).toBe(true);
  });
});

describe('INLINE_CLICK_SELECTOR', () => {
  it('counts the inline handlers of exactly the click types', () => {
    expect(INLINE_CLICK_SELECTOR.split(', ').sort()).toEqual(['[onclick]', '[oncontextmenu]', '[onmousedown]', '[onmouseup]', '[onpointerdown]', '[onpointerup]']);
  });
});
