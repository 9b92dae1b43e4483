/**
 * `close [tabs…]`: all or none.
 *
 * Every id is checked before anything closes; one missing id → target_not_found and nothing is
 * closed. Without ids only the tab chrome-relay last used is closed, and when that one is gone,
 * nothing is (target_not_found) — never the person's active tab. Leases are checked before this
 * runs (targeting/prepareCall.ts): another agent's leased tab is not closed. Closing every tab
 * of the browser's normal windows would quit the browser (and this extension with it): the person's
 * limits refuse that for every tool that closes tabs (policy/policy.ts).
 *
 * Chrome closes tabs one by one, and a page with a beforeunload handler (after user activation)
 * asks "Leave site?" first: chrome.tabs.remove then does not settle until someone answers
 * (observed). Tabs are closed in order; when one asks, the call stops there: target_conflict with
 * the dialog if nothing was closed yet (answer it: accept closes the tab), otherwise
 * partial_success_disallowed (details applied/failed/dialog) — closed tabs cannot be reopened, so
 * it says exactly what happened. The dialog is visible to chrome-relay only on tabs it debugs;
 * on others the call ends at the deadline with `timeout`.
 */
import { reasonedError, RelayError } from '@chrome-relay/protocol';
import { aDialog, type DialogInfo } from '../pageState/dialogs.js';
import { rememberedTab } from '../targets.js';
import { defineTool } from './defineTool.js';
import type { ToolContext } from '../actions/toolContext.js';

/** The services this tool uses (tools/defineTool.ts). */
const USES = ['dialogs'] as const;
type UsedContext = ToolContext<(typeof USES)[number]>;

async function exists(ctx: UsedContext, tabId: number): Promise<boolean> {
  try {
    await ctx.browser.getTab(tabId);
    return true;
  } catch (error) {
    if (error instanceof RelayError && error.code === 'target_not_found') return false;
    throw error;
  }
}

/** Close one tab; settles with the dialog if it asks first, or 'late' at the deadline. */
async function closeOne(ctx: UsedContext, tabId: number): Promise<'closed' | 'late' | { dialog: DialogInfo }> {
  const dialogs = ctx.dialogs;
  const { opened, cancel } = ctx.cdp.isAttached(tabId) ? dialogs.onOpened(tabId) : { opened: new Promise<never>(() => undefined), cancel: () => undefined };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, ctx.deadline - Date.now()));
  });
  const removal = ctx.browser.removeTab(tabId).then(() => 'closed' as const);
  removal.catch(() => undefined);
  try {
    return await Promise.race([removal, late, opened.then((dialog) => ({ dialog }))]);
  } finally {
    clearTimeout(timer);
    cancel();
  }
}

export const closeTool = defineTool({
  name: 'close',
  uses: USES,
  async handle(params, ctx) {
    // The dispatcher resolved which tabs (targeting/resolveCall.ts): ids given, else the remembered tab.
    const ids = params.tabs ? [...new Set(params.tabs)] : [await rememberedTab(ctx.browser)];
    const missing: number[] = [];
    for (const id of ids) if (!(await exists(ctx, id))) missing.push(id);
    if (missing.length > 0) {
      throw new RelayError('target_not_found', `No tab was closed: tab${missing.length > 1 ? 's' : ''} ${missing.join(', ')} do${missing.length > 1 ? '' : 'es'} not exist (see \`chrome-relay tabs\`).`, {
        tool: 'close',
        phase: 'resolve',
        details: { tab: missing[0], missing },
      });
    }
    const closed: number[] = [];
    for (const [index, id] of ids.entries()) {
      const outcome = await closeOne(ctx, id);
      if (outcome === 'closed') {
        closed.push(id);
        continue;
      }
      const notClosed = ids.slice(index);
      if (outcome === 'late') {
        throw reasonedError('timeout', 'not_closed', `Tab ${id} did not close before the deadline (it may be asking "Leave site?" in the browser); closed so far: ${closed.join(', ') || 'none'}. Run \`chrome-relay tabs\` to see what is still open, and answer any dialog with \`chrome-relay dialog accept|dismiss\`.`, {
          tool: 'close',
          phase: 'act',
          details: { tab: id, applied: closed, failed: notClosed },
        });
      }
      const answer = `Run \`chrome-relay dialog accept --tab ${id}\` to let it close, or \`chrome-relay dialog dismiss --tab ${id}\` to keep it.`;
      if (closed.length === 0) {
        throw reasonedError('target_conflict', 'dialog_open', `Tab ${id} asks before closing (${aDialog(outcome.dialog.type)}); nothing was closed. ${answer}`, {
          tool: 'close',
          phase: 'act',
          details: { tab: id, dialog: outcome.dialog, failed: notClosed },
        });
      }
      throw new RelayError('partial_success_disallowed', `Tab ${id} asks before closing (${aDialog(outcome.dialog.type)}); closed so far: ${closed.join(', ')}. ${answer}`, {
        tool: 'close',
        phase: 'act',
        details: { applied: closed, failed: notClosed, tab: id, dialog: outcome.dialog },
      });
    }
    return { closed };
  },
});
