/**
 * Refs name elements: `e12` on the wire, `@e12` on the command line. Numbers come from one
 * browser-wide counter that never resets, so a ref string can never mean two elements.
 */
const REF_PATTERN = /^@?e([1-9][0-9]{0,14})$/;

/** Parse `@e12` or `e12`; returns the canonical wire form `e12`, or null if it is not a ref. */
export function parseRef(text: string): string | null {
  const match = REF_PATTERN.exec(text.trim());
  return match ? `e${match[1]}` : null;
}
