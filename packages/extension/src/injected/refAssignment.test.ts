import { describe, expect, it } from 'vitest';
import { identityKey } from './identity.js';
import { assignRefs, type Placed } from './refAssignment.js';

/** An element of a fake page: its role, name and context signature. */
function el(id: string, role: string, name: string, context: string): Placed<string> {
  return { element: id, role, name, key: identityKey(role, name, context) };
}

const none = (): undefined => undefined;

describe('assignRefs', () => {
  it('numbers new elements in document order', () => {
    const page = [el('a', 'button', 'Save', ''), el('b', 'link', 'Home', '')];
    expect(assignRefs(page, none, [], 7)).toEqual({ refs: ['e7', 'e8'], nextRef: 9, carried: [] });
  });

  it('keeps an element its ref while role and name are unchanged; a renamed one gets a new ref', () => {
    const own = (id: string) => (id === 'a' ? { ref: 'e1', role: 'button', name: 'Follow' } : undefined);
    expect(assignRefs([el('a', 'button', 'Follow', '')], own, [], 5).refs).toEqual(['e1']);
    expect(assignRefs([el('a', 'button', 'Following', '')], own, [], 5).refs).toEqual(['e5']);
  });

  it('carries the refs of a re-rendered list to the copies, row by row', () => {
    // Every row element was replaced; each row's text (its context) tells them apart.
    const page = [el('x1', 'checkbox', '', 'listitem:Write report'), el('x2', 'checkbox', '', 'listitem:Buy milk')];
    const vanished = [
      { ref: 'e3', key: identityKey('checkbox', '', 'listitem:Buy milk'), twinCount: 1 },
      { ref: 'e2', key: identityKey('checkbox', '', 'listitem:Write report'), twinCount: 1 },
    ];
    expect(assignRefs(page, none, vanished, 10)).toEqual({ refs: ['e2', 'e3'], nextRef: 10, carried: ['e3', 'e2'] });
  });

  it('never carries a ref between true twins, nor onto one of several look-alikes', () => {
    const twins = [el('n1', 'button', 'Delete', ''), el('n2', 'button', 'Delete', '')];
    // Twins at the last snapshot: nothing tells which copy is which.
    expect(assignRefs(twins, none, [{ ref: 'e4', key: identityKey('button', 'Delete', ''), twinCount: 2 }], 9).refs).toEqual(['e9', 'e10']);
    // Unique then, two look-alikes now: ambiguous.
    expect(assignRefs(twins, none, [{ ref: 'e4', key: identityKey('button', 'Delete', ''), twinCount: 1 }], 9).refs).toEqual(['e9', 'e10']);
  });

  it('does not carry a ref onto an element that kept its own', () => {
    const own = (id: string) => (id === 'old' ? { ref: 'e1', role: 'button', name: 'Open' } : undefined);
    const page = [el('old', 'button', 'Open', 'row:A'), el('new', 'button', 'Open', 'row:A')];
    const out = assignRefs(page, own, [{ ref: 'e2', key: identityKey('button', 'Open', 'row:A'), twinCount: 1 }], 8);
    // The one fresh candidate is the copy (the other answers to e1).
    expect(out.refs).toEqual(['e1', 'e2']);
  });
});
