/**
 * A ref's side of the one pointer-action path (pointerAction.ts, the only importer): aiming at the element, and the
 * delivery guards' logs. A hit-test before the input is a prediction; the guards add the proof:
 * 1. In the ref's frame, one page call resolves the ref, scrolls, hit-tests and arms the delivery
 *    guard (injected/delivery.ts). For a ref inside iframes, each frame above maps the point,
 *    hit-tests its <iframe> element and arms its own guard to expect the pointer on that iframe
 *    only; the innermost frame's viewport must have the size of its iframe's content box (a frame
 *    that just loaded may still be laid out at another size, and its point would be wrong).
 *    A point over an <iframe> (an iframe's ref, or an element holding one) sends the input into the
 *    frame it shows, which must not show a site the person blocked (input/landing.ts).
 * 2. In a tab with out-of-process frames the browser routes input by what the compositor last
 *    drew, so before any input we wait until the frames showing the point have drawn their
 *    current layout (page/paint.ts).
 * 3. The path sends the act's input; the guards cancel whatever goes elsewhere at the moment it is
 *    dispatched, so a decoy's handlers never run.
 * 4. The guards' logs decide (deliveryVerdict.ts): delivered, or click_intercepted with
 *    `details.when`.
 */
import { reasonedError, type RelayError, type ToolName } from '@chrome-relay/protocol';
import type { CdpTarget } from '../cdp/cdpSession.js';
import type { DeliveryPhase, GuardReport, PrepareClickOutcome } from '../injected/types.js';
import { framePointIn } from '../page/frameOwner.js';
import { callPage } from '../page/pageCall.js';
import { waitForDraw } from '../capture/screencast.js';
import { waitForPaint } from '../page/paint.js';
import type { PageWorld } from '../page/worlds.js';
import { staleRefError } from '../refs/refTarget.js';
import type { PointerContext } from './toolContext.js';
import { classifyDelivery, type DeliveryAction, type DeliveryVerdict } from './deliveryVerdict.js';
import { checkPointLanding, type Landed } from '../input/landing.js';
import { described, identifyInterceptor } from './interceptorIdentity.js';
import { frameChain, interceptedError, notVisibleError, readRef, refusedError, type RefSite } from './refAction.js';
/** What each action's guards check. */
export const ACTION_PHASES: Readonly<Record<DeliveryAction, DeliveryPhase[]>> = {
  click: ['pointer', 'press', 'release'],
  press: ['pointer', 'press'],
  hover: ['pointer'],
};

/** How many times a frame whose layout lags behind its iframe's size is measured again, a paint apart. */
const GEOMETRY_TRIES = 4;
/** Sizes this close (CSS px, rounding) are the same. */
const GEOMETRY_SLACK = 1;

/** Where mouse input for a point goes: the session of the widget that shows it, in that widget's CSS px. */
export interface PointerInput {
  target: number | CdpTarget;
  x: number;
  y: number;
}

/** A delivery guard armed for one action in the document of `world`. */
export interface ArmedGuard {
  world: PageWorld;
  token: string;
}

/** A ref's point: x/y in the tab's top-level viewport (what results report), `input` for dispatching. */
export interface PointerPoint {
  x: number;
  y: number;
  healed: boolean;
  input: PointerInput;
  /** The point in the ref's own frame. */
  local: { x: number; y: number };
  /** The guard of the ref's frame first, then one per frame above it, innermost first. */
  guards: ArmedGuard[];
  /** The landing check's proof for the point (input/landing.ts): what the input senders ask for. */
  landed: Landed;
}

type Prepared = Extract<PrepareClickOutcome, { status: 'ok' }>;

/**
 * Resolve, scroll into view, hit-test and arm the guards for `action`; then make sure the browser
 * routes input by the current layout. The point to put the mouse at, or the closed error (stale,
 * covered, not visible, disabled).
 */
/** Who acts, for messages: the tool, and how the action is named when not by the tool's word ("Double-click on"). */
export interface Actor {
  readonly tool: ToolName;
  readonly verb?: string;
}

