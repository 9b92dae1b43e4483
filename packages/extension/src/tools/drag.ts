/**
 * `drag @from @to`: trusted press on the source, moves in steps, release on the target (a ref: past its
 * centre, see pastCentre). Where no ref fits the drop target (a drop zone the snapshot shows only as text, a
 * spot on a canvas), it may be the first visible element matching a CSS selector in the source's page
 * (hit-tested like a ref), or a point of the viewport (used as given, like `click --x --y`).
 *
 * Both points are hit-tested (a covered source or target is refused, as for click) and must be
 * in view together: computing the target's point may scroll the page, so the source is
 * re-located afterwards and both must then hold still.
 *
 * The press is verified like a click's (pointerDelivery.ts): the source itself must receive the
 * pointer and the press, or the button is let go where it is and the drag is click_intercepted.
 * The moves in between go over other elements on purpose and are not checked; the drop side is
 * (dropDelivery.ts): the release, and for an HTML5 drag the drop, must reach the drop target (or
 * the dragged element, which often follows the pointer), else click_intercepted with when on_drop.
 * The drop target is also hit-tested before the drag starts.
 *
 * HTML5 drag and drop (draggable + dragstart/drop): with Input.setInterceptDrags on, Chrome does
 * not start its own (OS-level) drag session when dragstart fires; it reports the drag
 * (Input.dragIntercepted, with the data the page set) and we deliver dragEnter/dragOver/drop at the
 * target with Input.dispatchDragEvent. The e2e fixture checks the page's drop handler receives the
 * data. Plain mouse-driven drags (pointer events, sliders, sortable lists without draggable) take
 * the press/move/release, also covered by the e2e.
 */
