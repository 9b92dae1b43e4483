/**
 * `fill @ref value`: replace a field's value the way a person would, so frameworks notice.
 *
 * Text-like fields (inputs that take typing, textareas, contenteditable) are focused with their
 * whole value selected in the page, then the value is inserted with trusted Input.insertText
 * (beforeinput + input fire as for typing; React's value tracker sees a real change). Picker
 * inputs (date, color, range…) and <select> are set in our isolated world with input + change
 * dispatched (see injected/actions.ts for why React sees that too). The result is read back and
 * must be the request: equal to it, or — in a typed field — the same value as the page formats it (an input mask's
 * separators and spacing: actions/formattedValue.ts), which the answer then shows (`formatted`, `value`). A
 * contenteditable is read back as the snapshot and `get value` read it, one line per block (injected/text.ts), and
 * must hold the request line for line, apart from what nobody sees (`holdsTyped`); the answer shows its text. A page
 * that dropped or changed characters (maxlength, a mask that truncates or refuses, an editor that joins lines) is not
 * success.
 *
 * No hit-test, deliberately: a field under a modal or sticky header can still be filled, and
 * filling does not click.
 */
import { RelayError, type ToolResult } from '@chrome-relay/protocol';
import { SECRET_MASK } from '../injected/secrets.js';
import { holdsTyped } from '../injected/text.js';
import { insertText, pressDelete } from '../input/keyboard.js';
import { checkFocusLanding } from '../input/landing.js';
import { defineTool } from './defineTool.js';
import { REF_SERVICES, type RefContext } from '../actions/toolContext.js';
import { openRef, readRef, refusedError, type RefSite } from '../actions/refAction.js';
import { formattedAs } from '../actions/formattedValue.js';

async function typeValue(ctx: RefContext, site: RefSite, value: string, plan: 'typed' | 'contenteditable'): Promise<{ value: string; formatted: boolean }> {
  // The page focused the field: the text goes where focus is, which must not be a frame of a blocked site (a page may
  // move focus in its own focus handler).
  const landed = await checkFocusLanding(ctx, site.tabId);
  if (value === '') await pressDelete(ctx, landed, site.tabId);
  else await insertText(ctx, landed, site.tabId, value);
  const after = await readRef(ctx, site, 'fill', 'value', { ref: site.ref });
  // A contenteditable's value is its text read as the snapshot reads it, lines kept: only what nobody sees may differ.
  const same = plan === 'contenteditable' ? holdsTyped(after.value, value) : after.value === value;
  const formatted = !same && plan === 'typed' && formattedAs(value, after.value);
  if (!same && !formatted) {
    // A password is compared, never printed: not what was asked for, not what the field holds.
    const holds = after.secret ? 'something else than what was filled' : `${JSON.stringify(after.value)} instead of ${JSON.stringify(value)}`;
    throw new RelayError(
      'partial_success_disallowed',
      `Filled @${site.ref}, but it now holds ${holds}: the page or the field (maxlength, an input mask that drops what does not fit, a single-line input or editor given newlines) changed it — more than formatting, which is accepted. Check the field and fill a value it accepts.`,
      { tool: 'fill', phase: 'verify', details: { ref: site.ref, tab: site.tabId, ...(after.secret ? { secret: true } : { expected: value, actual: after.value }) } },
    );
  }
  return { value: after.secret ? SECRET_MASK : after.value, formatted };
}

export const fillTool = defineTool({
  name: 'fill',
  uses: REF_SERVICES,
  async handle(params, ctx): Promise<ToolResult<'fill'>> {
    const site = await openRef(ctx, params.ref);
    const outcome = await readRef(ctx, site, 'fill', 'fill', { ref: params.ref, value: params.value });
    let value: string;
    let formatted = false;
    switch (outcome.status) {
      case 'no_option':
        throw refusedError('fill', params.ref, site.tabId, `the <select> has no option with value or text ${JSON.stringify(outcome.missing)} (options: ${outcome.available.map((o) => JSON.stringify(o)).join(', ')})`, {
          available: outcome.available,
        });
      case 'done':
        value = outcome.value;
        break;
      case 'typing':
        ({ value, formatted } = await typeValue(ctx, site, params.value, outcome.plan));
        break;
    }
    return { tabId: site.tabId, ref: params.ref, value, ...(formatted ? { formatted: true as const } : {}), healed: outcome.healed };
  },
});

