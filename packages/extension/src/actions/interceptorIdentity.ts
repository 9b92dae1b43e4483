/**
 * Who covered the element, as click_intercepted hands it over in `details.interceptor`: the covering element's DOM
 * `nodeName` and `backendNodeId`, and a `ref` the agent can use in its very next call (`snapshot -s @ref` shows the
 * overlay and its close button; `click @ref`) and find in the next snapshot. The page describes the covering element
 * (injected/hitTest.ts coveringElement: the overlay as a whole, not the text inside it); here it is identified.
 *
 * A covering element without a ref gets one on the spot, the way a snapshot issues them, so it is a real ref:
 * the number is reserved on the browser-wide counter and stored before anything uses it (refs/counter.ts: no string
 * ever names two elements), the page binds it (and keeps the element actionable in later walks, so snapshots show
 * it), then the tab's registry routes it (refs carry their tab). A snapshot of the same tab running at that moment
 * may replace the page's refs after the binding: the ref then answers unknown_ref, never another element.
 *
 * Best effort by design: naming the interceptor must never replace the click_intercepted it explains, nor outlast
 * the call. A document that went away, a page that stops answering, a frame gone: the identity keeps what the page
 * already said (its description), within IDENTIFY_BUDGET_MS.
 */
import { worldTarget, mainFrameDocument, type PageWorld } from '../page/worlds.js';
import { callPage, pageCandidateHandle, pageElementHandle } from '../page/pageCall.js';
import type { Interceptor } from '../injected/types.js';
import type { RefSummary } from '../refs/registry.js';
import type { IdentifyContext } from './toolContext.js';

/** Only this module makes identities: an error cannot hand over a page description that skipped identifying. */
declare const IDENTIFIED: unique symbol;

/** details.interceptor: the reference's shape (nodeName, backendNodeId), a ref, and what a person recognises it by. */
export interface InterceptorIdentity {
  nodeName: string;
  backendNodeId?: number;
  ref?: string;
  id?: string;
  /** Its role as a snapshot shows it (absent for the document's root). */
  role?: string;
  /** Its name as a snapshot shows it, cut short (page content; never a style sheet or a page's whole text). */
  name: string;
  readonly [IDENTIFIED]: true;
}

/** The longest identifying may take: the call still has to answer click_intercepted before its deadline. */
const IDENTIFY_BUDGET_MS = 1500;
const HANDLE_GROUP = 'chrome-relay-interceptor';

/** What the page said, without asking it anything more (a dialog blocks it, or the document is gone). */
export function described(who: Interceptor): InterceptorIdentity {
  const identity = {
    nodeName: who.nodeName,
    ...(who.ref === undefined ? {} : { ref: who.ref }),
    ...(who.id === '' ? {} : { id: who.id }),
    ...(who.role === '' ? {} : { role: who.role }),
    name: who.name,
  };
  return identity as InterceptorIdentity;
}

/** The interceptor `world`'s page described, with its node id and a ref (given now if it had none). */
export async function identifyInterceptor(ctx: IdentifyContext, world: PageWorld, who: Interceptor): Promise<InterceptorIdentity> {
  const identity = described(who);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = Math.max(0, Math.min(IDENTIFY_BUDGET_MS, ctx.deadline - Date.now() - IDENTIFY_BUDGET_MS / 3));
  const outOfTime = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, budget);
  });
  const work = identify(ctx, world, who, identity).catch(() => undefined);
  try {
    await Promise.race([work, outOfTime]);
  } finally {
    clearTimeout(timer);
  }
  // A copy: work still running after the budget must not change what was answered.
  return { ...identity };
}

async function identify(ctx: IdentifyContext, world: PageWorld, who: Interceptor, identity: InterceptorIdentity): Promise<void> {
  if (identity.ref === undefined) {
    const ref = await adoptRef(ctx, world, who);
    if (ref !== undefined) identity.ref = ref;
  }
  const target = worldTarget(world);
  try {
    const handle = identity.ref === undefined ? await pageCandidateHandle(ctx, world, who.candidate, HANDLE_GROUP) : await pageElementHandle(ctx, world, identity.ref, HANDLE_GROUP);
    if (handle === undefined) return;
    const { node } = await ctx.cdp.send(target, 'DOM.describeNode', { objectId: handle, depth: 0 });
    identity.nodeName = node.nodeName;
    identity.backendNodeId = node.backendNodeId;
  } finally {
    ctx.cdp.send(target, 'Runtime.releaseObjectGroup', { objectGroup: HANDLE_GROUP }).catch(() => undefined);
  }
}

/** Reserve a ref, have the page bind it to the covering element, and route it to the tab; undefined when it cannot. */
async function adoptRef(ctx: IdentifyContext, world: PageWorld, who: Interceptor): Promise<string | undefined> {
  const counter = ctx.counter;
  const reserved = await counter.run(ctx.deadline, async (allocation) => {
    const ref = `e${allocation.next}`;
    await allocation.advanceTo(allocation.next + 1);
    return ref;
  });
  const outcome = await callPage(ctx, ctx.worlds, world, 'adopt', { candidate: who.candidate, ref: reserved });
  if (outcome.status !== 'ok') return undefined;
  // It had a ref meanwhile (a snapshot ran): that one is known already, and the reserved number is never used.
  if (!outcome.adopted) return outcome.ref;
  const main = await mainFrameDocument(ctx, world.tabId);
  const record: RefSummary = { ref: outcome.ref, role: outcome.role, name: outcome.name };
  if (world.frameId !== main.frameId) record.frame = { frameId: world.frameId, loaderId: world.loaderId };
  await ctx.registry.addRefs(world.tabId, main, [record]);
  return outcome.ref;
}
