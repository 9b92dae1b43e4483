/**
 * Which ref each actionable element of a new snapshot gets (pure, unit-tested; the walker supplies the keys).
 *
 * 1. An element that already has a ref keeps it while its role and name are unchanged.
 * 2. Apps that re-render a whole list (jQuery templates, React lists without stable keys) replace every element
 *    between two snapshots. A ref whose element has left the page goes to the new element that the heal's own
 *    identity check proves is its copy (identity.ts: same role, name and context; exactly one candidate not
 *    answering to another ref; never true twins). So the refs an agent just read survive the next snapshot.
 * 3. Every other element gets the next free number, in document order.
 */
import { decideHeal } from './identity.js';

export interface Placed<E> {
  element: E;
  role: string;
  name: string;
  /** identityKey(role, name, context). */
  key: string;
}

/** A ref of the previous snapshot whose element has left the page. */
export interface Vanished {
  ref: string;
  key: string;
  twinCount: number;
}

export interface Assignment {
  /** Aligned with the actionables. */
  refs: string[];
  nextRef: number;
  /** Refs of vanished elements given to their re-rendered copies. */
  carried: string[];
}

export function assignRefs<E>(
  actionables: readonly Placed<E>[],
  ownRef: (element: E) => { ref: string; role: string; name: string } | undefined,
  vanished: readonly Vanished[],
  firstFree: number,
): Assignment {
  const refs: (string | undefined)[] = actionables.map((actionable) => {
    const own = ownRef(actionable.element);
    // A ref must keep meaning what the agent saw ("Follow" turning into "Following" is a new ref).
    return own !== undefined && own.role === actionable.role && own.name === actionable.name ? own.ref : undefined;
  });
  const byKey = new Map<string, number[]>();
  actionables.forEach((actionable, i) => {
    const list = byKey.get(actionable.key);
    if (list === undefined) byKey.set(actionable.key, [i]);
    else list.push(i);
  });
  const carried: string[] = [];
  for (const gone of vanished) {
    const decision = decideHeal({ twinCount: gone.twinCount, matches: byKey.get(gone.key) ?? [], boundElsewhere: (i) => refs[i] !== undefined });
    if (decision.kind === 'heal') {
      refs[decision.element] = gone.ref;
      carried.push(gone.ref);
    }
  }
  let nextRef = firstFree;
  return { refs: refs.map((ref) => ref ?? `e${nextRef++}`), nextRef, carried };
}
