/** `focus @ref`: keyboard focus on an element (no click, no hit-test), e.g. before `keys`. */

import { defineTool } from './defineTool.js';
import { focusRef } from '../actions/refAction.js';
import { REF_SERVICES } from '../actions/toolContext.js';
export const focusTool = defineTool({
  name: 'focus',
  uses: REF_SERVICES,
  async handle(params, ctx) {
    const focused = await focusRef(ctx, params.ref, 'focus');
    return { tabId: focused.tabId, ref: params.ref, healed: focused.healed };
  },
});

