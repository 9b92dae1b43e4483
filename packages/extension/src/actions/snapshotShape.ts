/**
 * Shaping a snapshot tree for an agent's context (pure, unit-tested): --interactive, --depth and
 * elision of long runs of identical siblings. Refs are issued for the whole page before shaping,
 * so every ref keeps working whether or not it is shown.
 *
 * --interactive keeps every ref and only the structure that tells them apart:
 *   - named containers (landmarks, dialogs, headings, named groups) stay, with their names;
 *   - a row, list item, article or group whose controls together look exactly like another container's (the
 *     "Open" of each row, an unnamed checkbox in each item) stays, named by a short summary of its own text, so
 *     `button "Open" [ref=e43]` reads as belonging to "Item 5";
 *   - one holding several controls, one of which cannot be told apart by its own name, stays unnamed to group them;
 *   - other unnamed wrappers (cells, rows, list items, lists, tables, generic boxes) give way to their content.
 * A dropdown's choices (options without refs: no pointer reaches a native dropdown's popup) are listed under it,
 * all of them, the selected one marked (a list without it reads as if it were not a choice); a rich-text field's bold
 * and italic runs stay under it. A container named exactly like its only child, a ref (a heading around its
 * link), drops the repeated name.
 *
 * Elision is deliberately narrow: only siblings whose subtrees are identical in everything the
 * agent would read (role, name, value, states, url, children), refs excepted, are elided — the
 * agent loses nothing but the ref numbers of look-alikes. Rows "Item 1".."Item 1500" are all
 * distinct and are never elided in a full snapshot, however many there are (narrow those with --scope, --depth
 * or --max-chars instead). With --interactive, rows that differ only in their summaries are elided too (the
 * marker says so): the controls in them are the same, and --no-elide lists every one.
 */
import type { SnapshotNode } from '@chrome-relay/protocol';

/** Role of the marker nodes shaping inserts; they carry no ref. */
export const ELIDED_ROLE = 'elided';

/** A run of identical siblings longer than this is cut to its first KEEP_HEAD and last KEEP_TAIL items. */
export const ELIDE_RUN = 12;
const KEEP_HEAD = 10;
const KEEP_TAIL = 2;

export interface ShapeOptions {
  interactive?: boolean;
  depth?: number;
  elide?: boolean;
}

/** Containers that give an ambiguous control its context in --interactive. */
const CONTEXT_ROLES = new Set(['row', 'listitem', 'article', 'group', 'treeitem']);
/** Unnamed wrappers --interactive replaces by their content. */
const WRAPPER_ROLES = new Set(['row', 'listitem', 'article', 'group', 'treeitem', 'cell', 'gridcell', 'rowgroup', 'generic', 'none', 'paragraph', 'list', 'table']);
/** Characters of a context summary. */
export const SUMMARY_CAP = 32;
/** Containers that must look alike before each gets a summary. */
const MIN_LOOK_ALIKES = 2;

/** What one shaping run knows: fingerprints, and which names are summaries (elision may ignore those). */
interface Shaping {
  prints: Map<SnapshotNode, string>;
  summarized: WeakSet<SnapshotNode>;
  /** How many refs have each role + name: a control named like another cannot be told apart by itself. */
  names: Map<string, number>;
  /** Summaries of the context containers whose controls look exactly like another container's. */
  summaryOfContainer: Map<SnapshotNode, string>;
}

/** Everything an agent reads in a node's subtree, without refs (and, with `loose`, without summaries). */
function fingerprint(node: SnapshotNode, shaping: Shaping, loose: boolean): string {
  const known = loose ? undefined : shaping.prints.get(node);
  if (known !== undefined) return known;
  const { ref: _ref, children, ...rest } = node;
  if (loose && shaping.summarized.has(node)) delete rest.name;
  const print = JSON.stringify(rest) + (children === undefined ? '' : `[${children.map((child) => fingerprint(child, shaping, loose)).join(',')}]`);
  if (!loose) shaping.prints.set(node, print);
  return print;
}

const nameKey = (node: SnapshotNode): string => `${node.role}\u0000${node.name ?? ''}`;

function countNames(nodes: readonly SnapshotNode[], names: Map<string, number>): void {
  for (const node of nodes) {
    if (node.ref !== undefined) names.set(nameKey(node), (names.get(nameKey(node)) ?? 0) + 1);
    if (node.children !== undefined) countNames(node.children, names);
  }
}

/** The role + name of the refs a context container holds (not those of nested context containers), in order. */
function comboOf(nodes: readonly SnapshotNode[], out: string[] = []): string[] {
  for (const node of nodes) {
    if (node.ref !== undefined) out.push(nameKey(node));
    if (node.ref === undefined && CONTEXT_ROLES.has(node.role)) continue;
    if (node.children !== undefined) comboOf(node.children, out);
  }
  return out;
}

