/**
 * Snapshot tree → the indented text agents read. One line per node:
 *   # "Page title" — "https://example.com/" [tab=12]
 *   - button "Submit" [disabled] [ref=e12]
 *   - textbox "Email" [ref=e4]: "current value"
 *   - link "Home" [ref=e3] -> "/home"          (with --urls)
 *   - "free text"                               (a run of plain text: the string alone)
 *   - iframe "Bank" [ref=e9] [site-blocked="bank.example.com"]   (a frame showing a site the person blocked: the rule)
 *   - button "trash" [icon] [ref=e7]            (a name Chrome leaves empty, inferred: [icon], [tooltip], [label])
 *   - gridcell [ref=e8] [img: "x"]               (the image the element draws through CSS: its state)
 *   - textbox [ref=e9]: "Lorem ipsum…" [560 chars: get value @e9]   (a cut string: its whole length and the reader)
 *   - slider "Volume" [range=0..100] [ref=e5]: "20"   (the bounds a slider or spin button moves between)
 *   - textbox [richtext] [ref=e8]: "A careful changelog.\nSecond line":   (a rich-text field: its lines, then
 *     - strong "careful"                                                     its bold and italic runs)
 * Every string the page controls (names, text, values, URLs, the title) is a JSON string literal with every
 * control and line separator escaped (escape.ts), so page content can neither close its quotes nor start a line:
 * structure outside quotes — roles, [ref=eN], states, indentation — only ever comes from chrome-relay.
 */
import { escapeLine, quote, type SnapshotNode } from '@chrome-relay/protocol';

export interface RenderOptions {
  urls?: boolean;
}

export interface SnapshotHeading {
  title: string;
  url: string;
  tabId: number;
  /** A modal dialog is open (its name): the page outside it was left out. */
  modal?: string | undefined;
}

/** The first line of a text snapshot: which page, which tab (and a second one when a modal dialog hides the rest). */
export function renderSnapshotHeader(page: SnapshotHeading): string {
  const head = `# ${page.title === '' ? '(untitled)' : quote(page.title)} — ${quote(page.url)} [tab=${page.tabId}]`;
  if (page.modal === undefined) return head;
  const name = page.modal === '' ? '' : ` ${quote(page.modal)}`;
  return `${head}\n# modal dialog${name} is open: only its content is shown and has refs; close it to reach the page behind it`;
}

/** Roles come from the extension's own table; anything else (a bug, another build) is shown as data, marked as a role. */
function roleText(role: string): string {
  return /^[a-z]+$/.test(role) ? role : `role=${quote(role)}`;
}

/** A run of text and nothing else: printed as its quoted string alone. */
function isPlainText(node: SnapshotNode): boolean {
  const { role, name, children, ...rest } = node;
  return role === 'text' && name !== undefined && name !== '' && (children === undefined || children.length === 0) && Object.values(rest).every((value) => value === undefined);
}

function attributes(node: SnapshotNode): string {
  const parts: string[] = [];
  if (node.level !== undefined) parts.push(`[level=${node.level}]`);
  if (node.checked === 'true') parts.push('[checked]');
  else if (node.checked === 'mixed') parts.push('[checked=mixed]');
  if (node.disabled) parts.push('[disabled]');
  if (node.expanded !== undefined) parts.push(node.expanded ? '[expanded]' : '[collapsed]');
  if (node.selected) parts.push('[selected]');
  if (node.pressed === 'true') parts.push('[pressed]');
  else if (node.pressed === 'mixed') parts.push('[pressed=mixed]');
  if (node.required) parts.push('[required]');
  if (node.multiline) parts.push('[multiline]');
  if (node.richtext) parts.push('[richtext]');
  if (node.readonly) parts.push('[readonly]');
  if (node.focused) parts.push('[focused]');
  if (node.offscreen) parts.push('[offscreen]');
  if (node.min !== undefined || node.max !== undefined) parts.push(`[range=${node.min ?? ''}..${node.max ?? ''}]`);
  if (node.nameFrom !== undefined) parts.push(`[${node.nameFrom}]`);
  if (node.ref) parts.push(`[ref=${node.ref}]`);
  if (node.img !== undefined) parts.push(`[img: ${quote(node.img)}]`);
  // The person's own rule, not page text, but quoted all the same: a glob rule may hold any character but a space.
  if (node.siteBlocked !== undefined) parts.push(`[site-blocked=${quote(node.siteBlocked)}]`);
  return parts.length ? ` ${parts.join(' ')}` : '';
}

/** Where a string was cut: its whole length, and how to read it whole (a reader by ref, else a higher cut). */
function cutMark(length: number, reader: string | undefined): string {
  return `[${length} chars: ${reader ?? `snapshot --max-text ${length}`}]`;
}

