/**
 * `ping`: doctor's round trip. Answered by this service worker itself — so an answer proves the worker
 * runs its message loop, which the host's cached hello cannot — and, with `page`, a trivial evaluation
 * in the tab chrome-relay last worked on, proving chrome.debugger and that page answer too.
 *
 * Only the tab chrome-relay itself last worked on is tried (never the browser's active tab: doctor must
 * not attach to a tab no agent gave). The page's outcome is data, not a throw: a page that does not
 * answer is a finding of the check, and the extension still answered.
 */
import { RelayError, VERSION, type ToolResult } from '@chrome-relay/protocol';
import { aDialog } from '../pageState/dialogs.js';
import { defineTool } from './defineTool.js';
import { lastWorkedTab } from '../targets.js';
import type { ToolContext } from '../actions/toolContext.js';
import { mainWorldAnswers } from '../pageState/mainWorld.js';

/** The services this tool uses (tools/defineTool.ts). */
const USES = ['dialogs'] as const;
type UsedContext = ToolContext<(typeof USES)[number]>;

type PagePing = NonNullable<ToolResult<'ping'>['page']>;

export const pingTool = defineTool({
  name: 'ping',
  uses: USES,
  async handle(params, ctx) {
    if (params.page !== true) return { extensionVersion: VERSION };
    return { extensionVersion: VERSION, page: await pingPage(ctx) };
  },
});

async function pingPage(ctx: UsedContext): Promise<PagePing | null> {
  const tabId = await lastWorkedTab(ctx.browser);
  if (tabId === undefined) return null;
  let url: string;
  try {
    const tab = await ctx.browser.getTab(tabId);
    url = tab.url ?? tab.pendingUrl ?? '';
  } catch (error) {
    if (error instanceof RelayError && error.code === 'target_not_found') return null;
    throw error;
  }
  const dialog = await ctx.dialogs.current(tabId);
  if (dialog) {
    return { tabId, url, answered: false, ms: 0, problem: `${aDialog(dialog.type)} is open; answer it with \`chrome-relay dialog dismiss --tab ${tabId}\` (or accept)` };
  }
  const started = Date.now();
  const outcome = await withinDeadline(mainWorldAnswers(ctx, tabId), ctx.deadline);
  const ms = Math.max(0, Date.now() - started);
  if (outcome === 'late') {
    return { tabId, url, answered: false, ms, problem: 'the page did not evaluate `1` before the deadline: its main thread is busy, or a dialog chrome-relay was not told about is open' };
  }
  if (outcome instanceof Error) {
    return { tabId, url, answered: false, ms, problem: RelayError.from(outcome, 'ping', 'act').message };
  }
  return { tabId, url, answered: true, ms };
}

/** The work's own failure as a value, or 'late' at the deadline (the work is left to finish unobserved). */
async function withinDeadline(work: Promise<unknown>, deadline: number): Promise<'ok' | 'late' | Error> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([
      work.then(
        () => 'ok' as const,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
