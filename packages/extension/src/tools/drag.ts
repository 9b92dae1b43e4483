/**
 * `drag @from @to`: trusted press on the source, moves in steps, release on the target.
 *
 * Both points are hit-tested (a covered source or target is refused, as for click) and must be
 * in view together: computing the target's point may scroll the page, so the source is
 * re-located afterwards and both must then hold still.
 *
 * HTML5 drag and drop (draggable + dragstart/drop): with Input.setInterceptDrags on, Chrome does
 * not start its own (OS-level) drag session when dragstart fires; it reports the drag
 * (Input.dragIntercepted, with the data the page set) and we deliver dragEnter/dragOver/drop at the
 * target with Input.dispatchDragEvent. The e2e fixture checks the page's drop handler receives the
 * data. Plain mouse-driven drags (pointer events, sliders, sortable lists without draggable) take
 * the press/move/release, also covered by the e2e.
 */
import { reasonedError, RelayError, type ToolResult } from '@chrome-relay/protocol';
import type Protocol from 'devtools-protocol';
import { worlds as defaultWorlds } from '../page/worlds.js';
import { refRegistry } from '../refs/index.js';
import { setCurrentTab } from '../targets.js';
import { defineTool, type ToolContext } from './defineTool.js';
import { openRef, pointerTarget, type RefDeps, type RefSite } from './refAction.js';

const STEPS = 8;
const DRAG_EVENT_GRACE_MS = 50;

type Point = { x: number; y: number; healed: boolean };

async function mouse(ctx: ToolContext, tabId: number, type: 'mouseMoved' | 'mousePressed' | 'mouseReleased', x: number, y: number, buttons: number): Promise<void> {
  await ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', {
    type,
    x,
    y,
    button: type === 'mouseMoved' && buttons === 0 ? 'none' : 'left',
    buttons,
    clickCount: type === 'mouseMoved' ? 0 : 1,
    pointerType: 'mouse',
  });
}

async function locateBoth(ctx: ToolContext, deps: RefDeps, from: RefSite, to: RefSite): Promise<{ from: Point; to: Point }> {
  const first = await pointerTarget(ctx, deps, from, 'drag');
  const target = await pointerTarget(ctx, deps, to, 'drag');
  const source = await pointerTarget(ctx, deps, from, 'drag');
  if (source.x === first.x && source.y === first.y) return { from: source, to: target };
  // Bringing the target into view moved the source: both must now be in view and still.
  const again = await pointerTarget(ctx, deps, to, 'drag');
  if (again.x !== target.x || again.y !== target.y) {
    throw new RelayError('invalid_arguments', `Cannot drag @${from.ref} onto @${to.ref}: they do not fit in the viewport together. Scroll so both are visible (or drag in steps), then retry.`, {
      tool: 'drag',
      phase: 'act',
      details: { field: 'to', from: from.ref, to: to.ref },
    });
  }
  return { from: source, to: again };
}

export function createDragTool(deps: RefDeps) {
  return defineTool({
    name: 'drag',
    async handle(params, ctx): Promise<ToolResult<'drag'>> {
      const from = await openRef(ctx, deps, params.from, params.tab);
      const to = await openRef(ctx, deps, params.to, params.tab);
      if (from.tabId !== to.tabId) {
        throw reasonedError('target_conflict', 'multiple_targets', `@${params.from} is in tab ${from.tabId} but @${params.to} is in tab ${to.tabId}; drag works within one tab.`, {
          tool: 'drag',
          phase: 'resolve',
          details: { from: params.from, to: params.to, fromTab: from.tabId, toTab: to.tabId },
        });
      }
      const tabId = from.tabId;
      const points = await locateBoth(ctx, deps, from, to);

      let intercepted: Protocol.Input.DragData | undefined;
      const unsubscribe = ctx.cdp.on((event) => {
        if (event.tabId === tabId && event.sessionId === undefined && event.method === 'Input.dragIntercepted') {
          intercepted = (event.params as Protocol.Input.DragInterceptedEvent).data;
        }
      });
      await ctx.cdp.send(tabId, 'Input.setInterceptDrags', { enabled: true });
      try {
        const a = points.from;
        const b = points.to;
        await mouse(ctx, tabId, 'mouseMoved', a.x, a.y, 0);
        await mouse(ctx, tabId, 'mousePressed', a.x, a.y, 1);
        for (let step = 1; step <= STEPS; step++) {
          const x = a.x + ((b.x - a.x) * step) / STEPS;
          const y = a.y + ((b.y - a.y) * step) / STEPS;
          await mouse(ctx, tabId, 'mouseMoved', x, y, 1);
          if (intercepted !== undefined) break;
        }
        // The event can trail the move that started the drag by a moment; with interception on,
        // a drag we missed would never reach the page at all.
        if (intercepted === undefined) await new Promise((resolve) => setTimeout(resolve, DRAG_EVENT_GRACE_MS));
        if (intercepted !== undefined) {
          const data = intercepted;
          for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
            await ctx.cdp.send(tabId, 'Input.dispatchDragEvent', { type, x: b.x, y: b.y, data });
          }
        }
        await mouse(ctx, tabId, 'mouseReleased', b.x, b.y, 0);
      } finally {
        unsubscribe();
        await ctx.cdp.send(tabId, 'Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
      }
      await setCurrentTab(tabId, ctx.browser);
      return {
        tabId,
        from: { ref: params.from, x: points.from.x, y: points.from.y },
        to: { ref: params.to, x: points.to.x, y: points.to.y },
        healed: points.from.healed || points.to.healed,
      };
    },
  });
}

export const dragTool = createDragTool({ registry: refRegistry, worlds: defaultWorlds });
