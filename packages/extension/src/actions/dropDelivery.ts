/**
 * The drop side of `drag`, verified: a drop that did not reach its target is never a success. Once the source took the press, the delivery guard
 * of the drop target's document is armed in mode `drop` (injected/delivery.ts): the release at the
 * drop point (pointerup/mouseup) and, for an HTML5 drag, the drop events (dragenter/dragover/drop)
 * must land on the drop target. One that goes anywhere else (an overlay shown when a drag reaches
 * the target, a decoy swapped in) is stopped before the page sees it — a drop that is never
 * accepted never happens — and the drag is click_intercepted with `details.when: on_drop`.
 *
 * Elements besides the target may take the release, because pages send it there themselves: the
 * dragged element (it often follows the pointer, so the release lands on it), an element the page
 * captured the pointer to (setPointerCapture), a drag library's ghost that moved with the
 * pointer (injected/delivery.ts, followerRelease: told from a covering overlay by motion), and a
 * sortable list that moved the target aside to make room for the dragged element (madeRoom).
 *
 * The aiming and the judging of the one pointer-action path (pointerAction.ts) for a drop; nothing else uses it.
 */
import { reasonedError, RelayError } from '@chrome-relay/protocol';
import type { GuardReport, Interceptor } from '../injected/types.js';
import { callPage, DocumentChanged } from '../page/pageCall.js';
import type { PageWorld } from '../page/worlds.js';
import type { PointerContext } from './toolContext.js';
import { inputOverlapError } from './pointerDelivery.js';
import { described, identifyInterceptor } from './interceptorIdentity.js';
import { labelOf, readRef, type RefSite } from './refAction.js';
/** Where the drop lands: the top viewport (`x`, `y`) and, for a ref in an iframe, its own frame's viewport. */
export interface DropPoint {
  x: number;
  y: number;
  local?: { x: number; y: number };
}

export interface ArmedDrop {
  world: PageWorld;
  token: string;
  local: { x: number; y: number };
  target: Interceptor;
}

export type DropVerdict = { delivered: true } | { delivered: false; interceptor?: Interceptor };

/**
 * Pure: did the drop reach its target? Nothing went elsewhere, and something of the drop (the
 * release, or the drop events) arrived there; a report with no event at all proves nothing.
 */
export function classifyDrop(report: GuardReport): DropVerdict {
  if (report.interceptor !== undefined) return { delivered: false, interceptor: report.interceptor };
  if (report.events.some((event) => event.ok)) return { delivered: true };
  const hit = report.probe?.hit;
  return hit === undefined ? { delivered: false } : { delivered: false, interceptor: hit };
}

/** Arm the drop target's guard at the drop point: `target` a ref's site, or undefined for what is at the point of the source's top document. */
export async function armDrop(ctx: PointerContext, source: RefSite, target: RefSite | undefined, point: DropPoint): Promise<ArmedDrop> {
  const arm = { arm: ['release' as const, 'drop' as const], purpose: 'drop' as const };
  let site: RefSite;
  let args;
  if (target !== undefined) {
    site = target;
    const local = point.local ?? { x: point.x, y: point.y };
    // The dragged element can only take a release in its own document.
    args = { ...local, ...arm, ref: target.ref, ...(target.world.frameId === source.world.frameId ? { sourceRef: source.ref } : {}) };
  } else {
    // A point or a selector: the element at the point in the top document, as the drag found it.
    site = { ...source, world: await ctx.worlds.ensure(ctx, source.tabId, source.before) };
    args = { x: point.x, y: point.y, ...arm, ...(source.world.frameId === source.before.frameId ? { sourceRef: source.ref } : {}) };
  }
  const outcome = await readRef(ctx, site, 'drag', 'armPoint', args);
  if (outcome.status === 'outside') {
    throw new RelayError('invalid_arguments', `Cannot drag @${source.ref} there: the drop point (${point.x}, ${point.y}) is outside the viewport. Scroll so the drop target is visible, then retry.`, {
      tool: 'drag',
      phase: 'act',
      details: { field: 'to', from: source.ref, x: point.x, y: point.y },
    });
  }
  return { world: site.world, token: outcome.token, local: { x: args.x, y: args.y }, target: outcome.target };
}

async function undeliveredDrop(ctx: PointerContext, source: RefSite, armed: ArmedDrop, point: DropPoint, verdict: Extract<DropVerdict, { delivered: false }>): Promise<RelayError> {
  const aimed = labelOf(armed.target);
  const where = `(${point.x}, ${point.y})`;
  const interceptor = verdict.interceptor === undefined ? undefined : await identifyInterceptor(ctx, armed.world, verdict.interceptor);
  const message =
    interceptor === undefined
      ? `Drag of @${source.ref} did not complete: the drag began, but the drop at ${where} never reached ${aimed} (another frame took it, or a page listener stopped it). The dragged element may have moved: check the page with \`chrome-relay snapshot\` before trying again.`
      : `Drag of @${source.ref} did not complete: the drag began, but ${labelOf(interceptor)} took the drop at ${where} instead of ${aimed}; it was cancelled. The dragged element may have moved: check the page with \`chrome-relay snapshot\` before trying again.`;
  const details: Record<string, unknown> = { ref: source.ref, tab: source.tabId, x: point.x, y: point.y, when: 'on_drop', target: described(armed.target) };
  if (interceptor !== undefined) details.interceptor = interceptor;
  return new RelayError('click_intercepted', message, { tool: 'drag', phase: 'verify', details, retryable: false });
}

/** After the drop: did it reach its target? Ends the arming; click_intercepted (when on_drop) when it did not. */
export async function dropVerdict(ctx: PointerContext, source: RefSite, armed: ArmedDrop, point: DropPoint): Promise<void> {
  let verdict: DropVerdict;
  try {
    const dropped = await callPage(ctx, ctx.worlds, armed.world, 'deliveryReport', { token: armed.token, disarm: true, probe: armed.local });
    if (dropped.superseded === true) throw inputOverlapError(source.tabId);
    verdict = classifyDrop(dropped);
  } catch (error) {
    if (!(error instanceof DocumentChanged)) throw error;
    throw reasonedError(
      'stale_ref',
      'navigated',
      `The document was replaced right after @${source.ref} was dropped, before chrome-relay could check where the drop went: it may have happened. Check the page with \`chrome-relay snapshot\` before dragging again.`,
      { tool: 'drag', phase: 'verify', details: { ref: source.ref, tab: source.tabId }, retryable: false },
    );
  }
  if (!verdict.delivered) throw await undeliveredDrop(ctx, source, armed, point, verdict);
}
