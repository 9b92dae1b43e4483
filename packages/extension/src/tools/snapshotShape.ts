/**
 * Shaping a snapshot tree for an agent's context (pure, unit-tested): --interactive, --depth and
 * elision of long runs of identical siblings. Refs are issued for the whole page before shaping,
 * so every ref keeps working whether or not it is shown.
 *
 * Elision is deliberately narrow: only siblings whose subtrees are identical in everything the
 * agent would read (role, name, value, states, url, children), refs excepted, are elided — the
 * agent loses nothing but the ref numbers of look-alikes. Rows "Item 1".."Item 1500" are all
 * distinct and are never elided, however many there are (narrow those with --scope, --depth or
 * --max-chars instead).
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

/** Everything an agent reads in a node's subtree, without refs. */
function fingerprint(node: SnapshotNode, cache: Map<SnapshotNode, string>): string {
  const known = cache.get(node);
  if (known !== undefined) return known;
  const { ref: _ref, children, ...rest } = node;
  const print = JSON.stringify(rest) + (children === undefined ? '' : `[${children.map((child) => fingerprint(child, cache)).join(',')}]`);
  cache.set(node, print);
  return print;
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

function elideRuns(nodes: SnapshotNode[], cache: Map<SnapshotNode, string>): SnapshotNode[] {
  const out: SnapshotNode[] = [];
  let start = 0;
  while (start < nodes.length) {
    const first = nodes[start];
    if (first === undefined) break;
    const print = fingerprint(first, cache);
    let end = start + 1;
    while (end < nodes.length) {
      const next = nodes[end];
      if (next === undefined || fingerprint(next, cache) !== print) break;
      end++;
    }
    const run = nodes.slice(start, end);
    if (run.length > ELIDE_RUN && first.role !== 'text') {
      const hidden = run.slice(KEEP_HEAD, run.length - KEEP_TAIL);
      out.push(...run.slice(0, KEEP_HEAD));
      out.push(marker(`${hidden.length} more ${first.role} items identical to the ones around them (${countRefs(hidden)} refs not shown; --no-elide shows them)`));
      out.push(...run.slice(run.length - KEEP_TAIL));
    } else {
      out.push(...run);
    }
    start = end;
  }
  return out;
}

function shapeNodes(nodes: readonly SnapshotNode[], options: ShapeOptions, depth: number, cache: Map<SnapshotNode, string>): SnapshotNode[] {
  let out: SnapshotNode[] = [];
  for (const node of nodes) {
    if (options.interactive && node.ref === undefined && (node.children === undefined || countRefs(node.children) === 0)) continue;
    const copy: SnapshotNode = { ...node };
    delete copy.children;
    const children = node.children ?? [];
    if (children.length > 0) {
      if (options.depth !== undefined && depth >= options.depth) {
        const refs = countRefs(children);
        copy.children = [marker(`${children.length} children below --depth ${options.depth}${refs > 0 ? ` (${refs} refs)` : ''}; raise --depth or use --scope`)];
      } else {
        const shaped = shapeNodes(children, options, depth + 1, cache);
        if (shaped.length > 0) copy.children = shaped;
      }
    }
    out.push(copy);
  }
  if (options.elide !== false) out = elideRuns(out, cache);
  return out;
}

export function shapeTree(tree: readonly SnapshotNode[], options: ShapeOptions): SnapshotNode[] {
  return shapeNodes(tree, options, 0, new Map());
}