function renderNode(node: SnapshotNode, depth: number, out: string[], options: RenderOptions): void {
  const indent = '  '.repeat(depth);
  if (node.role === 'elided') {
    // A marker the extension wrote in place of nodes it left out (identical runs, --depth): its own words.
    out.push(`${indent}- … ${escapeLine(node.name ?? '')}`);
    return;
  }
  const children = node.children ?? [];
  if (isPlainText(node) || (node.role === 'text' && node.nameLength !== undefined && children.length === 0 && node.ref === undefined)) {
    // Plain text is most of a page's lines: the string alone says it (one token less per line than `text "…"`).
    out.push(`${indent}- ${quote(node.name ?? '')}${node.nameLength === undefined ? '' : ` ${cutMark(node.nameLength, undefined)}`}`);
    return;
  }
  let line = `${indent}- ${roleText(node.role)}`;
  if (node.name) line += ` ${quote(node.name)}`;
  line += attributes(node);
  if (node.nameLength !== undefined) line += ` ${cutMark(node.nameLength, node.ref === undefined ? undefined : `get text @${node.ref}`)}`;
  if (node.value !== undefined && node.value !== '') line += `: ${quote(node.value)}`;
  if (node.valueLength !== undefined) line += ` ${cutMark(node.valueLength, node.ref === undefined ? undefined : `get value @${node.ref}`)}`;
  if (options.urls && node.url) line += ` -> ${quote(node.url)}`;
  if (children.length > 0) line += ':';
  out.push(line);
  for (const child of children) renderNode(child, depth + 1, out, options);
}

export function renderSnapshot(tree: readonly SnapshotNode[], options: RenderOptions = {}): string {
  const out: string[] = [];
  for (const node of tree) renderNode(node, 0, out, options);
  return out.join('\n');
}

/**
 * Cut rendered text to at most `maxChars`, at a line boundary, with a marker an agent cannot miss
 * that says how much is missing and how to narrow the snapshot instead.
 */
export function truncateSnapshot(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n', maxChars);
  const kept = cut > 0 ? text.slice(0, cut) : text.slice(0, maxChars);
  const totalLines = text.split('\n').length;
  const keptLines = kept.split('\n').length;
  return (
    `${kept}\n` +
    `!!! TRUNCATED: showing ${kept.length} of ${text.length} characters (${keptLines} of ${totalLines} lines). ` +
    'The refs below the cut exist but are not shown. Narrow with --scope @ref|css, --interactive or --depth N, or raise --max-chars.'
  );
}

type DiffOp = { op: '+' | '-' | ' '; line: string };

/** Line diff (Myers, O((N+M)·D)): unchanged lines keep refs aligned, so a re-render shows as little. */
export function diffLines(before: readonly string[], after: readonly string[]): DiffOp[] {
  const n = before.length;
  const m = after.length;
  const max = n + m;
  const offset = max;
  let v = new Array<number>(2 * max + 2).fill(0);
  const trace: number[][] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && before[x] === after[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  trace.push(v);
  // Walk back through the recorded frontiers to recover the edit script.
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 2; d >= 0 && (x > 0 || y > 0); d--) {
    v = trace[d] ?? [];
    const k = x - y;
    const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ op: ' ', line: before[x - 1] ?? '' });
      x--;
      y--;
    }
    if (d > 0) {
      if (down) ops.push({ op: '+', line: after[y - 1] ?? '' });
      else ops.push({ op: '-', line: before[x - 1] ?? '' });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/**
 * What changed since the previous snapshot, as changed lines only ("+ " added, "- " removed),
 * each under the nearest unchanged ancestor line so the agent knows where it is.
 */
export function renderSnapshotDiff(previous: readonly SnapshotNode[] | null, current: readonly SnapshotNode[], options: RenderOptions = {}): string {
  const now = renderSnapshot(current, options);
  if (previous === null) return `(no previous snapshot of this tab to compare with: full snapshot follows)\n${now}`;
  const ops = diffLines(renderSnapshot(previous, options).split('\n'), now.split('\n'));
  const added = ops.filter((o) => o.op === '+').length;
  const removed = ops.filter((o) => o.op === '-').length;
  if (added === 0 && removed === 0) return '(no changes since the previous snapshot)';
  const lines = (n: number): string => `${n} line${n === 1 ? '' : 's'}`;
  const out = [`(${lines(added)} added, ${removed} removed since the previous snapshot)`];
  const depthOf = (line: string): number => line.length - line.trimStart().length;
  /** Unchanged lines seen so far, as a stack of ancestors by indentation. */
  const ancestors: string[] = [];
  let shown = new Set<string>();
  for (const { op, line } of ops) {
    if (op === ' ') {
      while (ancestors.length > 0 && depthOf(ancestors[ancestors.length - 1] ?? '') >= depthOf(line)) ancestors.pop();
      ancestors.push(line);
      continue;
    }
    const parents = ancestors.filter((a) => depthOf(a) < depthOf(line));
    const parent = parents[parents.length - 1];
    if (parent !== undefined && !shown.has(parent)) {
      out.push(`  ${parent}`);
      shown = new Set([parent]);
    }
    out.push(`${op} ${line}`);
  }
  return out.join('\n');
}

/** What `chrome-relay snapshot` prints (and the MCP server returns): the header, then the tree, its diff, or a cut of it. */
export function snapshotText(
  result: SnapshotHeading & { tree: readonly SnapshotNode[]; previous?: readonly SnapshotNode[] | null | undefined },
  options: RenderOptions & { diff?: boolean; maxChars?: number | undefined } = {},
): string {
  const render = { urls: options.urls === true };
  const body = options.diff === true ? renderSnapshotDiff(result.previous ?? null, result.tree, render) : renderSnapshot(result.tree, render);
  return `${renderSnapshotHeader(result)}\n${options.maxChars === undefined ? body : truncateSnapshot(body, options.maxChars)}`;
}
