/**
 * `click`: by ref (verify or heal → scroll → hit-test → trusted mouse click → proof of delivery)
 * or at viewport coordinates (the element there is found and the click proven to reach it the same
 * way: pointClick.ts). A ref click is never dispatched unless the page proved, in the same
 * round trip, that the point reaches the ref's element; a covered element is refused
 * (click_intercepted), never clicked through. And it is a success only when the element itself
 * received the press and the release (refClick.ts): a press that went elsewhere is cancelled
 * before the page sees it and reported as click_intercepted with `details.when`.
 *
 * After the mouse is released, the click's own handling (page/navigation.ts: the requests it
 * started, a turn of the page after them) decides `navigated`, without a fixed wait: a click that
 * started nothing returns at once. A committed navigation kills the tab's refs right away.
 */
import { RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { modifierMask } from '../input/keyboard.js';
import type { ClickOptions } from '../input/mouse.js';
import { dialogTracker, type DialogInfo } from '../pageState/dialogs.js';
import { DEFAULT_NAVIGATION_TIMING, turnOf, watchNavigation, type NavigationOutcome, type NavigationTiming } from '../page/navigation.js';
import { worlds as defaultWorlds, type FrameState } from '../page/worlds.js';
import { refRegistry } from '../refs/index.js';
import { resolveTab, setCurrentTab } from '../targets.js';
import { defineTool, type ToolContext } from './defineTool.js';
import { pointerTarget, type PointerPoint } from './pointerDelivery.js';
import { armPointClick, clickPoint, type ArmedPoint } from './pointClick.js';
import { enablePage, openRef, type RefDeps, type RefSite } from './refAction.js';
import { clickRef } from './refClick.js';

export interface ClickDeps extends RefDeps {
  navigation: NavigationTiming;
}

type ClickParams = ToolParams<'click'>;

interface ClickPoint {
  tabId: number;
  before: FrameState;
  x: number;
  y: number;
  healed: boolean;
  /** A ref click: where the ref lives and its armed point; absent for a click at coordinates. */
  ref?: { site: RefSite; point: PointerPoint };
  /** A click at coordinates: the guard armed for what is there. */
  spot?: ArmedPoint;
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
  if (params.holdMs !== undefined) options.holdMs = params.holdMs;
  return options;
}

async function pointForRef(ctx: ToolContext, deps: ClickDeps, ref: string, requestedTab: number | undefined): Promise<ClickPoint> {
  const site = await openRef(ctx, deps, ref, requestedTab);
  const point = await pointerTarget(ctx, deps, site, 'click', 'click');
  return { tabId: site.tabId, before: site.before, x: point.x, y: point.y, healed: point.healed, ref: { site, point } };
}

/** Send the click; `{ dialog }` when one opened (the page is then blocked). Both kinds are verified. */
async function send(ctx: ToolContext, deps: ClickDeps, point: ClickPoint, options: ClickOptions): Promise<{ dialog?: DialogInfo }> {
  // A click may open alert/confirm/prompt; the page then blocks, so report it instead of waiting.
  const watch = (work: () => Promise<void>) => dialogTracker(ctx).watch(point.tabId, work);
  if (point.ref !== undefined) return clickRef(ctx, deps, point.ref.site, point.ref.point, 'click', options, watch);
  if (point.spot !== undefined) return clickPoint(ctx, deps, point.spot, options, watch);
  throw new RelayError('internal_error', 'click: neither a ref nor a point was armed', { tool: 'click', phase: 'act' });
}

/** What the result says was clicked at coordinates (page strings, capped in the page). */
function clickedTarget(spot: ArmedPoint): NonNullable<ToolResult<'click'>['target']> {
  const { tag, id, name, ref } = spot.target;
  return { tag, ...(id === '' ? {} : { id }), name, ...(ref === undefined ? {} : { ref }) };
}

/** The click opened a JavaScript dialog: the page is blocked, the browser still knows the tab's URL. */
async function dialogResult(ctx: ToolContext, point: ClickPoint, wanted: { ref: string } | { x: number; y: number }, dialog: DialogInfo): Promise<ToolResult<'click'>> {
  const url = (await ctx.browser.getTab(point.tabId)).url ?? '';
  const result: ToolResult<'click'> = { clicked: true, tabId: point.tabId, x: point.x, y: point.y, healed: point.healed, navigated: false, url, dialog };
  if ('ref' in wanted) result.ref = wanted.ref;
  if (point.spot !== undefined) result.target = clickedTarget(point.spot);
  await setCurrentTab(point.tabId, ctx.browser);
  return result;
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
        const before = await enablePage(ctx, tabId);
        const spot = await armPointClick(ctx, deps, tabId, before, wanted.x, wanted.y);
        point = { tabId, before, x: wanted.x, y: wanted.y, healed: false, spot };
      }
      const { tabId } = point;

      const watch = watchNavigation(ctx, tabId, point.before, deps.navigation);
      let clicked: { dialog?: DialogInfo };
      try {
        clicked = await send(ctx, deps, point, clickOptions(params));
      } catch (error) {
        watch.stop();
        throw error;
      }
      if (clicked.dialog !== undefined) {
        watch.stop();
        return dialogResult(ctx, point, wanted, clicked.dialog);
      }
      // What the click's handlers set going: a request they await may end in a navigation, or in
      // a dialog (alert after fetch), which blocks the page; then the dialog is the answer.
      const turn = async (): Promise<void> => turnOf(ctx, await deps.worlds.ensure(ctx, tabId, point.before));
      const settled = await dialogTracker(ctx).watch(tabId, () => watch.settle({ turn, synced: point.ref !== undefined || point.spot !== undefined }));
      if ('dialog' in settled) return dialogResult(ctx, point, wanted, settled.dialog);
      const navigation: NavigationOutcome = settled.done;
      if (navigation.committed) {
        deps.worlds.forget(tabId);
        await deps.registry.markNavigated(tabId);
      }
      await setCurrentTab(tabId, ctx.browser);
      const result: ToolResult<'click'> = {
        clicked: true,
        tabId,
        x: point.x,
        y: point.y,
        healed: point.healed,
        navigated: navigation.started,
        url: navigation.url,
      };
      if ('ref' in wanted) result.ref = wanted.ref;
      if (point.spot !== undefined) result.target = clickedTarget(point.spot);
      return result;
    },
  });
}

export const clickTool = createClickTool({ registry: refRegistry, worlds: defaultWorlds, navigation: DEFAULT_NAVIGATION_TIMING });
