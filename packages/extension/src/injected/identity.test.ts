import { describe, expect, it } from 'vitest';
import {
  contextSignature,
  decideHeal,
  fingerprint,
  identityKey,
  isIdentifyingAncestor,
  placeTwins,
  type HealDecision,
} from './identity.js';

/**
 * A tiny stand-in for the DOM: nodes with a role, an explicit name and text. `actionables()`
 * mirrors what the walker does (document order, context = nearest identifying ancestor), so the
 * tests exercise the identity rules on realistic trees without a browser.
 */
interface FakeNode {
  id: string;
  role: string;
  name?: string;
  explicitName?: string;
  text?: string;
  actionable?: boolean;
  children?: FakeNode[];
}

interface FakeActionable {
  node: FakeNode;
  key: string;
}

function textOf(node: FakeNode): string {
  return [node.text ?? '', ...(node.children ?? []).map(textOf)].filter((t) => t !== '').join(' ');
}

function actionables(roots: FakeNode[]): FakeActionable[] {
  const out: FakeActionable[] = [];
  const visit = (node: FakeNode, context: string): void => {
    if (node.actionable) out.push({ node, key: identityKey(node.role, node.name ?? '', context) });
    const explicit = node.explicitName ?? '';
    const inner = isIdentifyingAncestor(node.role, explicit) ? contextSignature({ role: node.role, explicitName: explicit, text: textOf(node) }) : context;
    for (const child of node.children ?? []) visit(child, inner);
  };
  for (const root of roots) visit(root, '');
  return out;
}

/** A snapshot: each actionable's key and twin placement, as the page records them. */
function snapshot(roots: FakeNode[]) {
  const found = actionables(roots);
  const placements = placeTwins(found.map((a) => a.key));
  return found.map((a, i) => ({ ...a, ...(placements[i] ?? { twinIndex: 0, twinCount: 1 }) }));
}

type Recorded = ReturnType<typeof snapshot>[number];

/**
 * Heal `recorded` (whose element is gone) against the tree now. `bound` lists elements that
 * answer to other refs; `twinsStillThere` says whether a recorded twin survived.
 */
function heal(recorded: Recorded, now: FakeNode[], options: { bound?: Set<FakeNode> } = {}): HealDecision<FakeNode> {
  const matches = actionables(now)
    .filter((a) => a.key === recorded.key)
    .map((a) => a.node);
  return decideHeal({
    twinCount: recorded.twinCount,
    matches,
    boundElsewhere: (node) => options.bound?.has(node) ?? false,
  });
}

/** A list of rows, each "<label> [Delete]", re-created from scratch on every call (a re-render). */
function rowList(labels: string[]): FakeNode[] {
  return [
    {
      id: 'list',
      role: 'list',
      children: labels.map((label) => ({
        id: `li-${label}`,
        role: 'listitem',
        children: [
          { id: `t-${label}`, role: 'text', text: label },
          { id: `b-${label}`, role: 'button', name: 'Delete', text: 'Delete', actionable: true },
        ],
      })),
    },
  ];
}

describe('context signature', () => {
  it('uses an explicit name when there is one', () => {
    expect(contextSignature({ role: 'dialog', explicitName: 'Cookie consent', text: 'We use cookies' })).toBe('dialog:Cookie consent');
    expect(contextSignature({ role: 'group', explicitName: 'Shipping', text: '' })).toBe('group:Shipping');
  });

  it('fingerprints unnamed rows and list items by their text', () => {
    const a = contextSignature({ role: 'row', explicitName: '', text: 'Row 3 Delete' });
    const b = contextSignature({ role: 'row', explicitName: '', text: 'Row 4 Delete' });
    expect(a).not.toBe(b);
    expect(a.startsWith('row:Row 3 Delete#')).toBe(true);
  });

  it('tells apart long texts that share their readable prefix', () => {
    const prefix = 'x'.repeat(60);
    expect(fingerprint(`${prefix} one`)).not.toBe(fingerprint(`${prefix} two`));
    expect(fingerprint(`${prefix} one`)).toBe(fingerprint(`${prefix} one`));
  });

  it('gives unnamed landmarks just their role', () => {
    expect(contextSignature({ role: 'main', explicitName: '', text: 'anything' })).toBe('main:');
  });

  it('counts roles from the list and explicitly named ancestors as identifying', () => {
    expect(isIdentifyingAncestor('row', '')).toBe(true);
    expect(isIdentifyingAncestor('navigation', '')).toBe(true);
    expect(isIdentifyingAncestor('generic', '')).toBe(false);
    expect(isIdentifyingAncestor('generic', 'Billing')).toBe(true);
  });
});

