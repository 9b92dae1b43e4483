/**
 * `click`: by ref (verify or heal → scroll → hit-test → trusted mouse click → proof of delivery)
 * or at viewport coordinates (the element there is found and the click proven to reach it the same
 * way: pointClick.ts). A ref click is never dispatched unless the page proved, in the same
 * round trip, that the point reaches the ref's element; a covered element is refused
 * (click_intercepted), never clicked through. And it is a success only when the element itself
 * received the press and the release (actions/pointerAction.ts): a press that went elsewhere is cancelled
 * before the page sees it and reported as click_intercepted with `details.when`.
 *
 * After the mouse is released, the click's own handling (page/navigation.ts: the requests it
 * started, a turn of the page after them) decides `navigated`, without a fixed wait: a click that
 * started nothing returns at once. A committed navigation kills the tab's refs right away.
 */
import { RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { callTab } from '../context/call.js';
import type { Interceptor } from '../injected/types.js';
import { modifierMask } from '../input/keyboard.js';
import type { ClickOptions } from '../input/mouse.js';
import { type DialogInfo } from '../pageState/dialogs.js';
import { turnOf, watchNavigation, type NavigationOutcome } from '../page/navigation.js';
import type { FrameState } from '../page/worlds.js';
import { defineTool } from './defineTool.js';
import { POINTER_SERVICES, type ToolContext } from '../actions/toolContext.js';

/** What a click uses: the pointer path's services, and how long it watches for the navigation it may start. */
const USES = [...POINTER_SERVICES, 'navigation'] as const;
type ClickContext = ToolContext<(typeof USES)[number]>;
import { click, pointerAction, type PointerAim, type PointerDone } from '../actions/pointerAction.js';
import { enablePage, openRef } from '../actions/refAction.js';
import type { PressActed } from '../actions/deliveryVerdict.js';

type ClickParams = ToolParams<'click'>;

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

/** Where the click goes: the ref's element, or what is at the point; and the document the tab showed before it. */
async function aimOf(ctx: ClickContext, params: ClickParams, wanted: { ref: string } | { x: number; y: number }): Promise<{ aim: PointerAim; before: FrameState }> {
  if ('ref' in wanted) {
    const site = await openRef(ctx, wanted.ref);
    return { aim: { ref: site }, before: site.before };
  }
  const tabId = callTab(ctx);
  const before = await enablePage(ctx, tabId);
  return { aim: { point: { tabId, before, x: wanted.x, y: wanted.y } }, before };
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
function clickedTarget(target: Interceptor): NonNullable<ToolResult<'click'>['target']> {
  const { tag, id, name, ref } = target;
  return { tag, ...(id === '' ? {} : { id }), name, ...(ref === undefined ? {} : { ref }) };
}

/** The answer's common part: where the click that landed was aimed, and what was there (a click at a point). */
function clickedAt(done: PointerDone, wanted: { ref: string } | { x: number; y: number }): Pick<ToolResult<'click'>, 'tabId' | 'x' | 'y' | 'healed' | 'ref' | 'target'> {
  return {
    tabId: done.tabId,
    x: done.x,
    y: done.y,
    healed: done.healed,
    ...('ref' in wanted ? { ref: wanted.ref } : {}),
    ...(done.target === undefined ? {} : { target: clickedTarget(done.target) }),
  };
}

/** The click opened a JavaScript dialog: the page is blocked, the browser still knows the tab's URL. */
async function dialogResult(ctx: ClickContext, done: PointerDone, wanted: { ref: string } | { x: number; y: number }, dialog: DialogInfo): Promise<ToolResult<'click'>> {
  const url = (await ctx.browser.getTab(done.tabId)).url ?? '';
  return { clicked: true, ...clickedAt(done, wanted), navigated: false, url, dialog };
}

export const clickTool = defineTool({
  name: 'click',
  uses: USES,
  async handle(params, ctx): Promise<ToolResult<'click'>> {
    const wanted = targetOf(params);
    const { aim, before } = await aimOf(ctx, params, wanted);
    const tabId = 'ref' in aim ? aim.ref.tabId : aim.point.tabId;
    const watch = watchNavigation(ctx, tabId, before, ctx.navigation);
    // A click may open alert/confirm/prompt; the page then blocks, so report it instead of waiting.
    const run = (work: () => Promise<void>) => ctx.dialogs.watch(tabId, work);
    let done: PointerDone;
    try {
      done = await pointerAction(ctx, aim, click('click', clickOptions(params), run));
    } catch (error) {
      watch.stop();
      throw error;
    }
    if (done.dialog !== undefined) {
      watch.stop();
      return dialogResult(ctx, done, wanted, done.dialog);
    }
    // What the click's handlers set going: a request they await may end in a navigation, or in
    // a dialog (alert after fetch), which blocks the page; then the dialog is the answer.
    const turn = async (): Promise<void> => turnOf(ctx, await ctx.worlds.ensure(ctx, tabId, before));
    const settled = await ctx.dialogs.watch(tabId, () => watch.settle({ turn, synced: true }));
    if ('dialog' in settled) return dialogResult(ctx, done, wanted, settled.dialog);
    const navigation: NavigationOutcome = settled.done;
    if (navigation.committed) {
      ctx.worlds.forget(tabId);
      await ctx.registry.markNavigated(tabId);
    }
    const result: ToolResult<'click'> = { clicked: true, ...clickedAt(done, wanted), navigated: navigation.started, url: navigation.url };
    const acted = actedResult(done);
    if (acted !== undefined) result.acted = acted;
    return result;
  },
});
