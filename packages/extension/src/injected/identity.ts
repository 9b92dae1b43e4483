/**
 * Element identity and heal, as pure logic (no DOM) so unit tests can drive it with a fake tree.
 *
 * A ref names one element. While that element is connected it is the ref's element (if its role
 * or name changed it is "changed", never healed elsewhere). Only when it left the document may a
 * ref move, and only to an element we can argue is its re-rendered copy:
 *   identity key = role + name + context, where context is the signature of the nearest
 *   identifying ancestor (a row, list item, dialog, landmark… or any explicitly named ancestor).
 * Rows "Row 1".."Row 5" each with a "Delete" button give five different contexts, so deleting
 * row 1 can never make Row 3's Delete ref land on Row 4. True twins (same key) are never healed:
 * after a re-render nothing tells them apart, so position could name another row. They are stale.
 */

/** Roles whose element identifies the actionable elements inside it. */
export const CONTEXT_ROLES: ReadonlySet<string> = new Set([
  'row',
  'listitem',
  'article',
  'option',
  'treeitem',
  'dialog',
  'alertdialog',
  'form',
  'region',
  'navigation',
  'main',
  'banner',
  'contentinfo',
  'complementary',
  'search',
]);

/** Of CONTEXT_ROLES, those whose content (not a label) is what tells one instance from another. */
const FINGERPRINTED_ROLES: ReadonlySet<string> = new Set(['row', 'listitem', 'article', 'option', 'treeitem']);

const FINGERPRINT_PREFIX = 40;

export interface ContextSource {
  role: string;
  /** Name from aria-label(ledby) or a native label; '' when the name would only come from content. */
  explicitName: string;
  /** The ancestor's own rendered text, whitespace-collapsed (only read for fingerprinted roles). */
  text: string;
}

/** Whether an ancestor identifies its descendants (see CONTEXT_ROLES). */
export function isIdentifyingAncestor(role: string, explicitName: string): boolean {
  return CONTEXT_ROLES.has(role) || explicitName !== '';
}

/**
 * The context signature. Rows and list items usually have no label, so their text stands in: a
 * readable prefix plus a hash of the whole text, so two rows sharing a long prefix still differ.
 */
export function contextSignature(source: ContextSource): string {
  if (source.explicitName !== '') return `${source.role}:${source.explicitName}`;
  if (FINGERPRINTED_ROLES.has(source.role)) return `${source.role}:${fingerprint(source.text)}`;
  return `${source.role}:`;
}

export function fingerprint(text: string): string {
  const prefix = text.length > FINGERPRINT_PREFIX ? text.slice(0, FINGERPRINT_PREFIX) : text;
  return `${prefix}#${fnv1a(text)}`;
}

/** 32-bit FNV-1a: tiny, stable across runs, good enough to tell row texts apart. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

export function identityKey(role: string, name: string, context: string): string {
  // NUL cannot occur in names (they are rendered text), so the join is unambiguous.
  return `${role}\u0000${name}\u0000${context}`;
}

export interface TwinPlacement {
  twinIndex: number;
  twinCount: number;
}

/** Position of each key among equal keys, in the given (document) order. */
export function placeTwins(keys: readonly string[]): TwinPlacement[] {
  const counts = new Map<string, number>();
  const indices = keys.map((key) => {
    const seen = counts.get(key) ?? 0;
    counts.set(key, seen + 1);
    return seen;
  });
  return keys.map((key, i) => ({ twinIndex: indices[i] ?? 0, twinCount: counts.get(key) ?? 1 }));
}

export interface HealInput<E> {
  /** How many elements shared the record's identity key at snapshot time (1 = it was unique). */
  twinCount: number;
  /** Connected elements with the record's role+name+context, in document order (the twin domain). */
  matches: readonly E[];
  /**
   * True when the element already answers to another ref: it was present at a snapshot as a
   * different element, so it cannot be the re-rendered copy of ours.
   */
  boundElsewhere(element: E): boolean;
}

export type HealDecision<E> = { kind: 'heal'; element: E } | { kind: 'stale'; reason: 'vanished' | 'ambiguous' };

/** Only call when the ref's own element is gone (disconnected or collected). */
export function decideHeal<E>(input: HealInput<E>): HealDecision<E> {
  const { matches } = input;
  if (input.twinCount <= 1) {
    // Unique at snapshot time: exactly one new element with the same identity is its copy.
    const fresh = matches.filter((element) => !input.boundElsewhere(element));
    if (fresh.length === 1 && fresh[0] !== undefined) return { kind: 'heal', element: fresh[0] };
    return fresh.length === 0 ? { kind: 'stale', reason: 'vanished' } : { kind: 'stale', reason: 'ambiguous' };
  }
  if (matches.length === 0) return { kind: 'stale', reason: 'vanished' };
  // True twins (same role, name AND context) cannot be told apart once their nodes are replaced: a
  // same-count re-render and "delete one row, append another" leave identical pages, and position
  // would then name a different row. The ref must never act on the wrong element, so refuse; the
  // agent re-snapshots. (Rows that differ in any text get distinct contexts and heal above.)
  return { kind: 'stale', reason: 'ambiguous' };
}
