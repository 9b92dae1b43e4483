/**
 * Text that CSS generated content (`::before` / `::after`) puts into an element, which counts in a name from
 * content (accname 1.2, step 2F.ii): an icon button whose only label is `content: "×"` is named "×" in Chrome's
 * accessibility tree, and so in ours.
 *
 * The computed `content` value is a list of strings, functions and keywords, optionally followed by `/ alternative
 * text` (which replaces the visible text for assistive technology). Only strings and `attr()` produce text; images,
 * counters and quote keywords are left out (Chrome reads counters too; they number lists, rarely name controls).
 */

/** The text of a computed `content` value; `attribute` reads an attribute of the element it belongs to. */
export function contentText(content: string, attribute: (name: string) => string): string {
  if (content === 'none' || content === 'normal' || content === '') return '';
  const visible: string[] = [];
  const alternative: string[] = [];
  let out = visible;
  let i = 0;
  while (i < content.length) {
    const char = content[i] ?? '';
    if (char === '"' || char === "'") {
      const [text, next] = readString(content, i);
      out.push(text);
      i = next;
    } else if (char === '/') {
      // What follows is the alternative text: it replaces the visible text in the name.
      out = alternative;
      i++;
    } else if (/\s/.test(char)) {
      i++;
    } else {
      const match = /^([a-zA-Z-]+)\(/.exec(content.slice(i));
      if (match !== null && match[1] !== undefined) {
        const end = closingParen(content, i + match[0].length);
        if (match[1].toLowerCase() === 'attr') out.push(attribute(content.slice(i + match[0].length, end).trim().split(/\s+/)[0] ?? ''));
        i = end + 1;
      } else {
        // A keyword (open-quote, no-close-quote…): no text of its own here.
        while (i < content.length && !/[\s/"']/.test(content[i] ?? '')) i++;
      }
    }
  }
  return (out === alternative ? alternative : visible).join('');
}

/** A CSS string starting at `start` (a quote): its text (escapes decoded) and the index after it. */
function readString(source: string, start: number): [string, number] {
  const quote = source[start];
  let text = '';
  let i = start + 1;
  while (i < source.length && source[i] !== quote) {
    const char = source[i] ?? '';
    if (char !== '\\') {
      text += char;
      i++;
      continue;
    }
    const hex = /^[0-9a-fA-F]{1,6} ?/.exec(source.slice(i + 1));
    if (hex !== null) {
      const code = parseInt(hex[0], 16);
      text += code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      i += 1 + hex[0].length;
    } else {
      // An escaped newline continues the string; any other escaped character is itself.
      if (source[i + 1] !== '\n') text += source[i + 1] ?? '';
      i += 2;
    }
  }
  return [text, i + 1];
}

function closingParen(source: string, from: number): number {
  let depth = 1;
  for (let i = from; i < source.length; i++) {
    const char = source[i];
    if (char === '"' || char === "'") i = readString(source, i)[1] - 1;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return i;
  }
  return source.length;
}

/** The text an element's `::before` or `::after` adds (empty when it has none or it is not displayed). */
export function pseudoText(element: Element, which: '::before' | '::after'): string {
  const style = getComputedStyle(element, which);
  const content = style.content;
  if (content === 'none' || content === 'normal' || content === '' || style.display === 'none') return '';
  return contentText(content, (name) => element.getAttribute(name) ?? '');
}
