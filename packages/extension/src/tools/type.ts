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
 * is accepted and reported as `iframe (cross-origin)` (frames are part B). `-s @ref` (focus an
 * element first) is part B: it resolves the ref, focuses it, then calls typeIntoFocused. Focus inside a frame
 * that shows a site the person blocked is refused before anything is looked at or typed (inputLanding.ts).
 */
import { reasonedError, RelayError, type ToolResult } from '@chrome-relay/protocol';
import { currentPlatform, planTyping, typeStep } from '../input/keyboard.js';
import { ADialog, dialogTracker } from '../pageState/dialogs.js';
import { callInPage } from '../pageState/isolatedWorld.js';
import { resolveTab } from '../targets.js';
import { focusRef, type RefDeps } from './refAction.js';
import { refRegistry } from '../refs/index.js';
import { worlds } from '../page/worlds.js';
import { defineTool, type ToolContext } from './defineTool.js';
import { checkFocusLanding, type LandingDeps } from './inputLanding.js';

export type FocusReport = { editable: true; description: string } | { editable: false; description: string };

/**
 * Runs in the page (isolated world): describe the deepest focused element. Self-contained. Tag
 * names, not instanceof: elements of a same-origin frame belong to that frame's realm.
 */
export function describeFocus(): FocusReport {
  let doc: Document = document;
  let el: Element | null = doc.activeElement;
  for (;;) {
    const root = el?.shadowRoot;
    if (root?.activeElement) {
      el = root.activeElement;
      continue;
    }
    if (el && (el.tagName === 'IFRAME' || el.tagName === 'FRAME')) {
      let inner: Document | null = null;
      try {
        inner = (el as HTMLIFrameElement).contentDocument;
      } catch {
        inner = null;
      }
      if (!inner) return { editable: true, description: 'iframe (cross-origin)' };
      doc = inner;
      el = inner.activeElement;
      continue;
    }
    break;
  }
  if (!el || el === doc.body || el === doc.documentElement) return { editable: false, description: 'nothing (the page body)' };
  let description = el.tagName.toLowerCase();
  if (el.id) description += `#${el.id}`;
  for (const attr of ['name', 'type']) {
    const value = el.getAttribute(attr);
    if (value) description += `[${attr}=${value}]`;
  }
  const field = el as HTMLInputElement;
  const contentEditable = (el as HTMLElement).isContentEditable === true;
  if (contentEditable) description += '[contenteditable]';
  // Inputs that take no typed text; every other type (text, email, date, number…) does.
  const notTyped = ['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'range', 'color', 'hidden'];
  const writable = field.readOnly !== true && field.disabled !== true;
  const editable =
    contentEditable ||
    (el.tagName === 'TEXTAREA' && writable) ||
    (el.tagName === 'INPUT' && writable && !notTyped.includes(field.type));
  return { editable, description };
}

/**
 * Type `text` into whatever is focused in the tab (the seam for part B: `type -s @ref` focuses the
 * ref's element first, then calls this). Checks that something editable has focus, then types.
 */
export async function typeIntoFocused(ctx: ToolContext, deps: LandingDeps, tabId: number, text: string): Promise<ToolResult<'type'>> {
  // First: describeFocus looks into same-origin frames, and the text goes where focus is.
  await checkFocusLanding(ctx, deps, tabId);
  const focus = await callInPage(ctx, tabId, describeFocus);
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
  const dialogs = dialogTracker(ctx);
  let typed = 0;
  for (const step of steps) {
    const outcome = await dialogs.watch(tabId, () => typeStep(ctx, tabId, step, platform));
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

export function createTypeTool(deps: RefDeps) {
  return defineTool({
    name: 'type',
    async handle(params, ctx) {
      // -s @ref: focus the ref's element first (same resolve/heal/navigation checks as every ref action).
      const tabId = params.ref === undefined ? await resolveTab(params.tab, ctx) : (await focusRef(ctx, deps, params.ref, params.tab, 'type')).tabId;
      return typeIntoFocused(ctx, deps, tabId, params.text);
    },
  });
}

export const typeTool = createTypeTool({ registry: refRegistry, worlds });
