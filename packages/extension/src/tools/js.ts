/**
 * `js "<expression>"`: evaluate in the page's main world and return the value as JSON.
 *
 * Closed-code choices (see pageState/mainWorld.ts and jsonValue.ts):
 * - code that does not compile → invalid_arguments (field expression): nothing ran;
 * - a returned promise is awaited, like Playwright's and Puppeteer's evaluate;
 * - the page threw / the promise rejected → cdp_error, retryable:false, details.exception;
 * - a value JSON cannot carry without loss (DOM node, function, Map, NaN, circular…) → invalid_arguments on
 *   the expression (the fix is another expression), retryable:false and details.mayHaveActed: the code HAS
 *   run — its effects happened — so the message and details say so;
 * - a returned promise that has not settled shortly before the call must answer → timeout promise_pending
 *   (mainWorld.ts), not the page_busy the dispatcher would give at the deadline.
 * An expression that opens a dialog (alert()) is suspended until the dialog is answered; the
 * call returns at once with `dialog` and no value.
 * `--frame @ref` evaluates in the main world of that iframe's document (same- or cross-origin, see frameRef.ts).
 */
import { RelayError } from '@chrome-relay/protocol';
import { callTab } from '../context/call.js';
import { fromDeepSerialized } from '../pageState/jsonValue.js';
import { evaluateInMainWorld, type MainWorldSite } from '../pageState/mainWorld.js';
import { defineTool } from './defineTool.js';
import { resolveFrameRef } from '../actions/frameRef.js';
import { REF_SERVICES } from '../actions/toolContext.js';

export const JS_MAX_DEPTH = 20;

/** The dispatcher answers page_busy at ctx.deadline; a pending promise is told apart this much earlier, so its own answer wins. */
const PROMISE_MARGIN_MS = 150;

export const jsTool = defineTool({
  name: 'js',
  uses: REF_SERVICES,
  async handle(params, ctx) {
    let tabId: number;
    let site: MainWorldSite;
    if (params.frame === undefined) {
      tabId = callTab(ctx);
      site = tabId;
    } else {
      const frame = await resolveFrameRef(ctx, 'js', params.frame);
      tabId = frame.tabId;
      site = frame.main;
    }
    const outcome = await ctx.dialogs.watch(tabId, () =>
      evaluateInMainWorld(ctx, site, params.expression, { tool: 'js', field: 'expression', maxDepth: JS_MAX_DEPTH, settleBy: ctx.deadline - PROMISE_MARGIN_MS }),
    );
    if ('dialog' in outcome) return { tabId, dialog: outcome.dialog };
    const converted = fromDeepSerialized(outcome.done.deep);
    if (!converted.ok) {
      throw new RelayError(
        'invalid_arguments',
        `The expression ran, but its value cannot be returned as JSON: ${converted.path} is ${converted.why}. Give an expression that returns plain data (e.g. el.textContent rather than the element); whatever this one did in the page has happened, so check the page before re-running one that changes it.`,
        { tool: 'js', phase: 'verify', retryable: false, details: { field: 'expression', path: converted.path, mayHaveActed: true } },
      );
    }
    return converted.value === undefined ? { tabId } : { tabId, value: converted.value };
  },
});

