/**
 * Pure: hang each child frame's snapshot tree under its <iframe> node in the parent's tree.
 *
 * Each frame is walked in its own world, and each iframe node of a parent carries the frameSlot the
 * parent's page gave that iframe element; the worker found, per child frame, the slot of its owner
 * element (DOM.getFrameOwner). A frame is shown only when its parent is shown and its slot was
 * found: a hidden iframe has no node, so nothing of its document can be placed (or clicked).
 *
 * A frame that shows a site the person blocked was never walked: its shot carries the rule instead of a tree, and
 * its iframe node is marked with it (`siteBlocked`), with nothing under it.
 */
import type { PageNode } from '../injected/types.js';

export interface FrameShot {
  frameId: string;
  /** Absent for the root (main) frame. */
  parentId?: string;
  /** The owner iframe's slot in the parent's snapshot; undefined when it could not be found. */
  slot?: number;
  tree: PageNode[];
  /** The frame shows a blocked site: the rule, for its iframe node (the tree is empty). */
  blocked?: string;
}

function slotNodes(tree: readonly PageNode[]): Map<number, PageNode> {
  const found = new Map<number, PageNode>();
  const visit = (nodes: readonly PageNode[]): void => {
    for (const node of nodes) {
      if (node.frameSlot !== undefined) found.set(node.frameSlot, node);
      if (node.children !== undefined) visit(node.children);
    }
  };
  visit(tree);
  return found;
}

/**
 * Graft children into parents (in place) and return the ids of the frames that made it into the
 * tree rooted at the first shot. Shots must list parents before children. Every frameSlot marker
 * is removed, placed or not: it is internal.
 */
export function graftFrames(shots: readonly FrameShot[]): Set<string> {
  const placed = new Set<string>();
  const slotsOf = new Map<string, Map<number, PageNode>>();
  const root = shots[0];
  if (root === undefined) return placed;
  placed.add(root.frameId);
  slotsOf.set(root.frameId, slotNodes(root.tree));
  for (const shot of shots.slice(1)) {
    slotsOf.set(shot.frameId, slotNodes(shot.tree));
    if (shot.parentId === undefined || shot.slot === undefined || !placed.has(shot.parentId)) continue;
    const node = slotsOf.get(shot.parentId)?.get(shot.slot);
    if (node === undefined || node.children !== undefined || node.siteBlocked !== undefined) continue;
    if (shot.blocked !== undefined) {
      node.siteBlocked = shot.blocked;
      continue;
    }
    if (shot.tree.length > 0) node.children = shot.tree;
    placed.add(shot.frameId);
  }
  for (const slots of slotsOf.values()) for (const node of slots.values()) delete node.frameSlot;
  return placed;
}
