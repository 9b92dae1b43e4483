/**
 * Questions about a child frame asked of its parent document: which iframe element of the
 * parent's last snapshot owns it (frameSlot), where a point of the child's viewport lies in
 * the parent's viewport (framePoint), and the other way round (pointInFrameElement). The owner
 * element comes from DOM.getFrameOwner on the parent's session (it accepts an OOPIF's frame id
 * too), resolved into the parent's world.
 */
import { RelayError } from '@chrome-relay/protocol';
import type { DeliveryPhase, FramePointOutcome } from '../injected/types.js';
import type { CallContext } from '../context/call.js';
import { installPageScript } from './pageCall.js';
import { worldTarget, type PageWorld } from './worlds.js';

const OBJECT_GROUP = 'chrome-relay-frame-owner';

async function callOnOwner(ctx: Pick<CallContext, 'cdp'>, parent: PageWorld, childFrameId: string, body: string, args: unknown[]): Promise<unknown> {
  const target = worldTarget(parent);
  const { backendNodeId } = await ctx.cdp.send(target, 'DOM.getFrameOwner', { frameId: childFrameId });
  const { object } = await ctx.cdp.send(target, 'DOM.resolveNode', { backendNodeId, executionContextId: parent.contextId, objectGroup: OBJECT_GROUP });
  try {
    return object.objectId === undefined ? null : await callOnElement(ctx, parent, object.objectId, body, args);
  } finally {
    await ctx.cdp.send(target, 'Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => undefined);
  }
}

/** Run `body` (the page API as `api`, the element as `this`) on a frame element of `parent`'s document held as `objectId`. */
async function callOnElement(ctx: Pick<CallContext, 'cdp'>, parent: PageWorld, objectId: string, body: string, args: unknown[]): Promise<unknown> {
  const call = () =>
    ctx.cdp.send(worldTarget(parent), 'Runtime.callFunctionOn', {
      objectId,
      functionDeclaration: `function (...args) { const api = globalThis.__chromeRelay; return api === undefined ? null : (${body}); }`,
      arguments: args.map((value) => ({ value })),
      returnByValue: true,
      silent: true,
    });
  let response = await call();
  if (response.exceptionDetails === undefined && response.result.value === null) {
    await installPageScript(ctx, parent);
    response = await call();
  }
  if (response.exceptionDetails !== undefined) {
    throw new RelayError('internal_error', `The page script failed on a frame owner: ${response.exceptionDetails.exception?.description ?? response.exceptionDetails.text}`, { phase: 'act' });
  }
  return response.result.value;
}

/** The slot the parent's last snapshot gave the child's iframe element; undefined when it has none. */
export async function frameSlotOf(ctx: Pick<CallContext, 'cdp'>, parent: PageWorld, childFrameId: string): Promise<number | undefined> {
  const slot = await callOnOwner(ctx, parent, childFrameId, 'api.frameSlot(this)', []);
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
  const outcome = await callOnOwner(ctx, parent, childFrameId, 'api.framePoint(this, args[0], args[1], args[2] ?? undefined)', [x, y, arm ?? null]);
  if (typeof outcome !== 'object' || outcome === null) return { status: 'not_visible' };
  return outcome as FramePointOutcome;
}

/** A point of `parent`'s viewport in the viewport of the frame its element `objectId` (an <iframe>/<frame>) shows. */
export async function pointInFrameElement(ctx: Pick<CallContext, 'cdp'>, parent: PageWorld, objectId: string, x: number, y: number): Promise<{ x: number; y: number } | undefined> {
  const point = await callOnElement(ctx, parent, objectId, 'api.pointInFrame(this, args[0], args[1])', [x, y]);
  return typeof point === 'object' && point !== null ? (point as { x: number; y: number }) : undefined;
}
