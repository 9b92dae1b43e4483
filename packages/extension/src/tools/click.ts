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
import { clickAt } from '../input/mouse.js';
import type { PrepareClickOutcome } from '../injected/types.js';
import { DEFAULT_NAVIGATION_TIMING, watchNavigation, type NavigationTiming } from '../page/navigation.js';
import { callPage, DocumentChanged } from '../page/pageCall.js';
import { mainFrameDocument, worlds as defaultWorlds, type FrameDocument, type Worlds } from '../page/worlds.js';
import { refRegistry } from '../refs/index.js';
import { resolveRefTarget, staleRefError } from '../refs/refTarget.js';
import type { RefRegistry } from '../refs/registry.js';
import { resolveTab, setCurrentTab } from '../targets.js';
import { defineTool, type ToolContext } from './defineTool.js';

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

async function enablePage(ctx: ToolContext, tabId: number): Promise<FrameDocument> {
  // Page events (navigation watch) need the domain on; enabling twice is harmless and cheap.
  const [frame] = await Promise.all([mainFrameDocument(ctx, tabId), ctx.cdp.send(tabId, 'Page.enable')]);
  return frame;
}

function refusal(ref: string, tabId: number, outcome: Exclude<PrepareClickOutcome, { status: 'ok' }>): RelayError {
  switch (outcome.status) {
    case 'stale':
      return staleRefError(ref, outcome.reason, tabId);
    case 'intercepted': {
      const who = outcome.interceptor;
      const label = `<${who.tag}${who.id ? `#${who.id}` : ''}>${who.name ? ` "${who.name}"` : ''}${who.ref ? ` (@${who.ref})` : ''}`;
      return new RelayError(
        'click_intercepted',
        `Click on @${ref} was not delivered: ${label} covers it at (${outcome.x}, ${outcome.y}). Dismiss or close that element, then click @${ref} again.`,
        { phase: 'act', details: { ref, tab: tabId, interceptor: who, x: outcome.x, y: outcome.y, healed: outcome.healed } },
      );
    }
    case 'not_visible':
      return new RelayError(
        'element_not_found',
        `Ref @${ref} names an element that is not visible now (hidden or zero-sized), so there is nothing to click. Wait for it to appear, or snapshot again.`,
        { phase: 'act', details: { ref, tab: tabId, reason: 'not_visible' } },
      );
  }
}

async function pointForRef(ctx: ToolContext, deps: ClickDeps, ref: string, requestedTab: number | undefined): Promise<ClickPoint> {
  const target = await resolveRefTarget(deps.registry, ctx.browser, ref, requestedTab);
  const { tabId } = target;
  const before = await enablePage(ctx, tabId);
  // The document the ref was issued in is gone, even if the new one has a look-alike element.
  if (before.frameId !== target.document.frameId || before.loaderId !== target.document.loaderId) {
    await deps.registry.markNavigated(tabId);
    throw staleRefError(ref, 'navigated', tabId);
  }
  const world = await deps.worlds.ensure(ctx, tabId, before);
  let outcome: PrepareClickOutcome;
  try {
    outcome = await callPage(ctx, deps.worlds, world, 'prepareClick', { ref });
  } catch (error) {
    if (!(error instanceof DocumentChanged)) throw error;
    await deps.registry.markNavigated(tabId);
    throw staleRefError(ref, 'navigated', tabId);
  }
  if (outcome.status !== 'ok') throw refusal(ref, tabId, outcome);
  return { tabId, before, x: outcome.x, y: outcome.y, healed: outcome.healed };
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
        point = { tabId, before: await enablePage(ctx, tabId), x: wanted.x, y: wanted.y, healed: false };
      }
      const { tabId } = point;

      const watch = watchNavigation(ctx, tabId, point.before, deps.navigation);
      try {
        await clickAt(ctx, tabId, point.x, point.y);
      } catch (error) {
        watch.stop();
        throw error;
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
