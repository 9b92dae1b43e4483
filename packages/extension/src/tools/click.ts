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
import { type DialogInfo } from '../pageState/dialogs.js';
import { DEFAULT_NAVIGATION_TIMING, turnOf, watchNavigation, type NavigationOutcome, type NavigationTiming } from '../page/navigation.js';
import type { FrameState } from '../page/worlds.js';
import { resolveTab, setCurrentTab } from '../targets.js';
import { defineTool } from './defineTool.js';
import type { ToolContext } from '../actions/toolContext.js';
import { pointerTarget, type PointerPoint } from '../actions/pointerDelivery.js';
import { armPointClick, clickPoint, type ArmedPoint } from '../actions/pointClick.js';
import { enablePage, openRef, type RefSite } from '../actions/refAction.js';
import { clickRef } from '../actions/refClick.js';
import type { PressActed } from '../actions/deliveryVerdict.js';

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

/** The target the schema let through: exactly one of a ref, or x and y together (protocol tools.ts says which is missing). */
function targetOf(params: ClickParams): { ref: string } | { x: number; y: number } {
  if (params.ref !== undefined) return { ref: params.ref };
  if (params.x !== undefined && params.y !== undefined) return { x: params.x, y: params.y };
  throw new RelayError('internal_error', 'click ran with neither a ref nor a point: its schema refuses such params', { tool: 'click', phase: 'validate' });
}

function clickOptions(params: ClickParams): ClickOptions {
  const options: ClickOptions = {};
  if (params.button !== undefined) options.button = params.button;
  if (params.clickCount !== undefined) options.clickCount = params.clickCount;
  if (params.modifiers !== undefined) options.modifiers = modifierMask(params.modifiers);
  if (params.holdMs !== undefined) options.holdMs = params.holdMs;
  return options;
}

async function pointForRef(ctx: ToolContext, ref: string): Promise<ClickPoint> {
  const site = await openRef(ctx, ref);
  const point = await pointerTarget(ctx, site, 'click', 'click');
  return { tabId: site.tabId, before: site.before, x: point.x, y: point.y, healed: point.healed, ref: { site, point } };
}

/**
 * Send the click; `{ dialog }` when one opened (the page is then blocked). Both kinds are verified. The point the
 * click that landed was aimed at (a ref click tried again after its element gave way is aimed anew).
 */
async function send(ctx: ToolContext, point: ClickPoint, options: ClickOptions): Promise<{ dialog?: DialogInfo; x: number; y: number; healed: boolean } & PressActed> {
  // A click may open alert/confirm/prompt; the page then blocks, so report it instead of waiting.
  const watch = (work: () => Promise<void>) => ctx.dialogs.watch(point.tabId, work);
  if (point.ref !== undefined) {
    const { point: aimed, ...clicked } = await clickRef(ctx, point.ref.site, point.ref.point, 'click', options, watch);
    return { ...clicked, x: aimed.x, y: aimed.y, healed: point.healed || aimed.healed };
  }
  if (point.spot !== undefined) return { ...(await clickPoint(ctx, point.spot, options, watch)), x: point.x, y: point.y, healed: point.healed };
  throw new RelayError('internal_error', 'click: neither a ref nor a point was armed', { tool: 'click', phase: 'act' });
}

/** What the answer says the click did (page strings, capped in the page). */
function actedResult({ acted, releaseHeld }: PressActed): ToolResult<'click'>['acted'] {
  if (acted === undefined) return undefined;
  const { what, popup } = acted;
  const shown = popup === undefined ? undefined : { role: popup.role, ...(popup.name === '' ? {} : { name: popup.name }) };
  const summary = popup === undefined ? what : `${what}: ${popup.role}${popup.name === '' ? '' : ` ${JSON.stringify(popup.name)}`}`;
  return { what, ...(shown === undefined ? {} : { popup: shown }), ...(releaseHeld === true ? { releaseHeld } : {}), summary };
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

export const clickTool = defineTool({
  name: 'click',
  async handle(params, ctx): Promise<ToolResult<'click'>> {
    const wanted = targetOf(params);
    let point: ClickPoint;
    if ('ref' in wanted) {
      point = await pointForRef(ctx, wanted.ref);
    } else {
      const tabId = await resolveTab(params.tab, ctx);
      const before = await enablePage(ctx, tabId);
      const spot = await armPointClick(ctx, tabId, before, wanted.x, wanted.y);
      point = { tabId, before, x: wanted.x, y: wanted.y, healed: false, spot };
    }
    const { tabId } = point;

    const watch = watchNavigation(ctx, tabId, point.before, ctx.navigation);
    let clicked: Awaited<ReturnType<typeof send>>;
    try {
      clicked = await send(ctx, point, clickOptions(params));
    } catch (error) {
      watch.stop();
      throw error;
    }
    point = { ...point, x: clicked.x, y: clicked.y, healed: clicked.healed };
    if (clicked.dialog !== undefined) {
      watch.stop();
      return dialogResult(ctx, point, wanted, clicked.dialog);
    }
    // What the click's handlers set going: a request they await may end in a navigation, or in
    // a dialog (alert after fetch), which blocks the page; then the dialog is the answer.
    const turn = async (): Promise<void> => turnOf(ctx, await ctx.worlds.ensure(ctx, tabId, point.before));
    const settled = await ctx.dialogs.watch(tabId, () => watch.settle({ turn, synced: point.ref !== undefined || point.spot !== undefined }));
    if ('dialog' in settled) return dialogResult(ctx, point, wanted, settled.dialog);
    const navigation: NavigationOutcome = settled.done;
    if (navigation.committed) {
      ctx.worlds.forget(tabId);
      await ctx.registry.markNavigated(tabId);
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
    const acted = actedResult(clicked);
    if (acted !== undefined) result.acted = acted;
    return result;
  },
});

