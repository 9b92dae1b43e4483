/**
 * `dialog accept|dismiss [--text]`: answer the JavaScript dialog open in the tab
 * (Page.handleJavaScriptDialog, which answers while the page itself is blocked).
 *
 * Chrome is the authority on whether a dialog is open: the command is sent even when chrome-relay
 * was not told about one, and Chrome's "No dialog is showing" becomes target_not_found. --text
 * is only meaningful for a prompt being accepted; anything else is refused rather than ignored.
 */
import { RelayError } from '@chrome-relay/protocol';
import { callTab } from '../context/call.js';
import { isCdpFailure } from '../cdp/failures.js';
import { defineTool } from './defineTool.js';

export const dialogTool = defineTool({
  name: 'dialog',
  uses: ['dialogs'],
  async handle(params, ctx) {
    const tabId = callTab(ctx);
    const dialogs = ctx.dialogs;
    const known = await dialogs.current(tabId);
    if (params.text !== undefined) {
      const why =
        params.action === 'dismiss'
          ? 'a dismissed dialog takes no text'
          : known && known.type !== 'prompt'
            ? `the open dialog is ${known.type === 'alert' ? 'an' : 'a'} ${known.type}, not a prompt`
            : undefined;
      if (why) {
        throw new RelayError('invalid_arguments', `Invalid arguments for dialog: --text only goes with accepting a prompt; ${why}.`, {
          tool: 'dialog',
          phase: 'validate',
          details: { field: 'text', dialog: known ?? null },
        });
      }
    }
    try {
      await ctx.cdp.send(tabId, 'Page.handleJavaScriptDialog', {
        accept: params.action === 'accept',
        ...(params.text === undefined ? {} : { promptText: params.text }),
      });
    } catch (error) {
      if (isCdpFailure(error, 'no_dialog')) {
        dialogs.markClosed(tabId);
        throw new RelayError('target_not_found', `No dialog is open on tab ${tabId}.`, { tool: 'dialog', phase: 'resolve', details: { tab: tabId } });
      }
      throw error;
    }
    dialogs.markClosed(tabId);
    return { tabId, action: params.action, dialog: known ?? null };
  },
});
