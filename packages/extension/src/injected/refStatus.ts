/**
 * What a ref's lookup in this world comes to: its element, live (found again by identity when it was re-rendered:
 * healed), or stale and why. A file of its own: the page API's contract (types.ts) lists the reads (reads.ts) and the
 * reads answer with it, so in either of the two it would make them import each other.
 */

/**
 * unknown_ref: this world never issued the ref (or a newer snapshot dropped it).
 * vanished: the element left the document and nothing provably the same replaced it.
 * ambiguous: several elements could be the replacement; picking one could hit the wrong one.
 * changed: the element is still there but its role or name changed, so it no longer is what the
 *   agent saw (e.g. "Follow" became "Following").
 * hidden: the last snapshot left the element out because it is hidden (a closed menu, a row's hover
 *   controls); it is still in the page and its ref works again once it shows.
 */
export type StaleReason = 'unknown_ref' | 'vanished' | 'ambiguous' | 'changed' | 'hidden';

export type ResolveOutcome = { status: 'live'; healed: boolean } | { status: 'stale'; reason: StaleReason };