function isContextContainer(node: SnapshotNode): boolean {
  return node.ref === undefined && (node.name === undefined || node.name === '') && CONTEXT_ROLES.has(node.role);
}

/** Context containers grouped by the controls they hold. */
function groupByCombo(nodes: readonly SnapshotNode[], groups: Map<string, SnapshotNode[]>): void {
  for (const node of nodes) {
    if (node.children === undefined) continue;
    if (isContextContainer(node)) {
      const combo = comboOf(node.children).join('\u0001');
      if (combo !== '') {
        const group = groups.get(combo);
        if (group === undefined) groups.set(combo, [node]);
        else group.push(node);
      }
    }
    groupByCombo(node.children, groups);
  }
}

/**
 * For each group of look-alike containers, each one's summary: the shortest run of leading words of its own text
 * (at least two) that no other container of the group starts with ("Item 5" of "Item 5 185"), within about
 * SUMMARY_CAP characters; none when that much does not tell it apart.
 */
function lookAlikeSummaries(tree: readonly SnapshotNode[]): Map<SnapshotNode, string> {
  const groups = new Map<string, SnapshotNode[]>();
  groupByCombo(tree, groups);
  const out = new Map<SnapshotNode, string>();
  for (const group of groups.values()) {
    if (group.length < MIN_LOOK_ALIKES) continue;
    const words = group.map((node) => summaryOf(node.children ?? []).split(' ').filter((word) => word !== ''));
    const longest = Math.max(...words.map((list) => list.length));
    const settled = new Array<boolean>(group.length).fill(false);
    for (let k = 2; k <= longest + 1 && settled.includes(false); k++) {
      const counts = new Map<string, number>();
      const prefixes = words.map((list) => list.slice(0, k).join(' '));
      for (const prefix of prefixes) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
      prefixes.forEach((prefix, i) => {
        const node = group[i];
        if (settled[i] === true || node === undefined) return;
        const unique = counts.get(prefix) === 1;
        const whole = k >= (words[i]?.length ?? 0);
        if (!unique && !whole && prefix.length < SUMMARY_CAP) return;
        settled[i] = true;
        // A long start that still does not tell it apart is left out: it would cost tokens and say nothing. (Whole
        // texts that are the same are kept: they say what the rows are, and that they are twins.)
        if (prefix === '' || (!unique && !whole)) return;
        out.set(node, prefix.length > SUMMARY_CAP ? `${prefix.slice(0, SUMMARY_CAP - 1)}…` : prefix);
      });
    }
  }
  return out;
}

/** Whether a ref under this container (not under a nested context container) cannot be told apart by its own name. */
function controlsIn(nodes: readonly SnapshotNode[], shaping: Shaping, found = { ambiguous: false }): { ambiguous: boolean } {
  for (const node of nodes) {
    if (node.ref !== undefined && (node.name === undefined || node.name === '' || (shaping.names.get(nameKey(node)) ?? 0) > 1)) found.ambiguous = true;
    if (node.ref === undefined && CONTEXT_ROLES.has(node.role)) continue;
    if (node.children !== undefined) controlsIn(node.children, shaping, found);
  }
  return found;
}

