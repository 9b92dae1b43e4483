/**
 * Questions about a child frame asked of its parent document: which iframe element of the
 * parent's last snapshot owns it (frameSlot), where a point of the child's viewport lies in
 * the parent's viewport (framePoint), and the other way round (pointInFrameElement). The owner
 * element comes from DOM.getFrameOwner on the parent's session (it accepts an OOPIF's frame id
 * too), resolved into the parent's world.
 */
import type { DeliveryPhase, FramePointOutcome } from '../injected/types.js';
import type { CallContext } from '../context/call.js';
import { callPageOnElement } from './pageCall.js';
import { worldTarget, type PageWorld } from './worlds.js';

const OBJECT_GROUP = 'chrome-relay-frame-owner';

type OwnerMethod = Parameters<typeof callPageOnElement>[3];

async function callOnOwner(ctx: Pick<CallContext, 'cdp'>, parent: PageWorld, childFrameId: string, method: OwnerMethod, args: readonly unknown[]): Promise<unknown> {
  const target = worldTarget(parent);
  const { backendNodeId } = await ctx.cdp.send(target, 'DOM.getFrameOwner', { frameId: childFrameId });
  const { object } = await ctx.cdp.send(target, 'DOM.resolveNode', { backendNodeId, executionContextId: parent.contextId, objectGroup: OBJECT_GROUP });
  try {
    return object.objectId === undefined ? null : await callPageOnElement(ctx, parent, object.objectId, method, args);
  } finally {
    await ctx.cdp.send(target, 'Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => undefined);
  }
}

/** The slot the parent's last snapshot gave the child's iframe element; undefined when it has none. */
export async function frameSlotOf(ctx: Pick<CallContext, 'cdp'>, parent: PageWorld, childFrameId: string): Promise<number | undefined> {
  const slot = await callOnOwner(ctx, parent, childFrameId, 'frameSlot', []);
  return typeof slot === 'number' && slot >= 0 ? slot : undefined;
}

/**
 * Map a point of the child frame's viewport into the parent's viewport, hit-testing the owner
 * there; with `arm`, the parent's delivery guard then expects the pointer on that iframe only.
 */
export async function framePointIn(
  ctx: Pick<CallContext, 'cdp'>,
  parent: PageWorld,
  childFrameId: string,
  x: number,
  y: number,
  arm?: DeliveryPhase[],
): Promise<FramePointOutcome> {
  const outcome = await callOnOwner(ctx, parent, childFrameId, 'framePoint', arm === undefined ? [x, y] : [x, y, arm]);
  if (typeof outcome !== 'object' || outcome === null) return { status: 'not_visible' };
  return outcome as FramePointOutcome;
}

/** A point of `parent`'s viewport in the viewport of the frame its element `objectId` (an <iframe>/<frame>) shows. */
export async function pointInFrameElement(ctx: Pick<CallContext, 'cdp'>, parent: PageWorld, objectId: string, x: number, y: number): Promise<{ x: number; y: number } | undefined> {
  const point = await callPageOnElement(ctx, parent, objectId, 'pointInFrame', [x, y]);
  return typeof point === 'object' && point !== null ? (point as { x: number; y: number }) : undefined;
}
