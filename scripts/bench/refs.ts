/**
 * Finding refs in snapshot text, for either tool. Only `ref=eN` inside a line is relied on (both tools print
 * `[ref=eN]`, agent-browser sometimes as `[checked=false, ref=eN]`), the role as the line's first word after the
 * list dash (`- button …`), and the accessible name as a plain substring, so a change of quoting or escaping in
 * the output does not break the bench.
 */

/** The ref (like `e12`) of the first line naming `role` and containing `name`, or undefined. */
export function findRef(snapshot: string, role: string, name: string): string | undefined {
  const roleWord = new RegExp(`^\\s*-\\s+${role}(\\s|:|$)`);
  for (const line of snapshot.split('\n')) {
    if (!roleWord.test(line) || !line.includes(name)) continue;
    const ref = /\bref=(e\d+)\b/.exec(line)?.[1];
    if (ref) return ref;
  }
  return undefined;
}

export function requireRef(snapshot: string, role: string, name: string): string {
  const ref = findRef(snapshot, role, name);
  if (!ref) throw new Error(`no ref for ${role} "${name}" in the snapshot (${snapshot.length} chars): ${snapshot.slice(0, 300)}`);
  return ref;
}
