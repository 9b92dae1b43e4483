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
 * Each end is a pointer action of the one path (actions/pointerAction.ts). The press is verified like a
 * click's: the source itself must receive the pointer and the press, or the button is let go where it is
 * and the drag is click_intercepted. The moves in between go over other elements on purpose and are not
 * checked; the drop is: the release, and for an HTML5 drag the drop, must reach the drop target (or the
 * dragged element, which often follows the pointer), else click_intercepted with when on_drop. The drop
 * target is also hit-tested before the drag starts.
 *
 * HTML5 drag and drop (draggable + dragstart/drop): with Input.setInterceptDrags on, Chrome does
 * not start its own (OS-level) drag session when dragstart fires; it reports the drag
 * (Input.dragIntercepted, with the data the page set) and we deliver dragEnter/dragOver/drop at the
 * target with Input.dispatchDragEvent. The e2e fixture checks the page's drop handler receives the
 * data. Plain mouse-driven drags (pointer events, sliders, sortable lists without draggable) take
 * the press/move/release, also covered by the e2e.
 */
import { reasonedError, RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { dispatchDrop, interceptDrags, type DragInterception } from '../input/drag.js';
import { dragMouse, withUnbufferedInput } from '../input/mouse.js';
import { selectorRefused } from '../page/selectorRefused.js';
import { defineTool } from './defineTool.js';
import { POINTER_SERVICES, type PointerContext } from '../actions/toolContext.js';
import { identifyInterceptor } from '../actions/interceptorIdentity.js';
import { pointerAction, type Companion, type InputAt, type Located } from '../actions/pointerAction.js';
import { interceptedError, openRef, readRef, type RefSite } from '../actions/refAction.js';
const STEPS = 8;
const DRAG_EVENT_GRACE_MS = 50;

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

/** Where the drop lands: the top viewport, and for a ref in an iframe its own frame's viewport. */
interface DropAt {
  x: number;
  y: number;
  local?: { x: number; y: number };
}

/** The drop point moved past the target's centre (its own frame's point moved alike). */
async function dropPoint(ctx: PointerContext, from: { x: number; y: number }, to: RefSite, centre: Located): Promise<DropAt> {
  const local = centre.local ?? { x: centre.x, y: centre.y };
  const box = await readRef(ctx, to, 'drag', 'box', { ref: to.ref });
  if (box.status !== 'ok') return { x: centre.x, y: centre.y, local };
  const past = pastCentre(from, centre, box);
  const shift = { x: past.x - centre.x, y: past.y - centre.y };
  return { x: past.x, y: past.y, local: { x: local.x + shift.x, y: local.y + shift.y } };
}

/** The drop target as the agent gave it. */
type DropTarget = { ref: string } | { selector: string } | { x: number; y: number };

function dropTargetOf(params: ToolParams<'drag'>): DropTarget {
  if (params.to !== undefined) return { ref: params.to };
  if (params.toSelector !== undefined) return { selector: params.toSelector };
  return { x: params.toX ?? 0, y: params.toY ?? 0 };
}

/** Where a drop target given as a CSS selector is, in the source's frame (which must be the tab's top frame). */
async function selectorPoint(ctx: PointerContext, from: RefSite, selector: string): Promise<{ x: number; y: number }> {
  const invalid = (message: string, details: Record<string, unknown> = {}) =>
    new RelayError('invalid_arguments', `Invalid arguments for drag: ${message}`, { tool: 'drag', phase: 'resolve', details: { field: 'toSelector', selector, ...details } });
  if (from.world.frameId !== from.before.frameId) throw invalid(`@${from.ref} is inside an iframe; a drop target there must be a ref (from a snapshot), not a selector.`);
  const outcome = await readRef(ctx, from, 'drag', 'locateSelector', { selector });
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

/** The drop target as the press finds it with the source: in view together, holding still. */
function companionOf(ctx: PointerContext, from: RefSite, to: RefSite | Exclude<DropTarget, { ref: string }>): Companion {
  if ('world' in to) return { ref: to };
  if ('x' in to) return { point: to };
  return {
    locate: () => selectorPoint(ctx, from, to.selector),
    apart: () =>
      new RelayError('invalid_arguments', `Cannot drag @${from.ref} onto "${to.selector}": they do not fit in the viewport together. Scroll so both are visible, then retry.`, {
        tool: 'drag',
        phase: 'act',
        details: { field: 'toSelector', from: from.ref, selector: to.selector },
      }),
  };
}

export const dragTool = defineTool({
  name: 'drag',
  uses: POINTER_SERVICES,
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
    const target = 'world' in to ? to : undefined;
    // Each end of the drag is a pointer action of its own (actions/pointerAction.ts): the press on the source, found
    // with the drop target in view, then the drop. Between them the button stays down; the moves go over other
    // elements on purpose, and only the ends are proven.
    const drags: DragInterception = await interceptDrags(ctx, tabId);
    try {
      return await withUnbufferedInput(ctx, tabId, async () => {
        let end: DropAt | undefined;
        let landedAt: Located | undefined;
        const pressed = await pointerAction(
          ctx,
          { ref: from },
          {
            tool: 'drag',
            checks: 'press',
            with: companionOf(ctx, from, to),
            beforeInput: async (source, companion) => {
              // The path finds the companion it was given before any input: nothing is pressed without a drop point.
              if (companion === undefined) throw new RelayError('internal_error', 'drag: the press found no drop point', { tool: 'drag', phase: 'act' });
              landedAt = companion;
              end = target === undefined ? { x: companion.x, y: companion.y } : await dropPoint(ctx, source, target, companion);
            },
            send: async (_ctx, a) => {
              await dragMouse(ctx, a.landed, tabId, 'mouseMoved', a.x, a.y, 0);
              await dragMouse(ctx, a.landed, tabId, 'mousePressed', a.x, a.y, 1);
            },
            letGo: (_ctx, a) => dragMouse(ctx, a.landed, tabId, 'mouseReleased', a.x, a.y, 0),
          },
        );
        const a: InputAt = pressed.at;
        const b = end;
        const dropLanded = landedAt?.landed;
        if (b === undefined || dropLanded === undefined) {
          // Unreachable (beforeInput set both before the press); the button is let go all the same.
          await dragMouse(ctx, a.landed, tabId, 'mouseReleased', a.x, a.y, 0);
          throw new RelayError('internal_error', 'drag: the press found no drop point', { tool: 'drag', phase: 'act' });
        }
        await pointerAction(
          ctx,
          { drop: { source: from, target, at: b } },
          {
            tool: 'drag',
            checks: 'drop',
            abandon: () => dragMouse(ctx, a.landed, tabId, 'mouseReleased', a.x, a.y, 0),
            send: async () => {
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
            },
          },
        );
        return {
          tabId,
          from: { ref: params.from, x: a.x, y: a.y },
          to: { ...('ref' in drop ? { ref: drop.ref } : 'selector' in drop ? { selector: drop.selector } : {}), x: b.x, y: b.y },
          healed: pressed.healed,
        };
      });
    } finally {
      await drags.stop();
    }
  },
});