export async function pointerTarget(ctx: PointerContext, site: RefSite, actor: Actor, action: DeliveryAction): Promise<PointerPoint> {
  const phases = ACTION_PHASES[action];
  let point: Omit<PointerPoint, 'landed'> | undefined;
  let intoFrame = false;
  for (let attempt = 1; point === undefined; attempt++) {
    const prepared = await prepare(ctx, site, actor, phases);
    intoFrame = prepared.intoFrame === true;
    const guards = prepared.token === undefined ? [] : [{ world: site.world, token: prepared.token }];
    const local = { x: prepared.x, y: prepared.y };
    if (site.world.frameId === site.before.frameId) {
      point = { x: prepared.x, y: prepared.y, healed: prepared.healed, input: { target: site.tabId, x: prepared.x, y: prepared.y }, local, guards };
      break;
    }
    let mapped: Awaited<ReturnType<typeof toTopViewport>>;
    try {
      mapped = await toTopViewport(ctx, site, actor, prepared, phases, guards);
    } catch (error) {
      await disarm(ctx, guards);
      throw error;
    }
    if (mapped.settled || attempt >= GEOMETRY_TRIES) {
      // Unsettled after every try: go ahead; the guards still catch a press that misses.
      point = { x: mapped.x, y: mapped.y, healed: prepared.healed, input: mapped.input, local, guards };
    } else {
      // The frame is still laid out at another size than its iframe's (it just loaded, or its
      // iframe was just resized): the point it gave may not be where the element will be.
      await disarm(ctx, guards);
      await waitForPaint(ctx, site.world);
    }
  }
  try {
    // The point is over an <iframe> (the element is one, or holds one there): the input goes into what it shows.
    const landed = await checkPointLanding(ctx, site.world, { at: point.local, shown: { x: point.x, y: point.y }, ref: site.ref }, intoFrame);
    await drawnAsLaidOut(ctx, site);
    return { ...point, landed };
  } catch (error) {
    await disarm(ctx, point.guards);
    throw error;
  }
}

/**
 * How long a pointer action waits for what covers its element to finish moving or fading away, at most. A person
 * waits for a closing menu or a picker fading out before clicking what was under it; jQuery's slow fade is 600 ms,
 * CSS transitions are mostly shorter. Something still moving after this (a spinner's endless animation) is reported.
 */
export const COVER_MOTION_LIMIT_MS = 2000;

async function prepare(ctx: PointerContext, site: RefSite, actor: Actor, arm: DeliveryPhase[]): Promise<Prepared> {
  const { tool } = actor;
  const verb = actor.verb === undefined ? {} : { verb: actor.verb };
  const until = Math.min(Date.now() + COVER_MOTION_LIMIT_MS, ctx.deadline - COVER_MOTION_LIMIT_MS / 2);
  const look = () => readRef(ctx, site, tool, 'prepareClick', { ref: site.ref, arm });
  let outcome = await look();
  // Scrolled into view just now: the page answers a scroll a frame or two later (a list shows its scroll-up button and
  // shifts its items, then hides its scroll-down button at the end; a header turns sticky), so the point proven before
  // that may hold another element when the pointer comes. Look again once the page has drawn its answer, until the
  // element stays where it is (these looks scroll no more), within the same bound as a moving cover.
  for (let previous: Prepared | undefined; outcome.status === 'ok' && (outcome.scrolled === true || previous !== undefined) && !samePoint(previous, outcome) && Date.now() < until; ) {
    previous = outcome;
    if (outcome.token !== undefined) await disarm(ctx, [{ world: site.world, token: outcome.token }]);
    await waitForPaint(ctx, site.world);
    outcome = await look();
  }
  // Covered: look again a frame later while the cover keeps changing (nothing was armed or sent yet, so this is free
  // of effects). The first sighting always gets one more look: a fade that just began has not changed yet.
  for (let seen: string | undefined; outcome.status === 'intercepted' && outcome.look !== seen && Date.now() < until; ) {
    seen = outcome.look;
    await waitForPaint(ctx, site.world);
    outcome = await look();
  }
  switch (outcome.status) {
    case 'ok':
      return outcome;
    case 'intercepted': {
      const interceptor = await identifyInterceptor(ctx, site.world, outcome.interceptor);
      throw interceptedError(tool, site.ref, site.tabId, { x: outcome.x, y: outcome.y, healed: outcome.healed, interceptor, when: 'before_pointer', sent: false, ...verb });
    }
    case 'not_visible':
      throw notVisibleError(tool, site.ref, site.tabId, outcome.beyondEdge === true);
    case 'disabled':
      throw refusedError(tool, site.ref, site.tabId, 'it is disabled, and a disabled control receives no clicks');
  }
}

/** Pure: two looks found the element at the same point (within rounding). */
function samePoint(a: { x: number; y: number } | undefined, b: { x: number; y: number }): boolean {
  return a !== undefined && Math.abs(a.x - b.x) <= GEOMETRY_SLACK && Math.abs(a.y - b.y) <= GEOMETRY_SLACK;
}

