/**
 * `hover @ref`: scroll into view, hit-test like click (a covered element is refused), trusted mouse
 * move, then proof: nothing of the move went to another element, and afterwards the point still
 * reaches the element and the browser has the pointer over it (:hover). An overlay that appears
 * when the pointer arrives is click_intercepted (details.when after_pointer), not a success.
 *
 * The move is delivered unbuffered (withUnbufferedInput): otherwise its acknowledgement, and so the
 * proof, would wait for the page's next animation frame (up to ~1 s, issue 9).
 */
import { moveTo, withUnbufferedInput } from '../input/mouse.js';
import { worlds as defaultWorlds } from '../page/worlds.js';
import { refRegistry } from '../refs/index.js';
import { setCurrentTab } from '../targets.js';
import { defineTool } from './defineTool.js';
import { disarm, pointerTarget, undeliveredError, verifyDelivery } from './pointerDelivery.js';
import { openRef, type RefDeps } from './refAction.js';

export function createHoverTool(deps: RefDeps) {
  return defineTool({
    name: 'hover',
    async handle(params, ctx) {
      const site = await openRef(ctx, deps, params.ref, params.tab);
      const point = await pointerTarget(ctx, deps, site, 'hover', 'hover');
      try {
        await withUnbufferedInput(ctx, point.input.target, () => moveTo(ctx, point.input.target, point.input.x, point.input.y));
      } catch (error) {
        await disarm(ctx, deps, point.guards);
        throw error;
      }
      const verdict = await verifyDelivery(ctx, deps, point, 'hover');
      if (!verdict.delivered) throw await undeliveredError(ctx, deps, 'hover', site, point, verdict);
      await setCurrentTab(site.tabId, ctx.browser);
      return { tabId: site.tabId, ref: params.ref, x: point.x, y: point.y, healed: point.healed };
    },
  });
}

export const hoverTool = createHoverTool({ registry: refRegistry, worlds: defaultWorlds });
