/**
 * `click`: by ref (verify or heal → scroll → hit-test → trusted mouse click) or at viewport
 * coordinates. A ref click is never dispatched unless the page proved, in the same round trip,
 * that the point reaches the ref's element; a covered element is refused (click_intercepted),
 * never clicked through.
 *
 * After the mouse is released we watch the main frame briefly (page/navigation.ts) to report
 * `navigated`; a committed navigation kills the tab's refs right away.
 */
import { RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { modifierMask } from '../input/keyboard.js';
import { clickAt, type ClickOptions } from '../input/mouse.js';
import { dialogTracker, type Watched } from '../pageState/dialogs.js';
import { DEFAULT_NAVIGATION_TIMING, watchNavigation, type NavigationTiming } from '../page/navigation.js';
import { worlds as defaultWorlds, type FrameDocument, type Worlds } from '../page/worlds.js';
import { refRegistry } from '../refs/index.js';
import type { RefRegistry } from '../refs/registry.js';
import { resolveTab, setCurrentTab } from '../targets.js';
import { defineTool, type ToolContext } from './defineTool.js';
import { enablePage, openRef, pointerTarget, type PointerInput } from './refAction.js';

export interface ClickDeps {
  registry: RefRegistry;
  worlds: Worlds;
  navigation: NavigationTiming;
}

type ClickParams = ToolParams<'click'>;

interface ClickPoint {
  tabId: number;
  before: FrameDocument;
  x: number;
  y: number;
  healed: boolean;
  input: PointerInput;
}

function invalid(field: string, message: string): RelayError {
  return new RelayError('invalid_arguments', `Invalid arguments for click: ${message}`, { phase: 'validate', details: { field } });
}

/** Exactly one of a ref, or x and y together. */
function checkTarget(params: ClickParams): { ref: string } | { x: number; y: number } {
  const hasPoint = params.x !== undefined || params.y !== undefined;
  if (params.ref !== undefined) {
    if (hasPoint) throw invalid('ref', 'give either a ref or x and y, not both.');
    return { ref: params.ref };
  }
  if (params.x === undefined && params.y === undefined) throw invalid('ref', 'give a ref (e.g. @e12 from `chrome-relay snapshot`) or both x and y.');
  if (params.x === undefined) throw invalid('x', 'x is required together with y.');
  if (params.y === undefined) throw invalid('y', 'y is required together with x.');
  return { x: params.x, y: params.y };
}

function clickOptions(params: ClickParams): ClickOptions {
  const options: ClickOptions = {};
  if (params.button !== undefined) options.button = params.button;
  if (params.clickCount !== undefined) options.clickCount = params.clickCount;
  if (params.modifiers !== undefined) options.modifiers = modifierMask(params.modifiers);
  return options;
}

async function pointForRef(ctx: ToolContext, deps: ClickDeps, ref: string, requestedTab: number | undefined): Promise<ClickPoint> {
  const site = await openRef(ctx, deps, ref, requestedTab);
  const point = await pointerTarget(ctx, deps, site, 'click');
  return { tabId: site.tabId, before: site.before, ...point };
}

export function createClickTool(deps: ClickDeps) {
  return defineTool({
    name: 'click',
    async handle(params, ctx): Promise<ToolResult<'click'>> {
      const wanted = checkTarget(params);
      let point: ClickPoint;
      if ('ref' in wanted) {
        point = await pointForRef(ctx, deps, wanted.ref, params.tab);
      } else {
        const tabId = await resolveTab(params.tab, ctx);
        point = { tabId, before: await enablePage(ctx, tabId), x: wanted.x, y: wanted.y, healed: false, input: { target: tabId, x: wanted.x, y: wanted.y } };
      }
      const { tabId } = point;

      const watch = watchNavigation(ctx, tabId, point.before, deps.navigation);
      let clicked: Watched<void>;
      try {
        // A click may open alert/confirm/prompt; the page then blocks, so report it instead of waiting.
        clicked = await dialogTracker(ctx).watch(tabId, () => clickAt(ctx, point.input.target, point.input.x, point.input.y, clickOptions(params)));
      } catch (error) {
        watch.stop();
        throw error;
      }
      if ('dialog' in clicked) {
        watch.stop();
        // The page is blocked by the dialog; the browser still knows the tab's URL.
        const url = (await ctx.browser.getTab(tabId)).url ?? '';
        const result: ToolResult<'click'> = { tabId, x: point.x, y: point.y, healed: point.healed, navigated: false, url, dialog: clicked.dialog };
        if ('ref' in wanted) result.ref = wanted.ref;
        return result;
      }
      const navigation = await watch.settle();
      if (navigation.committed) {
        deps.worlds.forget(tabId);
        await deps.registry.markNavigated(tabId);
      }
      await setCurrentTab(tabId, ctx.browser);
      const result: ToolResult<'click'> = {
        tabId,
        x: point.x,
        y: point.y,
        healed: point.healed,
        navigated: navigation.started,
        url: navigation.url,
      };
      if ('ref' in wanted) result.ref = wanted.ref;
      return result;
    },
  });
}

export const clickTool = createClickTool({ registry: refRegistry, worlds: defaultWorlds, navigation: DEFAULT_NAVIGATION_TIMING });
