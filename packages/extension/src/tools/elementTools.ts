/** The element-addressed tools (part of TOOL_REGISTRY, spread in by tools/index.ts), the small reads `get box` and `get style`, and `dblclick`. */

import { checkTool, uncheckTool } from './check.js';
import { defineTool, type AnyToolDefinition } from './defineTool.js';
import { dragTool } from './drag.js';
import { fillTool } from './fill.js';
import { focusTool } from './focus.js';
import { hoverTool } from './hover.js';
import { scrollTool } from './scroll.js';
import { selectTool } from './select.js';
import { notVisibleError, openRef, readRef } from '../actions/refAction.js';
import { uploadTool } from './upload.js';
import { POINTER_SERVICES, REF_SERVICES } from '../actions/toolContext.js';
import { click, pointerAction } from '../actions/pointerAction.js';

/** `get box @ref`: the element's box after the same resolve/heal/navigation checks as every ref action. */
const getBoxTool = defineTool({
  name: 'get_box',
  uses: REF_SERVICES,
  async handle(params, ctx) {
    const site = await openRef(ctx, params.ref);
    const outcome = await readRef(ctx, site, 'get_box', 'box', { ref: params.ref });
    if (outcome.status === 'not_visible') throw notVisibleError('get_box', params.ref, site.tabId);
    return { tabId: site.tabId, ref: params.ref, x: outcome.x, y: outcome.y, width: outcome.width, height: outcome.height, healed: outcome.healed };
  },
});

/** `get style @ref PROP…`: computed CSS values of the element, after the same resolve/heal/navigation checks as every ref action. */
const getStyleTool = defineTool({
  name: 'get_style',
  uses: REF_SERVICES,
  async handle(params, ctx) {
    const site = await openRef(ctx, params.ref);
    const outcome = await readRef(ctx, site, 'get_style', 'style', { ref: params.ref, properties: params.properties });
    return { tabId: site.tabId, ref: params.ref, style: outcome.style, ...(outcome.truncated.length === 0 ? {} : { truncated: outcome.truncated }), healed: outcome.healed };
  },
});

/** `dblclick @ref`: a double click, through the one pointer-action path like every pointer action (actions/pointerAction.ts). */
const dblclickTool = defineTool({
  name: 'dblclick',
  uses: POINTER_SERVICES,
  async handle(params, ctx) {
    const done = await pointerAction(ctx, { ref: await openRef(ctx, params.ref) }, click('dblclick', { clickCount: 2 }));
    return { tabId: done.tabId, ref: params.ref, x: done.x, y: done.y, healed: done.healed };
  },
});

export const ELEMENT_TOOL_REGISTRY: readonly AnyToolDefinition[] = [
  fillTool,
  focusTool,
  hoverTool,
  dblclickTool,
  selectTool,
  checkTool,
  uncheckTool,
  scrollTool,
  dragTool,
  uploadTool,
  getBoxTool,
  getStyleTool,
];
