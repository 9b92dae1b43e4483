/**
 * `back`, `forward`, `reload`: move in the tab's own history or reload it, then wait for the
 * document that move commits (pageState/readiness.ts: the same loaderId-based readiness as
 * navigate, plus back/forward-cache restores and same-document entries).
 *
 * History moves go through Page.navigateToHistoryEntry with the neighbouring entry's id, read
 * from Page.getNavigationHistory, so "no earlier/later entry" is known before anything happens
 * and reported as target_not_found (there is no such page to go to) rather than silently doing
 * nothing. A new tab's first entry is its about:blank placeholder, so `back` from the first page
 * chrome-relay opened lands there — that is the tab's real history. The tab is never activated.
 */
import { RelayError, type ToolName, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { callTab } from '../context/call.js';
import { runNavigation } from '../pageState/readiness.js';
import { defineTool } from './defineTool.js';
import type { ToolContext } from '../actions/toolContext.js';

/** The services this tool uses (tools/defineTool.ts). */
const USES = ['dialogs'] as const;
type UsedContext = ToolContext<(typeof USES)[number]>;

const DEFAULT_TIMEOUT_MS = 20_000;
type HistoryTool = Extract<ToolName, 'back' | 'forward' | 'reload'>;

async function historyMove(tool: 'back' | 'forward', params: ToolParams<HistoryTool>, ctx: UsedContext): Promise<ToolResult<HistoryTool>> {
  const tabId = callTab(ctx);
  const history = await ctx.cdp.send(tabId, 'Page.getNavigationHistory');
  const targetIndex = history.currentIndex + (tool === 'back' ? -1 : 1);
  const entry = history.entries[targetIndex];
  if (!entry) {
    throw new RelayError(
      'target_not_found',
      `Tab ${tabId} has no ${tool === 'back' ? 'earlier' : 'later'} page in its history (it is at entry ${history.currentIndex + 1} of ${history.entries.length}).`,
      { tool, phase: 'resolve', details: { tab: tabId, historyIndex: history.currentIndex, historyLength: history.entries.length } },
    );
  }
  const readyBy = Math.min(Date.now() + (params.timeoutMs ?? DEFAULT_TIMEOUT_MS), ctx.deadline);
  const state = await runNavigation(ctx, tabId, () => ctx.cdp.send(tabId, 'Page.navigateToHistoryEntry', { entryId: entry.id }), params.wait ?? 'load', readyBy);
  return { tabId, ...state };
}

export const backTool = defineTool({
  name: 'back',
  uses: USES,
  handle: (params, ctx) => historyMove('back', params, ctx),
});

export const forwardTool = defineTool({
  name: 'forward',
  uses: USES,
  handle: (params, ctx) => historyMove('forward', params, ctx),
});

export const reloadTool = defineTool({
  name: 'reload',
  uses: USES,
  async handle(params, ctx) {
    const tabId = callTab(ctx);
    const readyBy = Math.min(Date.now() + (params.timeoutMs ?? DEFAULT_TIMEOUT_MS), ctx.deadline);
    const state = await runNavigation(ctx, tabId, () => ctx.cdp.send(tabId, 'Page.reload', {}), params.wait ?? 'load', readyBy);
    return { tabId, ...state };
  },
});
