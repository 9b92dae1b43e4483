/**
 * `keys`: press key combinations as trusted keyboard events (input/keyboard.ts).
 *
 * A combination that opens a dialog (Enter submitting a form whose handler calls confirm()) is
 * reported in the result: the key's own CDP call does not answer while the dialog is open, so each
 * press races the dialog. If keys were left to press when it opened, they are not pressed (the
 * page would drop them) and the call fails with partial_success_disallowed naming what was pressed.
 *
 * Keys go where focus is: never into a frame that shows a site the person blocked (input/landing.ts).
 */
import { RelayError } from '@chrome-relay/protocol';
import { callTab } from '../context/call.js';
import { currentPlatform, formatCombo, parseCombo, pressCombo } from '../input/keyboard.js';
import { ADialog } from '../pageState/dialogs.js';
import { defineTool } from './defineTool.js';
import { checkFocusLanding } from '../input/landing.js';
export const keysTool = defineTool({
  name: 'keys',
  uses: ['dialogs', 'worlds', 'frames'],
  async handle(params, ctx) {
    const platform = currentPlatform();
    // Parse everything first: one bad name must not leave the earlier keys pressed.
    const combos = params.keys.map((key) => parseCombo(key, platform));
    const tabId = callTab(ctx);
    const dialogs = ctx.dialogs;
    const pressed: string[] = [];
    for (const [index, combo] of combos.entries()) {
      // Before each combination: a Tab may have just moved focus into a frame showing a blocked site.
      const landed = await checkFocusLanding(ctx, tabId);
      const outcome = await dialogs.watch(tabId, () => pressCombo(ctx, landed, tabId, combo, platform));
      pressed.push(formatCombo(combo));
      if ('dialog' in outcome) {
        const remaining = combos.slice(index + 1).map(formatCombo);
        if (remaining.length === 0) return { tabId, pressed, dialog: outcome.dialog };
        throw new RelayError(
          'partial_success_disallowed',
          `${ADialog(outcome.dialog.type)} opened on tab ${tabId} after ${pressed.join(', ')}; ${remaining.join(', ')} were not pressed. Answer it with \`chrome-relay dialog accept|dismiss\`, then press the rest.`,
          { tool: 'keys', phase: 'act', details: { tab: tabId, applied: pressed, failed: remaining, dialog: outcome.dialog } },
        );
      }
    }
    return { tabId, pressed };
  },
});

