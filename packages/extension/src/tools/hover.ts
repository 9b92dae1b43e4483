/** `hover @ref`: scroll into view, hit-test like click (a covered element is refused), trusted mouse move. */
import { moveTo } from '../input/mouse.js';
import { worlds as defaultWorlds } from '../page/worlds.js';
import { refRegistry } from '../refs/index.js';
import { setCurrentTab } from '../targets.js';
import { defineTool } from './defineTool.js';
import { openRef, pointerTarget, type RefDeps } from './refAction.js';

export function createHoverTool(deps: RefDeps) {
  return defineTool({
    name: 'hover',
    async handle(params, ctx) {
      const site = await openRef(ctx, deps, params.ref, params.tab);
      const point = await pointerTarget(ctx, deps, site, 'hover');
      await moveTo(ctx, point.input.target, point.input.x, point.input.y);
      await setCurrentTab(site.tabId, ctx.browser);
      return { tabId: site.tabId, ref: params.ref, x: point.x, y: point.y, healed: point.healed };
    },
  });
}

export const hoverTool = createHoverTool({ registry: refRegistry, worlds: defaultWorlds });
