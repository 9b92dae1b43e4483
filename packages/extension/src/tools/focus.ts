/** `focus @ref`: keyboard focus on an element (no click, no hit-test), e.g. before `keys`. */
import { worlds as defaultWorlds } from '../page/worlds.js';
import { refRegistry } from '../refs/index.js';
import { setCurrentTab } from '../targets.js';
import { defineTool } from './defineTool.js';
import { focusRef, type RefDeps } from '../actions/refAction.js';

export function createFocusTool(deps: RefDeps) {
  return defineTool({
    name: 'focus',
    async handle(params, ctx) {
      const focused = await focusRef(ctx, deps, params.ref, params.tab, 'focus');
      await setCurrentTab(focused.tabId, ctx.browser);
      return { tabId: focused.tabId, ref: params.ref, healed: focused.healed };
    },
  });
}

export const focusTool = createFocusTool({ registry: refRegistry, worlds: defaultWorlds });
