/**
 * The one ref grammar. Refs name elements: `e12` on the wire, and `@e12` or `e12` wherever an agent
 * writes one — a CLI argument or flag, an MCP param, a batch step. Numbers come from one browser-wide
 * counter that never resets (no leading zero, at most 15 digits: below 2^53), so a ref string can never
 * mean two elements. Every reader of refs — the CLI's arguments, the params' schema (fields.ts), the
 * snapshot tree's check (snapshotNode.ts), the MCP wording (cli mcpWords.ts) — uses what is here.
 */

/** The digits of a ref: no leading zero, at most 15 digits. */
const NUMBER = '[1-9][0-9]{0,14}';

/** A ref as an agent may write it: `@e12` or `e12` (the schema's pattern, so MCP clients that check it agree). */
export const REF_INPUT_PATTERN = new RegExp(`^@?e${NUMBER}$`);

/** A ref on the wire: `e12`. */
const WIRE_PATTERN = new RegExp(`^e${NUMBER}$`);

/** `@e12` inside a sentence (messages write refs so), not part of a longer word: group 2 is the wire ref. */
export const REF_IN_TEXT = new RegExp(`(^|[^\\w@])@(e${NUMBER})\\b`, 'g');

/** What the grammar says, for messages: "must be a ref like @e12 (or e12) from a snapshot". */
export const REF_RULE = 'a ref like @e12 (or e12) from `chrome-relay snapshot`';

/** Parse `@e12` or `e12` (surrounding blanks ignored); returns the wire form `e12`, or null if it is not a ref. */
export function parseRef(text: string): string | null {
  const trimmed = text.trim();
  if (!REF_INPUT_PATTERN.test(trimmed)) return null;
  return trimmed.startsWith('@') ? trimmed.slice(1) : trimmed;
}

/** A ref in its wire form (`e12`): what the extension issues and every result carries. */
export function isWireRef(value: unknown): value is string {
  return typeof value === 'string' && WIRE_PATTERN.test(value);
}

/**
 * Whether an argument is meant as a ref rather than something else the same place takes (a CSS selector, an
 * attribute name): a valid ref, or anything written with the `@` only refs carry (then checked as a ref, so
 * `@e0` is a bad ref, never a selector).
 */
export function looksLikeRef(text: string): boolean {
  return text.trim().startsWith('@') || parseRef(text) !== null;
}
