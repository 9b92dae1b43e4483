/**
 * The one way a CSS selector an agent wrote is matched in a page (get, wait --selector, screenshot --selector,
 * snapshot --scope, drag --to-selector): every match in the document and in every open shadow root, in tree order.
 *
 * A selector is also a question about the page, answered by what it matches. Asked about a password's value it
 * is a guessing oracle: `input[value^="P"]` matching or not tells the first letter of a password a page mirrors
 * into its `value` attribute (some frameworks do; a prefilled field has one), and letter by letter the whole of it.
 * The value property is never matched by a selector; the value attribute is. So while a secret field (a password or
 * one-time code: secrets.ts isSecretField) in the searched document carries a non-empty value attribute, a selector
 * that tests the value attribute anywhere in it — `[value…]` however it is spelled (any case, CSS escapes, comments,
 * a namespace, inside :has(), :is() or :not()) — is refused before it is matched, whatever it would match. Without
 * such a field, or for a selector that does not test `value`, nothing changes.
 */
import { isSecretField } from './secrets.js';

/** Why a selector was not matched: not CSS, or it would test a secret's value. */
export type SelectorRefusal = { status: 'bad_selector'; message: string } | { status: 'secret_selector' };

/** `selector` with comments dropped and CSS escapes decoded, lower-cased: what the attribute names in it really are. */
function plainSelector(selector: string): string {
  return selector
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ')
    .replace(/\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\\([^\n\r\f])/g, (_match, hex: string | undefined, char: string | undefined) => {
      if (hex === undefined) return char ?? '';
      const code = Number.parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
    })
    .toLowerCase();
}

/** Whether the selector tests an element's `value` attribute (`[value]`, `[value^=…]`, `[*|value=…]`…). Conservative: text inside a quoted string may count too. */
export function testsValueAttribute(selector: string): boolean {
  return /\[\s*(?:(?:[\w-]*|\*)\|)?value\s*(?:[~|^$*]?=|\])/.test(plainSelector(selector));
}

/** The elements of `root` and of every open shadow root below it, in tree order. */
function allElements(root: Document | ShadowRoot, into: Element[]): Element[] {
  for (const element of root.querySelectorAll('*')) {
    into.push(element);
    if (element.shadowRoot !== null) allElements(element.shadowRoot, into);
  }
  return into;
}

/** Every element matching the agent's `selector` in `root` and its open shadow roots, in tree order; or why not. */
export function agentSelectAll(selector: string, root: Document | ShadowRoot = document): Element[] | SelectorRefusal {
  try {
    root.querySelector(selector);
  } catch (error) {
    return { status: 'bad_selector', message: error instanceof Error ? error.message : String(error) };
  }
  const elements = allElements(root, []);
  if (testsValueAttribute(selector) && elements.some((element) => isSecretField(element) && (element.getAttribute('value') ?? '') !== '')) {
    return { status: 'secret_selector' };
  }
  return elements.filter((element) => element.matches(selector));
}

/** The first match (tree order, open shadow roots included), null when none; or why the selector was not matched. */
export function agentSelectFirst(selector: string, root: Document | ShadowRoot = document): Element | null | SelectorRefusal {
  const found = agentSelectAll(selector, root);
  return Array.isArray(found) ? (found[0] ?? null) : found;
}

export function isRefusal(found: Element | Element[] | null | SelectorRefusal): found is SelectorRefusal {
  return found !== null && !Array.isArray(found) && !(found instanceof Element);
}