import { selectorRefused } from '../page/selectorRefused.js';
import { reasonedError, RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { dispatchDrop, interceptDrags, type DragInterception } from '../input/drag.js';
import { dragMouse, withUnbufferedInput } from '../input/mouse.js';
import { setCurrentTab } from '../targets.js';
import { defineTool } from './defineTool.js';
import type { ToolContext } from '../actions/toolContext.js';
import { classifyDelivery } from '../actions/deliveryVerdict.js';
import { verifiedDrop } from '../actions/dropDelivery.js';
import { checkTopLanding, type Landed } from '../input/landing.js';
import { disarm, pointerTarget, readGuards, undeliveredError, type PointerPoint } from '../actions/pointerDelivery.js';
import { identifyInterceptor } from '../actions/interceptorIdentity.js';
import { callSite, interceptedError, openRef, unlessStale, type RefSite } from '../actions/refAction.js';
const STEPS = 8;
const DRAG_EVENT_GRACE_MS = 50;

type Point = PointerPoint;

/** How far past the target's centre a drop goes, at most: enough to be past its middle, not enough to miss a spot. */
export const PAST_CENTRE_PX = 8;

/**
 * Pure: where the drop goes on a target of this size reached from `from`: just past its centre along the way the
 * pointer came (a quarter of the way on to its edge, at most PAST_CENTRE_PX). A person drags an item onto another
 * until it gives way, and sortable lists decide that by the pointer crossing the item's middle (jQuery UI's: at or
 * past it, in the direction of the move); a release exactly on the centre sits on that line. Little enough that a box
 * dropped into another still lands near its middle.
 */
export function pastCentre(from: { x: number; y: number }, centre: { x: number; y: number }, size: { width: number; height: number }): { x: number; y: number } {
  const dx = centre.x - from.x;
  const dy = centre.y - from.y;
  const length = Math.hypot(dx, dy);
  if (length < 1 || !(size.width > 0) || !(size.height > 0)) return centre;
  const ux = dx / length;
  const uy = dy / length;
  const toEdge = Math.min(ux === 0 ? Infinity : size.width / 2 / Math.abs(ux), uy === 0 ? Infinity : size.height / 2 / Math.abs(uy));
  const past = Math.min(toEdge / 4, PAST_CENTRE_PX);
  return { x: centre.x + ux * past, y: centre.y + uy * past };
}

/** The drop point moved past the target's centre (its own frame's point moved alike). */
async function dropPoint(ctx: ToolContext, from: Point, to: RefSite, centre: Point): Promise<Point> {
  const box = unlessStale(to, await callSite(ctx, to, 'box', { ref: to.ref }));
  if (box.status !== 'ok') return centre;
  const past = pastCentre(from, centre, box);
  const shift = { x: past.x - centre.x, y: past.y - centre.y };
  return { ...centre, x: past.x, y: past.y, local: { x: centre.local.x + shift.x, y: centre.local.y + shift.y } };
}

/** The drop target as the agent gave it. */
type DropTarget = { ref: string } | { selector: string } | { x: number; y: number };

function dropTargetOf(params: ToolParams<'drag'>): DropTarget {
  if (params.to !== undefined) return { ref: params.to };
  if (params.toSelector !== undefined) return { selector: params.toSelector };
  return { x: params.toX ?? 0, y: params.toY ?? 0 };
}

/** Where a drop target given as a CSS selector is, in the source's frame (which must be the tab's top frame). */
async function selectorPoint(ctx: ToolContext, from: RefSite, selector: string): Promise<{ x: number; y: number }> {
  const invalid = (message: string, details: Record<string, unknown> = {}) =>
    new RelayError('invalid_arguments', `Invalid arguments for drag: ${message}`, { tool: 'drag', phase: 'resolve', details: { field: 'toSelector', selector, ...details } });
  if (from.world.frameId !== from.before.frameId) throw invalid(`@${from.ref} is inside an iframe; a drop target there must be a ref (from a snapshot), not a selector.`);
  const outcome = await callSite(ctx, from, 'locateSelector', { selector });
  switch (outcome.status) {
    case 'ok':
      return { x: outcome.x, y: outcome.y };
    case 'bad_selector':
    case 'secret_selector':
      throw selectorRefused('drag', 'toSelector', selector, outcome);
    case 'none':
      if (outcome.matched === 0) {
        throw reasonedError('element_not_found', 'no_match', `No element in tab ${from.tabId} matches "${selector}"; check it against a fresh \`chrome-relay snapshot\`, or \`chrome-relay wait --selector\` for it.`, {
          tool: 'drag',
          phase: 'resolve',
          details: { selector, tab: from.tabId, matched: 0 },
        });
      }
      throw reasonedError('element_not_found', 'not_visible', `The ${outcome.matched} element(s) matching "${selector}" are not visible now; reveal one (scroll, expand) or \`chrome-relay wait\` for it, then retry.`, {
        tool: 'drag',
        phase: 'resolve',
        details: { selector, tab: from.tabId, matched: outcome.matched },
      });
    case 'intercepted': {
      const interceptor = await identifyInterceptor(ctx, from.world, outcome.interceptor);
      throw interceptedError('drag', from.ref, from.tabId, { x: outcome.x, y: outcome.y, healed: false, interceptor, when: 'before_pointer', sent: false });
    }
  }
}

/**
 * Both points, the source's guard armed last (each page has one arming at a time, and the
 * source's is the one the press is checked against; the target's point is only hit-tested).
 */
async function locateBoth(ctx: ToolContext, from: RefSite, to: RefSite | Exclude<DropTarget, { ref: string }>): Promise<{ from: Point; to: Point | { x: number; y: number; landed?: Landed } }> {
  const first = await pointerTarget(ctx, from, 'drag', 'press');
  if (!('world' in to)) {
    // A point needs nothing located; a selector is located once the source is armed and in view.
    if ('x' in to) return { from: first, to };
    await disarm(ctx, first.guards);
    const point = await selectorPoint(ctx, from, to.selector);
    const source = await pointerTarget(ctx, from, 'drag', 'press');
    if (source.x === first.x && source.y === first.y) return { from: source, to: point };
    await disarm(ctx, source.guards);
    const again = await selectorPoint(ctx, from, to.selector);
    const settled = await pointerTarget(ctx, from, 'drag', 'press');
    if (again.x !== point.x || again.y !== point.y || settled.x !== source.x || settled.y !== source.y) {
      await disarm(ctx, settled.guards);
      throw new RelayError('invalid_arguments', `Cannot drag @${from.ref} onto "${to.selector}": they do not fit in the viewport together. Scroll so both are visible, then retry.`, {
        tool: 'drag',
        phase: 'act',
        details: { field: 'toSelector', from: from.ref, selector: to.selector },
      });
    }
    return { from: settled, to: again };
  }
  const target = await pointerTarget(ctx, to, 'drag', 'press');
  await disarm(ctx, target.guards);
  const source = await pointerTarget(ctx, from, 'drag', 'press');
  if (source.x === first.x && source.y === first.y) return { from: source, to: target };
  // Bringing the target into view moved the source: both must now be in view and still.
  await disarm(ctx, source.guards);
  const again = await pointerTarget(ctx, to, 'drag', 'press');
  await disarm(ctx, again.guards);
  const settled = await pointerTarget(ctx, from, 'drag', 'press');
  if (again.x !== target.x || again.y !== target.y || settled.x !== source.x || settled.y !== source.y) {
    await disarm(ctx, settled.guards);
    throw new RelayError('invalid_arguments', `Cannot drag @${from.ref} onto @${to.ref}: they do not fit in the viewport together. Scroll so both are visible (or drag in steps), then retry.`, {
      tool: 'drag',
      phase: 'act',
      details: { field: 'to', from: from.ref, to: to.ref },
    });
  }
  return { from: settled, to: again };
}

/** The pointer onto the source and the button down; click_intercepted (button let go) unless the source got both. */
async function pressSource(ctx: ToolContext, site: RefSite, tabId: number, a: Point): Promise<void> {
  await dragMouse(ctx, a.landed, tabId, 'mouseMoved', a.x, a.y, 0);
  await dragMouse(ctx, a.landed, tabId, 'mousePressed', a.x, a.y, 1);
  let verdict;
  try {
    const reports = await readGuards(ctx, a, { disarm: false });
    verdict = classifyDelivery('press', reports.target, reports.above);
  } catch (error) {
    await dragMouse(ctx, a.landed, tabId, 'mouseReleased', a.x, a.y, 0).catch(() => undefined);
    throw error;
  }
  if (!verdict.delivered) {
    // Let the button go while still armed: the guard cancels the release too, so the element
    // that took the press hears nothing of the drag at all.
    await dragMouse(ctx, a.landed, tabId, 'mouseReleased', a.x, a.y, 0);
  }
  // The moves go over other elements on purpose; the drop side is checked on its own (dropDelivery.ts).
  await disarm(ctx, a.guards);
  if (!verdict.delivered) throw await undeliveredError(ctx, 'drag', site, a, verdict);
}

export const dragTool = defineTool({
  name: 'drag',
  async handle(params, ctx): Promise<ToolResult<'drag'>> {
    const from = await openRef(ctx, params.from);
    const drop = dropTargetOf(params);
    const to = 'ref' in drop ? await openRef(ctx, drop.ref) : drop;
    if ('world' in to && from.tabId !== to.tabId) {
      throw reasonedError('target_conflict', 'multiple_targets', `@${params.from} is in tab ${from.tabId} but @${to.ref} is in tab ${to.tabId}; drag works within one tab: give one target tab (refs of one tab).`, {
        tool: 'drag',
        phase: 'resolve',
        details: { from: params.from, to: to.ref, fromTab: from.tabId, toTab: to.tabId },
      });
    }
    const tabId = from.tabId;
    const points = await locateBoth(ctx, from, to);
    if ('world' in to && 'local' in points.to) {
      try {
        points.to = await dropPoint(ctx, points.from, to, points.to);
      } catch (error) {
        await disarm(ctx, points.from.guards);
        throw error;
      }
    }
    let dropLanded: Landed;
    try {
      // A drop at a point or selector of the top document: what is there may be a frame showing a blocked site
      // (a ref's point was checked by pointerTarget).
      dropLanded = points.to.landed ?? (await checkTopLanding(ctx, tabId, { at: points.to, shown: points.to }));
    } catch (error) {
      await disarm(ctx, points.from.guards);
      throw error;
    }

    let drags: DragInterception;
    try {
      drags = await interceptDrags(ctx, tabId);
    } catch (error) {
      // pressSource ends the source's arming on every path it takes; this is the one before it.
      await disarm(ctx, points.from.guards);
      throw error;
    }
    try {
      const a = points.from;
      const b = points.to;
      await withUnbufferedInput(ctx, tabId, async () => {
        await pressSource(ctx, from, tabId, a);
        const letGo = () => dragMouse(ctx, a.landed, tabId, 'mouseReleased', a.x, a.y, 0);
        await verifiedDrop(ctx, { source: from, target: to, point: b }, async () => {
          for (let step = 1; step <= STEPS; step++) {
            const x = a.x + ((b.x - a.x) * step) / STEPS;
            const y = a.y + ((b.y - a.y) * step) / STEPS;
            await dragMouse(ctx, a.landed, tabId, 'mouseMoved', x, y, 1);
            if (drags.intercepted() !== undefined) break;
          }
          // The event can trail the move that started the drag by a moment; with interception on,
          // a drag we missed would never reach the page at all.
          if (drags.intercepted() === undefined) await new Promise((resolve) => setTimeout(resolve, DRAG_EVENT_GRACE_MS));
          const data = drags.intercepted();
          if (data !== undefined) await dispatchDrop(ctx, dropLanded, tabId, b.x, b.y, data);
          await dragMouse(ctx, dropLanded, tabId, 'mouseReleased', b.x, b.y, 0);
        }, letGo);
      });
    } finally {
      await drags.stop();
    }
    await setCurrentTab(tabId, ctx.browser);
    const healed = points.from.healed || ('healed' in points.to && points.to.healed === true);
    return {
      tabId,
      from: { ref: params.from, x: points.from.x, y: points.from.y },
      to: { ...('ref' in drop ? { ref: drop.ref } : 'selector' in drop ? { selector: drop.selector } : {}), x: points.to.x, y: points.to.y },
      healed,
    };
  },
});