/**
 * A point of an iframe's viewport, in the top-level viewport (reported to the agent) and in the
 * viewport of the widget that takes the input. Each frame above adds its iframe's content-box
 * position, scrolls the iframe into view if needed, proves that nothing of its own covers the
 * iframe at that point, and arms its guard (pushed onto `guards`).
 *
 * Input for an out-of-process frame goes to its own session, in its own widget's coordinates.
 * Observed in Chromium 156 (background tab, headful): a click sent to the tab's session right
 * after the parent scrolled the OOPIF into view was delivered to the parent's <iframe> element,
 * not into the frame. Same-process frames share the tab's widget, so their input goes to the
 * tab's session in top-level coordinates.
 */
async function toTopViewport(
  ctx: PointerContext,
  site: RefSite,
  actor: Actor,
  inner: Prepared,
  phases: DeliveryPhase[],
  guards: ArmedGuard[],
): Promise<{ x: number; y: number; input: PointerInput; settled: boolean }> {
  const chain = frameChain(await ctx.frames.list(ctx, site.tabId), site.world.frameId);
  if (chain === undefined) throw staleRefError(site.ref, 'navigated', site.tabId);
  let point = { x: inner.x, y: inner.y };
  let settled = true;
  const local = site.world.sessionId;
  let input: PointerInput = local === undefined ? { target: site.tabId, x: point.x, y: point.y } : { target: { tabId: site.tabId, sessionId: local }, x: point.x, y: point.y };
  for (const [step, { child, parent }] of chain.entries()) {
    const parentWorld = await ctx.worlds.ensure(ctx, site.tabId, parent);
    const mapped = await framePointIn(ctx, parentWorld, child.frameId, point.x, point.y, phases);
    switch (mapped.status) {
      case 'ok':
        if (mapped.token !== undefined) guards.push({ world: parentWorld, token: mapped.token });
        if (step === 0) settled = sameSize(inner.viewport, mapped.content);
        point = { x: mapped.x, y: mapped.y };
        // Still inside the widget of the ref's frame's process: its coordinates follow.
        if (parent.sessionId === local) input = { ...input, x: point.x, y: point.y };
        break;
      case 'intercepted': {
        const interceptor = await identifyInterceptor(ctx, parentWorld, mapped.interceptor);
        throw interceptedError(actor.tool, site.ref, site.tabId, { x: mapped.x, y: mapped.y, healed: inner.healed, interceptor, when: 'before_pointer', sent: false, ...(actor.verb === undefined ? {} : { verb: actor.verb }) });
      }
      case 'not_visible':
        throw notVisibleError(actor.tool, site.ref, site.tabId);
    }
  }
  return { x: point.x, y: point.y, input, settled };
}

/** Pure: a frame's viewport and its iframe's content box are the same size (the frame's layout caught up). */
export function sameSize(viewport: { width: number; height: number }, content: { width: number; height: number }): boolean {
  return Math.abs(viewport.width - content.width) <= GEOMETRY_SLACK && Math.abs(viewport.height - content.height) <= GEOMETRY_SLACK;
}

/**
 * In a tab with out-of-process frames, wait until the main frame (and the ref's own frame, when it
 * is out of process) produced its current layout and the browser drew it: the browser picks the
 * frame that gets the input by the last drawn frame (see page/paint.ts). A tab without one needs
 * nothing: its renderer hit-tests each event itself.
 */
export async function drawnAsLaidOut(ctx: PointerContext, site: Pick<RefSite, 'tabId' | 'before' | 'world'>): Promise<void> {
  if (!(await ctx.frames.hasOutOfProcessFrames(ctx, site.tabId))) return;
  const top = site.world.frameId === site.before.frameId ? site.world : await ctx.worlds.ensure(ctx, site.tabId, site.before);
  const worlds = site.world.sessionId === undefined ? [top] : [top, site.world];
  await Promise.all(worlds.map((world) => waitForPaint(ctx, world)));
  // A tab being recorded is drawn continuously by the recording's screencast, which ours would stop.
  if (!ctx.recorder.isRecording(site.tabId)) await waitForDraw(ctx, site.tabId);
}

/** End the armings (best effort: a failed action must not leave a page guarded). */
export async function disarm(ctx: PointerContext, guards: readonly ArmedGuard[]): Promise<void> {
  await Promise.all(guards.map((guard) => callPage(ctx, ctx.worlds, guard.world, 'deliveryReport', { token: guard.token, disarm: true }).catch(() => undefined)));
}

export interface GuardReports {
  target: GuardReport;
  above: GuardReport[];
}

