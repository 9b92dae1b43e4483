/**
 * Text that keeps its structure. A snapshot collapses the whitespace of ordinary text, as a browser renders it; but
 * where the page keeps its whitespace (`<pre>`, `white-space: pre*`: code, poems, chat messages) and at a `<br>`,
 * the line breaks and the indentation are what the text says, so they are kept (`"alpha();\n  beta();"`, never
 * `"alpha(); beta();"`).
 *
 * A rich-text field (a contenteditable editing host) is read the same way: one line per block a person sees as a line
 * (a paragraph, a CodeMirror `.cm-line`, a list item) and per `<br>`, indentation kept; plus the runs of its text
 * shown in bold or in italics, because there formatting is part of what the field holds (an agent that bolds a word
 * must be able to read it back). Outside editors emphasis is the page's styling, and costs tokens for nothing.
 */

/** How an element's text treats whitespace: collapsed (normal), kept as written (pre, pre-wrap), or only its line breaks kept (pre-line). */
export type Spaces = 'collapse' | 'preserve' | 'breaks';

type SpaceStyle = Pick<CSSStyleDeclaration, 'whiteSpace'> & { whiteSpaceCollapse?: string };

/** The whitespace mode of a computed style: `white-space-collapse` where the browser has it, else `white-space`. */
export function spacesOf(style: SpaceStyle): Spaces {
  const collapse = style.whiteSpaceCollapse;
  if (collapse !== undefined && collapse !== '') {
    if (collapse === 'preserve' || collapse === 'break-spaces') return 'preserve';
    return collapse === 'preserve-breaks' ? 'breaks' : 'collapse';
  }
  const whiteSpace = style.whiteSpace;
  if (whiteSpace === 'pre' || whiteSpace === 'pre-wrap' || whiteSpace === 'break-spaces') return 'preserve';
  return whiteSpace === 'pre-line' ? 'breaks' : 'collapse';
}

/** Whitespace a mode other than `collapse` would render differently: a line break, a tab, two spaces, a space at an edge. */
export function mayKeepSpaces(data: string): boolean {
  return /[\n\r\t]| {2}|^ | $/.test(data);
}

/** A text node's data as it renders in a mode that keeps something (`breaks`: spaces collapse, line breaks stay). */
export function keptText(data: string, spaces: Exclude<Spaces, 'collapse'>): string {
  const text = data.replace(/\r\n?/g, '\n');
  return spaces === 'preserve' ? text : text.replace(/[ \t\f]+/g, ' ').replace(/ ?\n ?/g, '\n');
}

/** One piece of a run of text: collapsed as usual, or `kept` as written (pre-formatted text, a <br>'s line break). */
export interface Piece {
  text: string;
  kept: boolean;
}

/**
 * One run of text from its pieces. Without kept pieces: whitespace collapsed and trimmed, as ever. With them: the
 * collapsed pieces collapse among themselves, kept ones stay as written; blank lines at the start, spaces ending a
 * line (nobody sees them) and whitespace at the end go, and the first line keeps its indentation.
 */
