/**
 * `click --x --y`: a click at a point of the viewport, verified like a ref click (a click that reached something else is not a success). With no
 * ref there is no element to prove a point for, so right before the input the page says what is at
 * the point (the deepest element, through open shadow roots) and arms the delivery guard to expect
 * it there (injected/delivery.ts). The press and the release must then reach that element; whatever
 * else takes them (an overlay shown on mouseover, a decoy swapped in on pointermove) is cancelled
 * before the page sees it, and the click is click_intercepted naming it.
 *
 * A point over an iframe expects the <iframe> element in the top document (guard mode owner): the
 * guard proves nothing of the top document took the input, which is then the frame's. That is
 * enough here: the agent named a point, not an element inside the frame, so the top document's
 * lineage is all there is to verify (a ref inside a frame is verified frame by frame instead, see
 * pointerDelivery.ts). Before that, the frame (and any frame in it at the point) must not show a site the person
 * blocked: nothing is sent into one (input/landing.ts).
 *
 * The aiming and the judging of the one pointer-action path (pointerAction.ts) for a point; nothing else uses it.
 */
import { reasonedError, RelayError } from '@chrome-relay/protocol';
import type { GuardReport, Interceptor } from '../injected/types.js';
import { callPage } from '../page/pageCall.js';
import type { FrameState } from '../page/worlds.js';
import type { PointerContext } from './toolContext.js';
import { classifyDelivery, progress, type DeliveryVerdict } from './deliveryVerdict.js';
import { ACTION_PHASES, disarm, drawnAsLaidOut, readGuards, type PointerPoint } from './pointerDelivery.js';
import { checkPointLanding } from '../input/landing.js';
import { described, identifyInterceptor } from './interceptorIdentity.js';
import { labelOf } from './refAction.js';

/** A point with the guard armed for it, and what it expects there. */
export interface ArmedPoint {
  point: PointerPoint;
  target: Interceptor;
  /** The point is over an iframe: the guard expects the <iframe> (mode owner). */
  frame: boolean;
}

/**
 * Pure: did the click at a point reach what was there? Over an element, as for a ref (the press and
 * the release reached it); over an iframe, nothing of the top document may have taken any of it.
 */
export function classifyPointClick(frame: boolean, report: GuardReport): DeliveryVerdict {
  if (!frame) return classifyDelivery('click', report);
  if (report.interceptor === undefined) return { delivered: true };
  return { delivered: false, when: progress(report.events), interceptor: report.interceptor, from: 0 };
}

function outsideError(x: number, y: number, viewport: { width: number; height: number }): RelayError {
  const field = x >= viewport.width ? 'x' : 'y';
  const value = field === 'x' ? x : y;
  return new RelayError(
    'invalid_arguments',
    `Invalid arguments for click: ${field}=${value} is outside the viewport (${viewport.width}×${viewport.height} CSS px). Give a point inside it (a screenshot shows the viewport), or click a ref from \`chrome-relay snapshot\`.`,
    { tool: 'click', phase: 'validate', details: { field, x, y, viewport } },
  );
}

/** Find what is at (x, y) in the tab's top document and arm the guard for it; invalid_arguments when the point is off the viewport. */
export async function aimPoint(ctx: PointerContext, { tabId, before, x, y }: { tabId: number; before: FrameState; x: number; y: number }): Promise<ArmedPoint> {
  const world = await ctx.worlds.ensure(ctx, tabId, before);
  const outcome = await callPage(ctx, ctx.worlds, world, 'armPoint', { x, y, arm: ACTION_PHASES.click, purpose: 'click' });
  if (outcome.status === 'outside') throw outsideError(x, y, outcome.viewport);
  if (outcome.status === 'stale') throw new RelayError('internal_error', 'armPoint answered stale for a point (no ref was given)', { tool: 'click', phase: 'act' });
  const guards = [{ world, token: outcome.token }];
  try {
    // The frame the point is over gets the click: not one showing a site the person blocked.
    const landed = await checkPointLanding(ctx, world, { at: { x, y }, shown: { x, y } }, outcome.frame);
    await drawnAsLaidOut(ctx, { tabId, before, world });
    const point: PointerPoint = { x, y, healed: false, input: { target: tabId, x, y }, local: { x, y }, guards, landed };
    return { point, target: outcome.target, frame: outcome.frame };
  } catch (error) {
    await disarm(ctx, guards);
    throw error;
  }
}