/**
 * An action whose guard another arming replaced before it was read: input chrome-relay did not queue overlapped it
 * (the dispatcher runs one input call per tab at a time, so not its own calls), and the logs prove neither way.
 */
export function inputOverlapError(tabId: number): RelayError {
  return reasonedError(
    'target_conflict',
    'input_overlap',
    `Other input reached the page in tab ${tabId} while this action was delivered, so chrome-relay cannot tell whether it reached its element: it may have happened. Check the page with \`chrome-relay snapshot\` before repeating it.`,
    { phase: 'verify', details: { tab: tabId }, retryable: false },
  );
}

/**
 * The guards' logs. `disarm` ends the armings; `probe` also asks the ref's frame what is at the
 * point now. Throws DocumentChanged (pageCall.ts) when a frame's document was replaced, and
 * target_conflict (input_overlap) when another arming replaced one of them.
 */
export async function readGuards(ctx: PointerContext, point: PointerPoint, options: { disarm: boolean; probe?: boolean }): Promise<GuardReports> {
  const [first, ...rest] = point.guards;
  if (first === undefined) return { target: { armed: false, events: [] }, above: [] };
  const args = { token: first.token, disarm: options.disarm, ...(options.probe === true ? { probe: point.local } : {}) };
  const [target, ...above] = await Promise.all([
    callPage(ctx, ctx.worlds, first.world, 'deliveryReport', args),
    ...rest.map((guard) => callPage(ctx, ctx.worlds, guard.world, 'deliveryReport', { token: guard.token, disarm: options.disarm })),
  ]);
  if (target?.superseded === true || above.some((report) => report.superseded === true)) throw inputOverlapError(first.world.tabId);
  return { target: target ?? { armed: false, events: [] }, above };
}

/**
 * After the input: did it reach the element? Ends the armings. When nothing we watch says where
 * the input went, the ref's frame is asked what is at the point now, to name it if it is not the
 * element.
 */
export async function verifyDelivery(ctx: PointerContext, point: PointerPoint, action: DeliveryAction): Promise<DeliveryVerdict> {
  const reports = await readGuards(ctx, point, { disarm: true, probe: action === 'hover' });
  const verdict = classifyDelivery(action, reports.target, reports.above);
  if (verdict.delivered || verdict.interceptor !== undefined || action === 'hover') return verdict;
  const probed = await readGuards(ctx, { ...point, guards: point.guards.slice(0, 1) }, { disarm: true, probe: true });
  const hit = probed.target.probe?.hit;
  return hit === undefined ? verdict : { ...verdict, interceptor: hit, from: 0 };
}

/**
 * The click_intercepted error for a verdict that is not delivered, its interceptor identified in the document whose
 * guard named it. `describeOnly`: the page cannot be asked (a dialog holds it, or its document was replaced): the
 * interceptor is only described.
 */
export async function undeliveredError(
  ctx: PointerContext,
  tool: ToolName,
  site: RefSite,
  point: PointerPoint,
  verdict: Extract<DeliveryVerdict, { delivered: false }>,
  options: { healed?: boolean; describeOnly?: boolean; verb?: string } = {},
): Promise<RelayError> {
  const world = point.guards[verdict.from ?? 0]?.world;
  const who = verdict.interceptor;
  const interceptor = who === undefined ? undefined : world === undefined || options.describeOnly === true ? described(who) : await identifyInterceptor(ctx, world, who);
  return interceptedError(tool, site.ref, site.tabId, {
    x: point.x,
    y: point.y,
    healed: options.healed ?? point.healed,
    when: verdict.when,
    sent: true,
    ...(interceptor === undefined ? {} : { interceptor }),
    ...(verdict.gone === true ? { gone: true } : {}),
    ...(verdict.gaveWay === true ? { gaveWay: true } : {}),
    ...(options.verb === undefined ? {} : { verb: options.verb }),
  });
}

/** The document was replaced right after the input, before its record could be read, and the press told nothing: it may have happened. */
export function navigatedMidClick(tool: ToolName, site: RefSite): RelayError {
  return reasonedError(
    'stale_ref',
    'navigated',
    `The document @${site.ref} is in was replaced while the input reached it, before chrome-relay could check where it went: it may have happened. Check the page with \`chrome-relay snapshot\` before trying again.`,
    { tool, phase: 'verify', details: { ref: site.ref, tab: site.tabId }, retryable: false },
  );
}

/** Pure: an aiming refused the way an element that gave way is refused until it is drawn again (it has no size). */
export function meanwhile(error: RelayError): boolean {
  return error.code === 'element_not_found' && error.details.reason === 'not_visible';
}
