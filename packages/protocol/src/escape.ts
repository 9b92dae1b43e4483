/**
 * Page content is hostile input, and everything the CLI prints is read by agents line by line and by terminals
 * that obey escape sequences. So no page string may ever, anywhere in our output:
 *   - end a line or start one: \n \r, VT, FF, \x1c–\x1f, NEL (\x85), U+2028/U+2029 (line-based readers such as
 *     Python's splitlines() break on all of them);
 *   - drive the terminal: ESC, BEL, any other C0 or C1 control (CSI \x9b, OSC \x9d), DEL;
 *   - look different to a person than to a program: bidi controls ("Trojan Source") and Unicode tag characters
 *     (U+E0000–U+E007F, invisible text that language models still read);
 *   - close the quotes it sits in.
 * Every such character becomes a \uXXXX escape (\n \r \t where JSON has a short form), which is lossless inside
 * JSON strings: a reader that decodes the quoted string gets the page's exact text back.
 */

/** What JSON.stringify leaves raw (it escapes only C0, `"` and `\`) but a reader must not get raw. */
const RAW_AFTER_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]/g;

/**
 * Everything unsafe in free text: the above plus C0 and lone surrogates (JSON.stringify escapes those itself;
 * a terminal would print a lone one as U+FFFD, hiding that something was there).
 */
const UNSAFE_IN_TEXT =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT_FORMS: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function unicodeEscapes(chars: string): string {
  let out = '';
  for (let i = 0; i < chars.length; i++) out += `\\u${chars.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

function escapeChars(chars: string): string {
  return SHORT_FORMS[chars] ?? unicodeEscapes(chars);
}

/**
 * JSON text of `value` (JSON.stringify with `indent`) in which no string can split a line or reach the terminal
 * raw. Still valid JSON that parses to the same value: JSON syntax outside strings is ASCII, so every character
 * replaced here sits inside a string literal, where \uXXXX means that very character.
 */
export function toSafeJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(RAW_AFTER_JSON, unicodeEscapes);
}

/** A page string as it appears in text output: a JSON string literal that cannot close early or break the line. */
export function quote(text: string): string {
  return toSafeJson(text);
}

/** Free text as one safe line (a human message that may carry page strings): controls become visible escapes. */
export function escapeLine(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, escapeChars);
}

/**
 * Multi-line text chrome-relay composed itself (its newlines are structure): the same escaping for every other
 * character, as a last guard should a page string ever reach it unquoted.
 */
export function escapeText(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, (chars) => (chars === '\n' ? chars : escapeChars(chars)));
}

/**
 * A value of the page printed alone (`get text`, `js`, a response body): its own lines and tabs kept, as the page
 * has them (a table's text is cells between tabs), every other unsafe character escaped as everywhere else.
 */
export function escapeValue(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, (chars) => (chars === '\n' || chars === '\t' ? chars : escapeChars(chars)));
}
