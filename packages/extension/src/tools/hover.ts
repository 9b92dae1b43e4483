/**
 * `hover @ref`: scroll into view, hit-test like click (a covered element is refused), trusted mouse
 * move, then proof: nothing of the move went to another element, and afterwards the point still
 * reaches the element and the browser has the pointer over it (:hover). An overlay that appears
 * when the pointer arrives is click_intercepted (details.when after_pointer), not a success. An element
 * that gives way under the pointer (an icon whose hover image is still loading) is hovered again once it
 * is drawn again, as a click is. All of it is the one pointer-action path's (actions/pointerAction.ts).
 */

import { defineTool } from './defineTool.js';
import { hover, pointerAction } from '../actions/pointerAction.js';
import { POINTER_SERVICES } from '../actions/toolContext.js';
import { openRef } from '../actions/refAction.js';
export const hoverTool = defineTool({
  name: 'hover',
  uses: POINTER_SERVICES,
  async handle(params, ctx) {
    const site = await openRef(ctx, params.ref);
    const done = await pointerAction(ctx, { ref: site }, hover('hover'));
    return { tabId: site.tabId, ref: params.ref, x: done.x, y: done.y, healed: done.healed };
  },
});
