/**
 * The person's secrets among the fields of a page, and what an agent is shown of them: the one rule every road
 * applies (the snapshot's values, `get` by ref or selector, `fill`'s answer, the selectors that could test a value).
 */

/**
 * What an agent is shown of a secret field's value, by every road (the snapshot, `get`, `fill`'s answer): never the
 * value, nor its length.
 */
export const SECRET_MASK = '••••••';

/** A field whose value is a secret of the person's: a password, or a code the page asks for as one. */
export function isSecretField(element: Element): boolean {
  if (element.localName !== 'input') return false;
  const input = element as HTMLInputElement;
  return input.type === 'password' || /\b(current-password|new-password|one-time-code)\b/.test(input.autocomplete);
}