/** The container's own words: its text and the names of what inside it has no ref (about SUMMARY_CAP characters). */
function summaryOf(nodes: readonly SnapshotNode[]): string {
  const parts: string[] = [];
  let length = 0;
  const visit = (list: readonly SnapshotNode[]): void => {
    for (const node of list) {
      if (length > SUMMARY_CAP) return;
      // A heading named like the link inside it repeats that link: not the container's own words.
      const repeats = node.children?.length === 1 && node.children[0]?.ref !== undefined && node.children[0].name === node.name;
      if (node.ref === undefined && node.role !== ELIDED_ROLE && node.name !== undefined && node.name !== '' && !repeats) {
        parts.push(node.name);
        length += node.name.length + 1;
      }
      if (node.ref === undefined && node.children !== undefined) visit(node.children);
    }
  };
  visit(nodes);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

function countRefs(nodes: readonly SnapshotNode[]): number {
  let count = 0;
  for (const node of nodes) {
    if (node.ref !== undefined) count++;
    if (node.children !== undefined) count += countRefs(node.children);
  }
  return count;
}

function marker(name: string): SnapshotNode {
  return { role: ELIDED_ROLE, name };
}

function elideRuns(nodes: SnapshotNode[], shaping: Shaping, loose: boolean): SnapshotNode[] {
  const out: SnapshotNode[] = [];
  let start = 0;
  while (start < nodes.length) {
    const first = nodes[start];
    if (first === undefined) break;
    const print = fingerprint(first, shaping, loose);
    let exact = true;
    let end = start + 1;
    while (end < nodes.length) {
      const next = nodes[end];
      if (next === undefined || fingerprint(next, shaping, loose) !== print) break;
      if (loose && exact && fingerprint(next, shaping, false) !== fingerprint(first, shaping, false)) exact = false;
      end++;
    }
    const run = nodes.slice(start, end);
    if (run.length > ELIDE_RUN && first.role !== 'text') {
      const hidden = run.slice(KEEP_HEAD, run.length - KEEP_TAIL);
      out.push(...run.slice(0, KEEP_HEAD));
      const alike = exact ? 'identical to these' : 'like these but for their text';
      out.push(marker(`${hidden.length} more ${first.role} items ${alike} (${countRefs(hidden)} refs not shown; --no-elide shows them)`));
      out.push(...run.slice(run.length - KEEP_TAIL));
    } else {
      out.push(...run);
    }
    start = end;
  }
  return out;
}

/** A dropdown's choices (its options, in groups): listed under it in --interactive, though they have no refs. */
const CHOICE_ROLES = new Set(['option', 'group']);
/**
 * A rich-text field's bold and italic runs (injected/text.ts): part of what the field holds, like its value, so
 * --interactive keeps them under it. The page script writes them nowhere else.
 */
const EMPHASIS_ROLES = new Set(['strong', 'emphasis']);

/** `choices`: the nodes are a dropdown's (listed, without refs, in --interactive). */
function shapeNodes(nodes: readonly SnapshotNode[], options: ShapeOptions, depth: number, shaping: Shaping, choices = false): SnapshotNode[] {
  let out: SnapshotNode[] = [];
  for (const node of nodes) {
    const children = node.children ?? [];
    const choice = choices && CHOICE_ROLES.has(node.role);
    if (options.interactive && node.ref === undefined && !choice && !EMPHASIS_ROLES.has(node.role)) {
      if (countRefs(children) === 0) continue;
      const unnamed = node.name === undefined || node.name === '';
      const summary = unnamed ? shaping.summaryOfContainer.get(node) : undefined;
      // Controls that together differ from every other container's tell it apart already (a reference's "^"
      // beside its title): the container stays, unnamed, only to group several of them.
      if (summary !== undefined || (unnamed && CONTEXT_ROLES.has(node.role) && countRefs(children) > 1 && controlsIn(children, shaping).ambiguous)) {
        const copy: SnapshotNode = summary === undefined ? { ...node } : { ...node, name: summary };
        if (summary !== undefined) shaping.summarized.add(copy);
        out.push(withChildren(copy, children, options, depth, shaping));
        continue;
      }
      if (unnamed && WRAPPER_ROLES.has(node.role)) {
        // Its content takes its place, one level up.
        out.push(...shapeNodes(children, { ...options, elide: false }, depth, shaping));
        continue;
      }
    }
    const copy: SnapshotNode = { ...node };
    const only = children.length === 1 ? children[0] : undefined;
    // A heading (or other container) named like its only child, a ref, says the same thing twice.
    if (node.ref === undefined && only?.ref !== undefined && only.name !== undefined && only.name === node.name) delete copy.name;
    out.push(withChildren(copy, children, options, depth, shaping));
  }
  if (options.elide !== false) out = elideRuns(out, shaping, options.interactive === true);
  return out;
}

function withChildren(copy: SnapshotNode, children: readonly SnapshotNode[], options: ShapeOptions, depth: number, shaping: Shaping): SnapshotNode {
  delete copy.children;
  if (children.length === 0) return copy;
  if (options.depth !== undefined && depth >= options.depth) {
    const refs = countRefs(children);
    copy.children = [marker(`${children.length} children below --depth ${options.depth}${refs > 0 ? ` (${refs} refs)` : ''}; raise --depth or use --scope`)];
  } else {
    const dropdown = copy.role === 'combobox' || (copy.role === 'group' && copy.ref === undefined);
    const shaped = shapeNodes(children, options, depth + 1, shaping, dropdown);
    if (shaped.length > 0) copy.children = shaped;
  }
  return copy;
}

export function shapeTree(tree: readonly SnapshotNode[], options: ShapeOptions): SnapshotNode[] {
  const names = new Map<string, number>();
  if (options.interactive) countNames(tree, names);
  const summaries = options.interactive ? lookAlikeSummaries(tree) : new Map<SnapshotNode, string>();
  return shapeNodes(tree, options, 0, { prints: new Map(), summarized: new WeakSet(), names, summaryOfContainer: summaries });
}
