/**
 * `fill @ref value`: replace a field's value the way a person would, so frameworks notice.
 *
 * Text-like fields (inputs that take typing, textareas, contenteditable) are focused with their
 * whole value selected in the page, then the value is inserted with trusted Input.insertText
 * (beforeinput + input fire as for typing; React's value tracker sees a real change). Picker
 * inputs (date, color, range…) and <select> are set in our isolated world with input + change
 * dispatched (see injected/actions.ts for why React sees that too). The result is read back and
 * must equal the request: a page that rewrote it (maxlength, an input mask) is not success.
 *
 * No hit-test, deliberately: a field under a modal or sticky header can still be filled, and
 * filling does not click.
 */
import { RelayError, type ToolResult } from '@chrome-relay/protocol';
import { normalizeText } from '../injected/dom.js';
import { worlds as defaultWorlds } from '../page/worlds.js';
import { refRegistry } from '../refs/index.js';
import { setCurrentTab } from '../targets.js';
import { defineTool, type ToolContext } from './defineTool.js';
import { callSite, openRef, refusedError, unlessStale, type RefDeps, type RefSite } from './refAction.js';

/** Clear the selected text with a trusted Delete key press (insertText of "" inserts nothing). */
async function pressDelete(ctx: ToolContext, tabId: number): Promise<void> {
  const key = { key: 'Delete', code: 'Delete', windowsVirtualKeyCode: 46, nativeVirtualKeyCode: 46 };
  await ctx.cdp.send(tabId, 'Input.dispatchKeyEvent', { type: 'rawKeyDown', ...key });
  await ctx.cdp.send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', ...key });
}

/** What the agent is shown of a secret field's value (the snapshot shows the same): never the value, nor its length. */
export const SECRET_VALUE = '••••••';

async function typeValue(ctx: ToolContext, deps: RefDeps, site: RefSite, value: string, plan: 'typed' | 'contenteditable'): Promise<string> {
  if (value === '') await pressDelete(ctx, site.tabId);
  else await ctx.cdp.send(site.tabId, 'Input.insertText', { text: value });
  const after = unlessStale(site, await callSite(ctx, deps, site, 'value', { ref: site.ref }));
  // A contenteditable's value is its rendered text: compare it the way it renders.
  const same = plan === 'contenteditable' ? normalizeText(after.value) === normalizeText(value) : after.value === value;
  if (!same) {
    // A password is compared, never printed: not what was asked for, not what the field holds.
    const holds = after.secret ? 'something else than what was filled' : `${JSON.stringify(after.value)} instead of ${JSON.stringify(value)}`;
    throw new RelayError(
      'partial_success_disallowed',
      `Filled @${site.ref}, but it now holds ${holds}: the page or the field (maxlength, an input mask, a single-line input given newlines) changed it. Check the field and fill a value it accepts.`,
      { tool: 'fill', phase: 'verify', details: { ref: site.ref, tab: site.tabId, ...(after.secret ? { secret: true } : { expected: value, actual: after.value }) } },
    );
  }
  return after.secret ? SECRET_VALUE : after.value;
}

export function createFillTool(deps: RefDeps) {
  return defineTool({
    name: 'fill',
    async handle(params, ctx): Promise<ToolResult<'fill'>> {
      const site = await openRef(ctx, deps, params.ref, params.tab);
      const outcome = unlessStale(site, await callSite(ctx, deps, site, 'fill', { ref: params.ref, value: params.value }));
      let value: string;
      switch (outcome.status) {
        case 'refused':
          throw refusedError('fill', params.ref, site.tabId, outcome.reason);
        case 'no_option':
          throw refusedError('fill', params.ref, site.tabId, `the <select> has no option with value or text ${JSON.stringify(outcome.missing)} (options: ${outcome.available.map((o) => JSON.stringify(o)).join(', ')})`, {
            available: outcome.available,
          });
        case 'done':
          value = outcome.value;
          break;
        case 'typing':
          value = await typeValue(ctx, deps, site, params.value, outcome.plan);
          break;
      }
      await setCurrentTab(site.tabId, ctx.browser);
      return { tabId: site.tabId, ref: params.ref, value, healed: outcome.healed };
    },
  });
}

export const fillTool = createFillTool({ registry: refRegistry, worlds: defaultWorlds });
