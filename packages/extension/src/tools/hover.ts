/**
 * `hover @ref`: scroll into view, hit-test like click (a covered element is refused), trusted mouse
 * move, then proof: nothing of the move went to another element, and afterwards the point still
 * reaches the element and the browser has the pointer over it (:hover). An overlay that appears
 * when the pointer arrives is click_intercepted (details.when after_pointer), not a success. An element
 * that gives way under the pointer (an icon whose hover image is still loading) is hovered again once it
 * is drawn again, as a click is (actions/pointerDelivery.ts whileGivingWay).
 *
 * The move is delivered unbuffered (withUnbufferedInput): otherwise its acknowledgement, and so the
 * proof, would wait for the page's next animation frame (up to ~1 s measured on a 1,500-row page).
 */
import { moveTo, withUnbufferedInput } from '../input/mouse.js';
import { setCurrentTab } from '../targets.js';
import { defineTool } from './defineTool.js';
import { disarm, pointerTarget, undeliveredError, verifyDelivery, whileGivingWay } from '../actions/pointerDelivery.js';
import { openRef } from '../actions/refAction.js';
export const hoverTool = defineTool({
  name: 'hover',
  async handle(params, ctx) {
    const site = await openRef(ctx, params.ref);
    const first = await pointerTarget(ctx, site, 'hover', 'hover');
    const { point } = await whileGivingWay(ctx, site, 'hover', 'hover', first, async (at) => {
      try {
        await withUnbufferedInput(ctx, at.input.target, () => moveTo(ctx, at.landed, at.input.target, at.input.x, at.input.y));
      } catch (error) {
        await disarm(ctx, at.guards);
        throw error;
      }
      const verdict = await verifyDelivery(ctx, at, 'hover');
      if (verdict.delivered) return {};
      const error = await undeliveredError(ctx, 'hover', site, at, verdict);
      if (verdict.gaveWay === true) return { gaveWay: error };
      throw error;
    });
    await setCurrentTab(site.tabId, ctx.browser);
    return { tabId: site.tabId, ref: params.ref, x: point.x, y: point.y, healed: first.healed || point.healed };
  },
});

