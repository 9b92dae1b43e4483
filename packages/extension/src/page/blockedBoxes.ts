/**
 * Where a page draws the frames that show a blocked site, for captures to paint over (capture/captureMask.ts).
 * Asked of the parent documents only: a blocked frame is never entered, so its area is its <iframe> element's
 * content box in the parent (an out-of-process frame is just that element to its parent).
 *
 * Coordinates: DOM.getBoxModel answers in CSS px of the viewport of the element's *local root* — the main frame for
 * every frame in the tab's own process (Chromium converts through same-process frames itself), or the nearest
 * out-of-process frame above it. A local root is where the CDP session changes (page/frames.ts gives each OOPIF's
 * subtree its own session), so a box is carried up only across those: offset by the OOPIF's own <iframe> content
 * box, and cut to it (nothing of a frame is drawn outside its iframe).
 */
import { RelayError } from '@chrome-relay/protocol';
import type { CallContext } from '../context/call.js';
import type { CdpTarget } from '../cdp/cdpSession.js';
import { isCdpFailure } from '../cdp/failures.js';
import { originOf } from '../policy/frameBlocks.js';
import { blockedFrameError } from '../policy/policy.js';
import type { FrameInfo, FrameSessions } from './frames.js';

/** A rectangle in CSS px. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One area the capture must not show: the rule that blocks it, the frame's origin (never its path), its box. */
export interface BlockedBox {
  rule: string;
  origin: string;
  /** CSS px of the tab's viewport. */
  box: Rect;
}

/** The blocked areas as measured, and the page's scroll then (a frame drawn at another scroll shows them moved). */
export interface BlockedLayout {
  boxes: BlockedBox[];
  scroll: { x: number; y: number };
}

export type BlockedFrames = Pick<FrameSessions, 'list' | 'blockList'>;

/** Pure: the axis-aligned bounds of a CDP quad (8 numbers; a transformed iframe is covered whole). */
export function quadBounds(quad: readonly number[]): Rect {
  const xs = [quad[0], quad[2], quad[4], quad[6]].filter((v): v is number => v !== undefined);
  const ys = [quad[1], quad[3], quad[5], quad[7]].filter((v): v is number => v !== undefined);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** Pure: the overlap of two rectangles (width/height 0 when none). */
export function intersect(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return { x, y, width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x), height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y) };
}

/** Pure: a box in a frame's viewport, placed in its parent's by that frame's <iframe> content box (and cut to it). */
export function intoParent(box: Rect, owner: Rect): Rect {
  return intersect({ x: box.x + owner.x, y: box.y + owner.y, width: box.width, height: box.height }, owner);
}

/** Pure: the frames chrome-relay must paint over: blocked ones whose parent is not (the rest are inside them). */
export function outermostBlocked(frames: readonly FrameInfo[]): FrameInfo[] {
  const byId = new Map(frames.map((frame) => [frame.frameId, frame]));
  return frames.filter((frame) => frame.blocked !== undefined && frame.parentId !== undefined && byId.get(frame.parentId)?.blocked === undefined);
}

/** Pure: the local root of `frame`'s document: itself or the nearest ancestor whose parent has another session. */
export function localRootOf(frames: readonly FrameInfo[], frame: FrameInfo): FrameInfo {
  const byId = new Map(frames.map((f) => [f.frameId, f]));
  let root = frame;
  for (let steps = 0; steps <= frames.length; steps++) {
    const parent = root.parentId === undefined ? undefined : byId.get(root.parentId);
    if (parent === undefined || parent.sessionId !== root.sessionId) return root;
    root = parent;
  }
  return root;
}

/** A child frame's <iframe> content box in its parent's local-root viewport; undefined when it is not rendered. */
export type OwnerBox = (child: FrameInfo, parent: FrameInfo) => Promise<Rect | undefined>;

/**
 * The area `frame` (a child frame) is drawn in, in CSS px of the main frame's viewport; undefined when it is not
 * drawn at all (its iframe, or an out-of-process frame it sits in, has no box).
 */
export async function frameArea(frames: readonly FrameInfo[], frame: FrameInfo, ownerBox: OwnerBox): Promise<Rect | undefined> {
  const byId = new Map(frames.map((f) => [f.frameId, f]));
  let child = frame;
  let box: Rect | undefined;
  for (let steps = 0; steps <= frames.length; steps++) {
    const parent = child.parentId === undefined ? undefined : byId.get(child.parentId);
    if (parent === undefined) return box;
    const owner = await ownerBox(child, parent);
    if (owner === undefined || owner.width <= 0 || owner.height <= 0) return undefined;
    box = box === undefined ? owner : intoParent(box, owner);
    // Up to the next local root: its own iframe gives the offset of everything measured in it.
    child = localRootOf(frames, parent);
    if (child.parentId === undefined) return box;
  }
  return box;
}

/** DOM.getFrameOwner + DOM.getBoxModel on the parent's session: the owner's content box; nothing of the child is asked. */
function cdpOwnerBox(ctx: Pick<CallContext, 'cdp'>, tabId: number): OwnerBox {
  return async (child, parent) => {
    const target: CdpTarget = parent.sessionId === undefined ? { tabId } : { tabId, sessionId: parent.sessionId };
    const { backendNodeId } = await ctx.cdp.send(target, 'DOM.getFrameOwner', { frameId: child.frameId });
    try {
      const { model } = await ctx.cdp.send(target, 'DOM.getBoxModel', { backendNodeId });
      return quadBounds(model.content);
    } catch (error) {
      // display:none (or not yet laid out): the frame is not drawn, so there is nothing to paint over.
      if (isCdpFailure(error, 'not_rendered')) return undefined;
      throw error;
    }
  };
}

/**
 * The blocked areas of a tab now; undefined when the person blocks no site (then nothing at all is asked of the
 * tab: the rules are in memory). Fails site_blocked naming the rule when a blocked frame's area cannot be measured
 * (its frame detached in between, say): a capture must then not be handed out.
 */
export async function blockedLayout(ctx: Pick<CallContext, 'cdp'>, frames: BlockedFrames, tabId: number): Promise<BlockedLayout | undefined> {
  if ((await frames.blockList()).length === 0) return undefined;
  const listed = await frames.list(ctx, tabId);
  const boxes: BlockedBox[] = [];
  const ownerBox = cdpOwnerBox(ctx, tabId);
  for (const frame of outermostBlocked(listed)) {
    const block = frame.blocked;
    if (block === undefined) continue;
    const box = await frameArea(listed, frame, ownerBox).catch((error: unknown) => {
      console.warn('chrome-relay: measuring a blocked frame failed', error);
      throw blockedFrameError(tabId, block, { capture: 'screenshot' });
    });
    if (box !== undefined && box.width > 0 && box.height > 0) boxes.push({ rule: block.rule, origin: originOf(block.url), box });
  }
  if (boxes.length === 0) return { boxes, scroll: { x: 0, y: 0 } };
  const metrics = await ctx.cdp.send(tabId, 'Page.getLayoutMetrics');
  return { boxes, scroll: { x: metrics.cssVisualViewport.pageX, y: metrics.cssVisualViewport.pageY } };
}
