/**
 * `hover @ref`: scroll into view, hit-test like click (a covered element is refused), trusted mouse
 * move, then proof: nothing of the move went to another element, and afterwards the point still
 * reaches the element and the browser has the pointer over it (:hover). An overlay that appears
 * when the pointer arrives is click_intercepted (details.when after_pointer), not a success.
 *
 * The move is delivered unbuffered (withUnbufferedInput): otherwise its acknowledgement, and so the
 * proof, would wait for the page's next animation frame (up to ~1 s measured on a 1,500-row page).
 */
import { moveTo, withUnbufferedInput } from '../input/mouse.js';
import { setCurrentTab } from '../targets.js';
import { defineTool } from './defineTool.js';
import { disarm, pointerTarget, undeliveredError, verifyDelivery } from '../actions/pointerDelivery.js';
import { openRef } from '../actions/refAction.js';
export const hoverTool = defineTool({
  name: 'hover',
  async handle(params, ctx) {
    const site = await openRef(ctx, params.ref);
    const point = await pointerTarget(ctx, site, 'hover', 'hover');
    try {
      await withUnbufferedInput(ctx, point.input.target, () => moveTo(ctx, point.landed, point.input.target, point.input.x, point.input.y));
    } catch (error) {
      await disarm(ctx, point.guards);
      throw error;
    }
    const verdict = await verifyDelivery(ctx, point, 'hover');
    if (!verdict.delivered) throw await undeliveredError(ctx, 'hover', site, point, verdict);
    await setCurrentTab(site.tabId, ctx.browser);
    return { tabId: site.tabId, ref: params.ref, x: point.x, y: point.y, healed: point.healed };
  },
});

