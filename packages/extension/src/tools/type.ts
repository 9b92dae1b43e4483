/**
 * `type`: trusted text input into the element that has focus.
 *
 * Per character (input/keyboard.ts planTyping): a key press with its text for every character a
 * US keyboard has, so keydown/keypress/beforeinput(insertText)/input/keyup all fire as for a
 * person — rich editors (Lexical, ProseMirror) listen to beforeinput and keydown, React to input.
 * Characters without a key go through Input.insertText (one beforeinput(insertText) + input).
 * Both verified in Chromium 156 in a contenteditable and an <input>.
 *
 * Strict: typing with nothing editable focused would silently type nowhere, so the focused element
 * is checked first (in an isolated world, through open shadow roots and same-origin frames) and
 * its absence is element_not_found. A focused cross-origin frame cannot be inspected from here; it
 * is accepted and reported as `iframe (cross-origin)`. `-s @ref` resolves the ref, focuses its element, then calls
 * typeIntoFocused; `-s <css>` focuses the one element the selector matches in the tab's page (searched as `get`
 * searches: none is element_not_found, several invalid_arguments on the selector), then the same. Focus inside a frame
 * that shows a site the person blocked is refused before anything is looked at or typed (input/landing.ts).
 */
import { reasonedError, RelayError, type ToolResult } from '@chrome-relay/protocol';
import { callTab } from '../context/call.js';
import { currentPlatform, planTyping, typeStep } from '../input/keyboard.js';
import { ADialog } from '../pageState/dialogs.js';
import { callRead } from '../page/pageCall.js';
import { focusRef } from '../actions/refAction.js';
import { selectorRefused } from '../page/selectorRefused.js';
import { defineTool } from './defineTool.js';
import { REF_SERVICES, type RefContext } from '../actions/toolContext.js';
import { checkFocusLanding } from '../input/landing.js';

/**
 * Type `text` into whatever is focused in the tab (`type -s @ref` focuses the ref's element first, then calls
 * this). Checks that something editable has focus, then types.
 */
export async function typeIntoFocused(ctx: RefContext, tabId: number, text: string): Promise<ToolResult<'type'>> {
  // First: the focus report looks into same-origin frames, and the text goes where focus is.
  const landed = await checkFocusLanding(ctx, tabId);
  const focus = await callRead(ctx, tabId, 'focusReport', undefined);
  if (!focus.editable) {
    throw reasonedError(
      'element_not_found',
      'no_editable_focus',
      `Nothing editable has focus in tab ${tabId} (focus is on ${focus.description}); focus the field first: \`chrome-relay type -s @ref "text"\`, or click it, then type.`,
      { tool: 'type', phase: 'resolve', details: { tab: tabId, focused: focus.description } },
    );
  }
  const platform = currentPlatform();
  const steps = planTyping(text);
  const total = steps.reduce((sum, step) => sum + step.chars, 0);
  const dialogs = ctx.dialogs;
  let typed = 0;
  for (const step of steps) {
    const outcome = await dialogs.watch(tabId, () => typeStep(ctx, landed, tabId, step, platform));
    typed += step.chars;
    if ('dialog' in outcome) {
      if (typed === total) return { tabId, typed, into: focus.description, dialog: outcome.dialog };
      throw new RelayError(
        'partial_success_disallowed',
        `${ADialog(outcome.dialog.type)} opened on tab ${tabId} after ${typed} of ${total} characters; the rest was not typed. Answer it with \`chrome-relay dialog accept|dismiss\` and check the field before typing the rest.`,
        { tool: 'type', phase: 'act', details: { tab: tabId, applied: typed, failed: total - typed, dialog: outcome.dialog } },
      );
    }
  }
  return { tabId, typed, into: focus.description };
}

/** `type -s <css>`: focus the one element `selector` matches in the tab's page, or say why not. */
async function focusSelector(ctx: RefContext, tabId: number, selector: string): Promise<void> {
  const outcome = await callRead(ctx, tabId, 'focusSelector', { selector });
  switch (outcome.status) {
    case 'ok':
      return;
    case 'bad_selector':
    case 'secret_selector':
      throw selectorRefused('type', 'selector', selector, outcome, { tab: tabId });
    case 'many':
      throw new RelayError('invalid_arguments', `Invalid arguments for type: selector "${selector}" matches ${outcome.count} elements; make it match exactly one (e.g. add an id, attribute or :nth-of-type), or give a ref from a snapshot.`, {
        tool: 'type',
        phase: 'resolve',
        details: { field: 'selector', selector, count: outcome.count, tab: tabId },
      });
    case 'none':
      throw reasonedError('element_not_found', 'no_match', `No element in tab ${tabId} matches "${selector}"; check it against a fresh \`chrome-relay snapshot\`, or \`chrome-relay wait --selector\` for it. Nothing was typed.`, {
        tool: 'type',
        phase: 'resolve',
        details: { selector, tab: tabId },
      });
    case 'refused':
      throw new RelayError('invalid_arguments', `Cannot type into "${selector}": ${outcome.reason}. Nothing was typed.`, {
        tool: 'type',
        phase: 'act',
        details: { field: 'selector', selector, tab: tabId, reason: outcome.reason },
      });
  }
}

export const typeTool = defineTool({
  name: 'type',
  uses: REF_SERVICES,
  async handle(params, ctx) {
    // -s @ref: focus the ref's element first (same resolve/heal/navigation checks as every ref action).
    if (params.ref !== undefined) return typeIntoFocused(ctx, (await focusRef(ctx, params.ref, 'type')).tabId, params.text);
    const tabId = callTab(ctx);
    if (params.selector !== undefined) await focusSelector(ctx, tabId, params.selector);
    return typeIntoFocused(ctx, tabId, params.text);
  },
});