export function joinPieces(pieces: readonly Piece[]): string {
  if (!pieces.some((piece) => piece.kept)) return pieces.map((piece) => piece.text).join('').replace(/\s+/g, ' ').trim();
  let out = '';
  let loose = '';
  const flushLoose = (): void => {
    // Collapsed text at the start of the run is trimmed like any block's first words.
    out += out === '' ? loose.replace(/\s+/g, ' ').trimStart() : loose.replace(/\s+/g, ' ');
    loose = '';
  };
  for (const piece of pieces) {
    if (piece.kept) {
      flushLoose();
      out += piece.text;
    } else {
      loose += piece.text;
    }
  }
  flushLoose();
  return out
    .replace(/[ \t]+\n/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .replace(/\s+$/, '');
}

/** Displays whose box sits in a line of text; every other box starts a line of its own. */
const INLINE_DISPLAYS = new Set(['inline', 'inline-block', 'inline-flex', 'inline-grid', 'inline-table', 'contents', 'ruby', 'ruby-text']);
const UNRENDERED_TAGS = new Set(['script', 'style', 'template', 'noscript']);

export type EmphasisKind = 'strong' | 'emphasis';

export interface Emphasis {
  /** `strong`: shown bold (heavier than the field's own text); `emphasis`: shown in italics. ARIA's role names. */
  kind: EmphasisKind;
  text: string;
}

export interface TextLines {
  /** The text, one line per block and per <br>, exactly as typed within a line where white-space keeps it. */
  text: string;
  /** Its bold and italic runs, in reading order (at most MAX_EMPHASIS), when asked for. */
  emphasis: Emphasis[];
  /** Emphasised runs past MAX_EMPHASIS, not listed. */
  moreEmphasis: number;
}

/** Emphasised runs listed per field: a document in bold throughout says so in a few lines, not hundreds. */
export const MAX_EMPHASIS = 20;

function heavy(fontWeight: string): boolean {
  const weight = fontWeight === 'bold' || fontWeight === 'bolder' ? 700 : Number.parseFloat(fontWeight);
  return Number.isFinite(weight) && weight >= 600;
}

function slanted(fontStyle: string): boolean {
  return fontStyle.startsWith('italic') || fontStyle.startsWith('oblique');
}

interface Look {
  spaces: Spaces;
  strong: boolean;
  emphasis: boolean;
  /** How the nearest block (or the field) draws its text: emphasis is inline text unlike its block. */
  blockStrong: boolean;
  blockEmphasis: boolean;
}

/**
 * The text of an element's rendered content, lines as a person sees them (display:none and invisible parts left
 * out): what a rich-text field holds, and how many lines a field's neighbour spans (names.ts). Lines:
 * a block starts a line unless the current one is still empty, and ends it; a <br> ends one. So a <br> that ends a
 * block adds no line, as a browser draws it (ProseMirror's trailing break), and an empty block's <br> is one empty
 * line (an empty paragraph, an empty CodeMirror line). Emphasis is text drawn unlike its block: a bold word in a
 * paragraph is a run, a heading (bold as a whole) or a field whose text is all bold is not.
 */
export function textLines(host: Element, wantEmphasis = true): TextLines {
  const lines: string[] = [''];
  const emphasis: Emphasis[] = [];
  let moreEmphasis = 0;
  // The run being read of each kind (`run: null`: one past MAX_EMPHASIS, counted once, not listed).
  const open: Record<EmphasisKind, { run: Emphasis | null; tail: string } | null> = { strong: null, emphasis: null };
  const hostStyle = getComputedStyle(host);
  const strong = heavy(hostStyle.fontWeight);
  const emphasised = slanted(hostStyle.fontStyle);
  const base: Look = { spaces: spacesOf(hostStyle), strong, emphasis: emphasised, blockStrong: strong, blockEmphasis: emphasised };

  const close = (kind: EmphasisKind): void => {
    const run = open[kind]?.run;
    open[kind] = null;
    if (run === null || run === undefined) return;
    run.text = run.text.replace(/\s+/g, ' ').trim();
    if (run.text === '') emphasis.splice(emphasis.indexOf(run), 1);
  };
  const mark = (kind: EmphasisKind, on: boolean, text: string): void => {
    const current = open[kind];
    if (on) {
      if (current !== null) {
        if (current.run !== null) current.run.text += current.tail + text;
        current.tail = '';
      } else if (text.trim() !== '') {
        let run: Emphasis | null = null;
        if (emphasis.length >= MAX_EMPHASIS) moreEmphasis++;
        else emphasis.push((run = { kind, text }));
        open[kind] = { run, tail: '' };
      }
    } else if (current !== null) {
      // Plain spaces between two bold words keep the run open ("<b>quick</b> <b>brown</b>" is one run).
      if (text.trim() === '') current.tail += ' ';
      else close(kind);
    }
  };
  const newLine = (): void => {
    lines.push('');
    close('strong');
    close('emphasis');
  };
  const lineHasText = (): boolean => (lines[lines.length - 1] ?? '') !== '';
  const write = (text: string, look: Look): void => {
    const parts = text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) newLine();
      if (part === '') return;
      lines[lines.length - 1] += part;
      if (wantEmphasis) {
        mark('strong', look.strong && !look.blockStrong, part);
        mark('emphasis', look.emphasis && !look.blockEmphasis, part);
      }
    });
  };

  const visit = (node: Node, look: Look): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      const data = (node as Text).data;
      if (look.spaces === 'collapse') {
        const text = data.replace(/[ \t\n\r\f]+/g, ' ');
        // Collapsed spaces at the start of a line are not drawn.
        write(lineHasText() ? text : text.trimStart(), look);
      } else {
        write(keptText(data, look.spaces), look);
      }
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const element = node as Element;
    const tag = element.localName;
    if (UNRENDERED_TAGS.has(tag)) return;
    const style = getComputedStyle(element);
    const display = style.display;
    if (display === 'none') return;
    if (tag === 'br') {
      newLine();
      return;
    }
    // A block starts a line of its own and ends it. A line a <br> opened and nothing filled is no line: a <br> ending
    // a block draws none (`<p>a<br></p>` is one line), an empty paragraph's <br> is its one empty line.
    const block = !INLINE_DISPLAYS.has(display);
    let inner = look;
    if (style.visibility === 'visible') {
      const own = { strong: wantEmphasis && heavy(style.fontWeight), emphasis: wantEmphasis && slanted(style.fontStyle) };
      inner = { spaces: spacesOf(style), ...own, blockStrong: block ? own.strong : look.blockStrong, blockEmphasis: block ? own.emphasis : look.blockEmphasis };
    }
    if (block && lineHasText()) newLine();
    const children = element.localName === 'slot' && element instanceof HTMLSlotElement && element.assignedNodes().length > 0 ? element.assignedNodes() : (element.shadowRoot ?? element).childNodes;
    if (style.visibility === 'visible') {
      for (const child of children) visit(child, inner);
    } else {
      // visibility:hidden hides the element's own text, not children that set visibility:visible.
      for (const child of children) if (child.nodeType === Node.ELEMENT_NODE) visit(child, inner);
    }
    if (block && lineHasText()) newLine();
  };

  const children = (host.shadowRoot ?? host).childNodes;
  for (const child of children) visit(child, base);
  close('strong');
  close('emphasis');
  // The line the last block or <br> opened holds nothing yet: it is not a line of the text.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return { text: lines.map((line) => (base.spaces === 'collapse' ? line.trimEnd() : line)).join('\n'), emphasis, moreEmphasis };
}

/**
 * Pure: does a rich-text field whose text reads `held` (textLines) hold the text `typed` into it? Only what nobody can
 * see may differ: line endings (`\r\n`), a no-break space for a space (an editor keeps a typed run of spaces with
 * them), spaces ending a line, and blank lines or spaces after the last text (a paragraph an editor keeps at the end,
 * or drops). A line break dropped or turned into a space, a character changed, added or missing is other text.
 */
export function holdsTyped(held: string, typed: string): boolean {
  const seen = (text: string): string =>
    text
      .replace(/\r\n?/g, '\n')
      .replace(/\u00a0/g, ' ')
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\s+$/, '');
  return seen(held) === seen(typed);
}

