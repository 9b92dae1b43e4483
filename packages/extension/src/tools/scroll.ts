/**
 * `scroll`: the page or the scroll container of a ref, one step in a direction; or `--into-view
 * @ref`. When the page itself cannot move that way, the biggest scroller on screen that can is scrolled instead
 * (a carousel, a panel: what a person would turn), and the result names it (`scroller`). Scrolling is programmatic
 * and instant (no smooth animation still running when we
 * answer); `moved:false` says it was already at the edge, so an agent paging through a list
 * knows it reached the end.
 */
import { RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { callTab } from '../context/call.js';
import type { ScrollArgs, ScrollOutcome } from '../injected/types.js';
import { callPage, DocumentChanged } from '../page/pageCall.js';
import { mainFrameDocument } from '../page/worlds.js';
import { defineTool } from './defineTool.js';
import { REF_SERVICES, type RefContext } from '../actions/toolContext.js';
import { notVisibleError, openRef, readRef } from '../actions/refAction.js';

function invalid(field: string, message: string): RelayError {
  return new RelayError('invalid_arguments', `Invalid arguments for scroll: ${message}`, { phase: 'validate', details: { field } });
}

/** The result of a step that ran: what moved, from where to where, and the scroller when it was not the ref itself. */
function stepResult(tabId: number, outcome: Extract<ScrollOutcome, { status: 'ok' }>, ref?: string): ToolResult<'scroll'> {
  const { container, before, after, healed } = outcome;
  const result: ToolResult<'scroll'> = { tabId, ...(ref === undefined ? {} : { ref }), container, before, after, moved: before.x !== after.x || before.y !== after.y, healed };
  if (outcome.scroller !== undefined) result.scroller = outcome.scroller;
  return result;
}

async function pageScroll(ctx: RefContext, tabId: number, args: ScrollArgs): Promise<ToolResult<'scroll'>> {
  for (let attempt = 1; ; attempt++) {
    const world = await ctx.worlds.ensure(ctx, tabId, await mainFrameDocument(ctx, tabId));
    try {
      const outcome = await callPage(ctx, ctx.worlds, world, 'scroll', args);
      if (outcome.status === 'stale') throw new Error('a page scroll names no ref');
      return stepResult(tabId, outcome);
    } catch (error) {
      // The tab was navigating: scroll the document it settles on, once.
      if (!(error instanceof DocumentChanged) || attempt > 1) throw error;
    }
  }
}

export const scrollTool = defineTool({
  name: 'scroll',
  uses: REF_SERVICES,
  async handle(params: ToolParams<'scroll'>, ctx): Promise<ToolResult<'scroll'>> {
    if (params.intoView) {
      if (params.ref === undefined) throw invalid('ref', 'intoView needs the ref of the element to bring into view.');
      if (params.direction !== undefined || params.amount !== undefined) throw invalid('direction', 'give either intoView or a direction, not both.');
      const site = await openRef(ctx, params.ref);
      const outcome = await readRef(ctx, site, 'scroll', 'scrollIntoView', { ref: params.ref });
      if (outcome.status === 'not_visible') throw notVisibleError('scroll', params.ref, site.tabId);
      return { tabId: site.tabId, ref: params.ref, container: 'page', moved: outcome.scrolled, healed: outcome.healed };
    }
    if (params.direction === undefined) throw invalid('direction', 'give a direction (up, down, left, right) or intoView with a ref.');
    const args: ScrollArgs = { direction: params.direction };
    if (params.amount !== undefined) args.amount = params.amount;
    if (params.ref === undefined) {
      const tabId = callTab(ctx);
      const result = await pageScroll(ctx, tabId, args);
      return result;
    }
    args.ref = params.ref;
    const site = await openRef(ctx, params.ref);
    const outcome = await readRef(ctx, site, 'scroll', 'scroll', args);
    return stepResult(site.tabId, outcome, params.ref);
  },
});