describe('twin placement', () => {
  it('numbers equal keys in order and counts each group', () => {
    expect(placeTwins(['a', 'b', 'a', 'a', 'c'])).toEqual([
      { twinIndex: 0, twinCount: 3 },
      { twinIndex: 0, twinCount: 1 },
      { twinIndex: 1, twinCount: 3 },
      { twinIndex: 2, twinCount: 3 },
      { twinIndex: 0, twinCount: 1 },
    ]);
  });
});

describe('heal', () => {
  it('twin safety: after row 1 is removed and the list re-renders, Row 3’s Delete heals to Row 3, never Row 4', () => {
    const before = snapshot(rowList(['Row 1', 'Row 2', 'Row 3', 'Row 4', 'Row 5']));
    const row3 = before[2];
    if (row3 === undefined) throw new Error('fixture');
    // Each Delete is unique thanks to its row's context.
    expect(before.every((r) => r.twinCount === 1)).toBe(true);

    const after = rowList(['Row 2', 'Row 3', 'Row 4', 'Row 5']);
    const decision = heal(row3, after);
    expect(decision.kind).toBe('heal');
    if (decision.kind === 'heal') expect(decision.element.id).toBe('b-Row 3');
  });

  it('a deleted row’s ref goes stale (vanished), it does not move to a neighbour', () => {
    const before = snapshot(rowList(['Row 1', 'Row 2', 'Row 3']));
    const row1 = before[0];
    if (row1 === undefined) throw new Error('fixture');
    expect(heal(row1, rowList(['Row 2', 'Row 3']))).toEqual({ kind: 'stale', reason: 'vanished' });
  });

  it('never heals to an element that already answers to another ref', () => {
    const before = snapshot(rowList(['Row 1']));
    const row1 = before[0];
    if (row1 === undefined) throw new Error('fixture');
    const now = rowList(['Row 1']);
    const copy = actionables(now)[0]?.node;
    if (copy === undefined) throw new Error('fixture');
    expect(heal(row1, now, { bound: new Set([copy]) })).toEqual({ kind: 'stale', reason: 'vanished' });
  });

  it('a unique element that now has two look-alikes is ambiguous', () => {
    const before = snapshot(rowList(['Row 1']));
    const row1 = before[0];
    if (row1 === undefined) throw new Error('fixture');
    const now = [...rowList(['Row 1']), ...rowList(['Row 1'])];
    expect(heal(row1, now)).toEqual({ kind: 'stale', reason: 'ambiguous' });
  });

  describe('true twins (same role, name and context)', () => {
    const identical = (n: number): FakeNode[] => rowList(Array.from({ length: n }, () => 'Item'));

    it('refuses even a same-count re-render: "delete one, add one" looks identical and would swap rows', () => {
      const before = snapshot(identical(3));
      const second = before[1];
      if (second === undefined) throw new Error('fixture');
      expect(second).toMatchObject({ twinIndex: 1, twinCount: 3 });
      // Whether the list was re-rendered as-is or row 1 was deleted and a row appended, the page now
      // holds three indistinguishable rows: position 1 may be a different row than the one snapshotted.
      expect(heal(second, identical(3))).toEqual({ kind: 'stale', reason: 'ambiguous' });
    });

    it('refuses when the count changed (an earlier twin may have been removed)', () => {
      const before = snapshot(identical(3));
      const third = before[2];
      if (third === undefined) throw new Error('fixture');
      expect(heal(third, identical(2))).toEqual({ kind: 'stale', reason: 'ambiguous' });
    });

    it('refuses with one survivor out of two, even though only one candidate is left', () => {
      // Twins A and B; A was deleted and B re-rendered: "exactly one match" must not pick B for A.
      const before = snapshot(identical(2));
      const first = before[0];
      if (first === undefined) throw new Error('fixture');
      expect(heal(first, identical(1))).toEqual({ kind: 'stale', reason: 'ambiguous' });
    });

    it('refuses when the candidate at its position already answers to another ref', () => {
      const before = snapshot(identical(2));
      const second = before[1];
      if (second === undefined) throw new Error('fixture');
      const now = identical(2);
      const candidate = actionables(now)[1]?.node;
      if (candidate === undefined) throw new Error('fixture');
      expect(heal(second, now, { bound: new Set([candidate]) })).toEqual({ kind: 'stale', reason: 'ambiguous' });
    });

    it('is vanished when nothing with the identity is left', () => {
      const before = snapshot(identical(2));
      const first = before[0];
      if (first === undefined) throw new Error('fixture');
      expect(heal(first, [])).toEqual({ kind: 'stale', reason: 'vanished' });
    });
  });
});