/** click_intercepted for a point; `describeOnly`: the page cannot be asked (a dialog holds it, its document was replaced). */
export async function pointUndelivered(ctx: PointerContext, tabId: number, armed: ArmedPoint, verdict: Extract<DeliveryVerdict, { delivered: false }>, describeOnly = false): Promise<RelayError> {
  const { x, y } = armed.point;
  const aimed = labelOf(armed.target);
  const world = armed.point.guards[0]?.world;
  const found = verdict.interceptor;
  const interceptor = found === undefined ? undefined : world === undefined || describeOnly ? described(found) : await identifyInterceptor(ctx, world, found);
  const message = pointClickMessage({ x, y }, aimed, interceptor, verdict);
  const details: Record<string, unknown> = { tab: tabId, x, y, when: verdict.when, target: described(armed.target) };
  if (interceptor !== undefined) details.interceptor = interceptor;
  if (verdict.gaveWay === true) details.gaveWay = true;
  return new RelayError('click_intercepted', message, { tool: 'click', phase: 'verify', details, retryable: false });
}

/** Pure: the message of a click at a point that did not reach what was there; the move fits the situation. */
export function pointClickMessage(
  { x, y }: { x: number; y: number },
  aimed: string,
  interceptor: { nodeName: string; id?: string; role?: string; name: string; ref?: string } | undefined,
  verdict: Extract<DeliveryVerdict, { delivered: false }>,
): string {
  if (interceptor === undefined) {
    return `Click at (${x}, ${y}) was not delivered: it was aimed at ${aimed}, which was there, but the input never reached it (another frame took it, or a page listener stopped it). Take a screenshot, then try again.`;
  }
  const who = labelOf(interceptor);
  if (verdict.when === 'on_press') {
    return `Click at (${x}, ${y}) did not complete: ${aimed} got the press, but ${who} took the release, which was cancelled. Its press handlers ran, so check the page before trying again.`;
  }
  if (verdict.gaveWay === true) {
    return `Click at (${x}, ${y}) was not delivered: ${aimed} gave way under the pointer (it shrank, moved or hid as the pointer arrived, as a hover style or a moving element does), and the input went to ${who}, which holds it; those events were cancelled. Take a screenshot to see it, then try again.`;
  }
  const moment = verdict.when === 'after_pointer' ? 'after the pointer arrived (it appears on hover)' : 'when the pointer got there';
  const how = interceptor.ref === undefined ? 'Dismiss or avoid that element' : `Dismiss or avoid it (\`chrome-relay snapshot -s @${interceptor.ref}\` shows it and what closes it)`;
  return `Click at (${x}, ${y}) was not delivered: it was aimed at ${aimed}, but ${who} took the point ${moment}; the events it would have received were cancelled. ${how}, then try again.`;
}

/** After the click at a point: did what was there get it? Ends the arming; names what is at the point now when nothing we watch says where the input went. */
export async function probedPointVerdict(ctx: PointerContext, point: PointerPoint, frame: boolean): Promise<DeliveryVerdict> {
  const reports = await readGuards(ctx, point, { disarm: true, probe: true });
  const verdict = classifyPointClick(frame, reports.target);
  if (verdict.delivered || verdict.interceptor !== undefined) return verdict;
  const hit = reports.target.probe?.hit;
  return hit === undefined ? verdict : { ...verdict, interceptor: hit, from: 0 };
}

/** The click at a point replaced the document before its record could be read, and the press told nothing: it may have happened. */
export function pointNavigatedError(tabId: number, point: { x: number; y: number }): RelayError {
  return reasonedError(
    'timeout',
    'navigating',
    `Tab ${tabId} replaced its document while the click at (${point.x}, ${point.y}) was sent, before chrome-relay could check what it reached: it may have happened. Let the page settle (\`chrome-relay wait --load\`) and check it with \`chrome-relay snapshot\` before clicking again.`,
    { tool: 'click', phase: 'verify', details: { tab: tabId, x: point.x, y: point.y }, retryable: false },
  );
}
