/**
 * Where trusted input will go, held against the person's site block list before any of it is sent.
 *
 * The browser gives mouse input over an <iframe> to the document that frame shows, and keyboard input to the
 * document focus is in, whichever frame of the page that is; an out-of-process frame looks like its <iframe>
 * element from the parent. So the check starts in the document an action aims at (the ref's frame, or the tab's
 * top document for a point or for keys) and follows the input: the frame element at the point (or holding focus),
 * the frame it shows in FrameSessions.list (which marks blocked ones), and on into that frame's document while it
 * is open, until the input stays in a document. A frame that shows a blocked site, at any depth, fails the action
 * with site_blocked before anything was sent. Every pointer action passes here once its point is known (refs:
 * pointerDelivery.ts, only when the hit-test found a frame element there; `click --x --y`; a drag's drop point),
 * and `keys`/`type`/`fill` before they press anything. Without block rules it costs nothing.
 *
 * What the check answers is a proof (`Landed`), and every function of input/ that sends Input.* takes one for the tab
 * it sends to: only this module can make one, so input no check has passed cannot be sent (and ESLint keeps Input.*
 * commands inside input/).
 */
import type { CdpTarget } from '../cdp/cdpSession.js';
import type { FrameInfo } from '../page/frames.js';
import { pointInFrameElement } from '../page/frameOwner.js';
import { inputFrameHandle } from '../page/pageCall.js';
import { mainFrameDocument, worldTarget, type PageWorld } from '../page/worlds.js';
import { blockedFrameError, type FrameAim } from '../policy/policy.js';
import type { CallContext } from '../context/call.js';
import type { FrameSessions } from '../page/frames.js';
import type { Worlds } from '../page/worlds.js';

/** What the check needs of a call's context: our worlds, and the tab's frames with their block marks. */
type LandingContext = CallContext & { readonly worlds: Worlds; readonly frames: Pick<FrameSessions, 'list' | 'blockList'> };

const MINT = Symbol('landed');
const minted = new WeakSet<Landed>();

/** Proof that the landing check passed for input to `tabId`: made only here, asked for by every sender in input/. */
export class Landed {
  readonly tabId: number;
  constructor(mint: typeof MINT, tabId: number) {
    if (mint !== MINT) throw new Error('a landing proof is made only by the landing check (input/landing.ts)');
    this.tabId = tabId;
    minted.add(this);
  }
}

/** Input to `tabId` may be sent on this proof; anything else is a bug of ours. */
export function assertLanded(proof: Landed, tabId: number): void {
  if (!minted.has(proof) || proof.tabId !== tabId) throw new Error(`input to tab ${tabId} without a landing proof for it (input/landing.ts)`);
}

const landed = (tabId: number): Landed => new Landed(MINT, tabId);

/** What the input is: mouse input at a point of the aimed document's viewport (`at`; `shown`/`ref` name it in messages), or keys. */
export type Landing = { at: { x: number; y: number }; shown: { x: number; y: number }; ref?: string } | { focus: true };

const GROUP = 'chrome-relay-input-landing';
/** Frames inside frames deeper than this are not followed (no page nests so deep; it bounds a hostile one). */
const MAX_DEPTH = 16;

/** Throws site_blocked when input aimed at `world`'s document would reach a frame showing a blocked site. */
export async function checkLanding(ctx: LandingContext, world: PageWorld, landing: Landing): Promise<Landed> {
  await followLanding(ctx, world, landing);
  return landed(world.tabId);
}

/**
 * Pointer input at a point the page's hit-test placed on the aimed element: it can only reach another document when
 * that element is a frame (`intoFrame`), and only then is the landing followed.
 */
export async function checkPointLanding(ctx: LandingContext, world: PageWorld, landing: Landing, intoFrame: boolean): Promise<Landed> {
  if (intoFrame) await followLanding(ctx, world, landing);
  return landed(world.tabId);
}

async function followLanding(ctx: LandingContext, world: PageWorld, landing: Landing): Promise<void> {
  const frames = ctx.frames;
  if ((await frames.blockList()).length === 0) return;
  const aim: FrameAim = 'focus' in landing ? { focus: true } : { point: landing.shown, ...(landing.ref === undefined ? {} : { ref: landing.ref }) };
  let listed: FrameInfo[] | undefined;
  let here = world;
  let point = 'at' in landing ? landing.at : null;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const target: CdpTarget = worldTarget(here);
    try {
      const element = await inputFrameHandle(ctx, here, point, GROUP);
      if (element === undefined) return;
      const { node } = await ctx.cdp.send(target, 'DOM.describeNode', { objectId: element, depth: 0 });
      const frameId = node.frameId;
      listed ??= await frames.list(ctx, world.tabId);
      const frame = listed.find((candidate) => candidate.frameId === frameId);
      // Nothing loaded in it yet (or not reachable): no site's document is there to reach.
      if (frame === undefined) return;
      if (frame.blocked !== undefined) throw blockedFrameError(world.tabId, frame.blocked, aim);
      if (point !== null) {
        const inner = await pointInFrameElement(ctx, here, element, point.x, point.y);
        if (inner === undefined) return;
        point = inner;
      }
      here = await ctx.worlds.ensure(ctx, world.tabId, frame);
    } finally {
      await ctx.cdp.send(target, 'Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => undefined);
    }
  }
}

/** Input aimed at the tab's top document (keys and typed text by focus, a drag's drop point): checked from there. Without rules nothing is asked, not even for the top document's world. */
export async function checkTopLanding(ctx: LandingContext, tabId: number, landing: Landing): Promise<Landed> {
  if ((await ctx.frames.blockList()).length === 0) return landed(tabId);
  const world = await ctx.worlds.ensure(ctx, tabId, await mainFrameDocument(ctx, tabId));
  return checkLanding(ctx, world, landing);
}

/** Keys and typed text go where focus is: check from the tab's top document. */
export function checkFocusLanding(ctx: LandingContext, tabId: number): Promise<Landed> {
  return checkTopLanding(ctx, tabId, { focus: true });
}
