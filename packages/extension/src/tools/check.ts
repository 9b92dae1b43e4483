/**
 * `check` / `uncheck @ref`: reach a checked state, then prove it. Already there → nothing is
 * clicked (changed:false). Otherwise a hit-tested, delivery-verified trusted click (actions/pointerAction.ts),
 * then the state is read back
 * (frameworks may re-render first, so for a short while); still not there → a closed error, never
 * a success claim.
 */
import { RelayError, type ToolResult } from '@chrome-relay/protocol';
import type { CheckStateOutcome } from '../injected/types.js';
import { defineTool } from './defineTool.js';
import { POINTER_SERVICES, type PointerContext } from '../actions/toolContext.js';
import { click, pointerAction } from '../actions/pointerAction.js';
import { openRef, readRef, refusedError, type RefSite } from '../actions/refAction.js';

/** How long the state may take to follow a click (an async re-render). */
export const CHECK_SETTLE_MS = 1000;
const POLL_MS = 50;

type Checked = Extract<CheckStateOutcome, { status: 'ok' }>;

async function readState(ctx: PointerContext, site: RefSite, tool: 'check' | 'uncheck'): Promise<Checked> {
  return readRef(ctx, site, tool, 'checkState', { ref: site.ref });
}

export function createCheckTool(tool: 'check' | 'uncheck', settleMs = CHECK_SETTLE_MS) {
  const want = tool === 'check' ? 'true' : 'false';
  return defineTool({
    name: tool,
    uses: POINTER_SERVICES,
    async handle(params, ctx): Promise<ToolResult<'check'>> {
      const site = await openRef(ctx, params.ref);
      const before = await readState(ctx, site, tool);
      if (before.checked === want) return { tabId: site.tabId, ref: params.ref, checked: want === 'true', changed: false, healed: before.healed };
      if (tool === 'uncheck' && before.radio) {
        throw refusedError(tool, params.ref, site.tabId, 'a radio button is unchecked by checking another option of its group');
      }
      // Only a click the element itself received counts; one that went elsewhere is click_intercepted.
      const clicked = await pointerAction(ctx, { ref: site }, click(tool));
      const until = Math.min(Date.now() + settleMs, ctx.deadline);
      let after = await readState(ctx, site, tool);
      while (after.checked !== want && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        after = await readState(ctx, site, tool);
      }
      if (after.checked !== want) {
        throw new RelayError(
          'partial_success_disallowed',
          `Clicked @${params.ref}, but it is still ${after.checked === 'mixed' ? 'mixed' : after.checked === 'true' ? 'checked' : 'unchecked'} after ${settleMs} ms: the page did not accept the change (a handler prevented it, or the click toggles something else). Snapshot to see its state.`,
          { tool, phase: 'verify', details: { ref: params.ref, tab: site.tabId, expected: want, actual: after.checked } },
        );
      }
      return { tabId: site.tabId, ref: params.ref, checked: want === 'true', changed: true, healed: before.healed || clicked.healed || after.healed };
    },
  });
}

export const checkTool = createCheckTool('check');
export const uncheckTool = createCheckTool('uncheck');
