/**
 * The grammar of the lines `chrome-relay snapshot` prints, as a checker for e2e tests: if page content could
 * produce or alter a line, some line would fail it. Page strings may only appear as JSON string literals.
 *
 *   header   # "title" — "url" [tab=N]           (title may be (untitled))
 *            # modal dialog ["name"] is open: …   (a second header line while a modal dialog is open: our words)
 *   node     INDENT- role ["name"] [state]… [ref=eN] [img: "x"] [site-blocked="rule"] [cut] [: "value" [cut]] [-> "url"] [:]
 *            (a state may be [range=MIN..MAX]: a slider's bounds; a rich-text field's bold and italic runs are child
 *            nodes `strong "…"` / `emphasis "…"`; a value or text keeps its line breaks as \n)
 *   text     INDENT- "text" [cut]                 (a run of plain text; a role not of ours is role="…")
 *   cut      [N chars: snapshot --max-text N] / [N chars: get text|value @eN]   (a string cut: its length, its reader)
 *   marker   INDENT- … N more…  /  N children below --depth…   (chrome-relay's own words: no quotes, no brackets)
 * INDENT is two spaces per level, at most one level deeper than the line before, and a line ends with ':' exactly
 * when the next line is its child.
 */

/** A JSON string literal with no raw control or line separator inside. */
const STRING = String.raw`"(?:[^"\\\u0000-\u001f\u007f-\u009f\u2028\u2029]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"`;
/** A number as JavaScript prints it (a slider's bounds). */
const NUMBER = String.raw`-?\d+(?:\.\d+)?(?:e[+-]\d+)?`;
const STATE = String.raw`\[(?:level=\d+|checked|checked=mixed|disabled|expanded|collapsed|selected|pressed|pressed=mixed|required|multiline|richtext|readonly|focused|offscreen|range=${NUMBER}?\.\.${NUMBER}?|icon|tooltip|label|ref=e[1-9]\d*|img: ${STRING}|site-blocked=${STRING})\]`;
const CUT = String.raw`\[[1-9]\d* chars: (?:snapshot --max-text [1-9]\d*|get (?:text|value) @e[1-9]\d*)\]`;
const HEADER = new RegExp(String.raw`^# (?:\(untitled\)|(${STRING})) — (${STRING}) \[tab=\d+\]$`);
const MODAL = new RegExp(String.raw`^# modal dialog(?: ${STRING})? is open: [^"[\]\\]*$`);
const NODE = new RegExp(String.raw`^((?:  )*)- ([a-z]+|role=${STRING}|${STRING})(?: (${STRING}))?((?: ${STATE})*)(?: ${CUT})?(?:: (${STRING})(?: ${CUT})?)?(?: -> (${STRING}))?(:?)$`);
const QUOTED = new RegExp(STRING, 'g');
const MARKER = /^((?: {2})*)- … \d+ [^"[\]\\]*$/;

export interface CheckedSnapshot {
  /** Lines that do not fit the grammar (with their number). */
  problems: string[];
  /** Every [ref=eN] outside quotes, in order. */
  refs: string[];
  /** Every quoted page string, decoded. */
  strings: string[];
  title: string | undefined;
  url: string | undefined;
}

export function checkSnapshotText(text: string): CheckedSnapshot {
  const lines = text.replace(/\n$/, '').split('\n');
  const result: CheckedSnapshot = { problems: [], refs: [], strings: [], title: undefined, url: undefined };
  const header = HEADER.exec(lines[0] ?? '');
  if (header === null) result.problems.push(`1: not a header: ${JSON.stringify(lines[0])}`);
  else {
    result.title = header[1] === undefined ? '' : (JSON.parse(header[1]) as string);
    result.url = JSON.parse(header[2] ?? '""') as string;
  }
  let previousDepth = -1;
  let previousOpens = true;
  const modal = MODAL.test(lines[1] ?? '') ? 1 : 0;
  lines.slice(1 + modal).forEach((line, i) => {
    const number = i + 2 + modal;
    const node = NODE.exec(line);
    const marker = node === null ? MARKER.exec(line) : null;
    if (node === null && marker === null) {
      result.problems.push(`${number}: not a snapshot line: ${JSON.stringify(line)}`);
      previousOpens = false;
      return;
    }
    const depth = ((node ?? marker)?.[1] ?? '').length / 2;
    // A deeper line must follow a line that opened (':'); an opening line must be followed by a deeper one.
    if (depth > previousDepth + 1 || (depth === previousDepth + 1) !== previousOpens) result.problems.push(`${number}: bad nesting: ${JSON.stringify(line)}`);
    if (node !== null) {
      const role = node[2]?.startsWith('role=') === true ? node[2].slice('role='.length) : node[2];
      for (const literal of [role?.startsWith('"') === true ? role : undefined, node[3], node[5], node[6]]) {
        if (literal !== undefined) result.strings.push(JSON.parse(literal) as string);
      }
      // A state's quoted value (a site-blocked rule) is not looked into for refs.
      for (const match of (node[4] ?? '').replace(QUOTED, '""').matchAll(/\[ref=(e\d+)\]/g)) if (match[1] !== undefined) result.refs.push(match[1]);
      previousOpens = node[7] === ':';
    } else {
      previousOpens = false;
    }
    previousDepth = depth;
  });
  if (previousOpens && previousDepth >= 0) result.problems.push(`${lines.length}: the last line opens a block with nothing in it`);
  return result;
}

/** Raw characters that split lines for some reader or drive a terminal (everything escape.ts escapes but \n). */
export const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]/;
