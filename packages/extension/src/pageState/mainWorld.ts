/**
 * Evaluation of agent-written JavaScript in the page's main world (`js`, `wait --fn`): that code
 * wants the page's own globals, so unlike page reads it does not run in an isolated world.
 *
 * replMode allows top-level `await` and re-declaring `let`/`const` across calls, like the DevTools
 * console. In replMode `awaitPromise` only waits for the script itself: a promise that is the
 * script's value comes back unsettled (observed in Chromium 156: `Promise.resolve(5)` answers
 * `{subtype: 'promise'}`). Playwright and Puppeteer await a returned promise, and agents write
 * `fetch(…).then(r => r.json())` expecting its value, so that promise is awaited in a second step.
 * userGesture counts as a user activation, as an agent's explicit action (window.open, clipboard)
 * would in a person's console.
 *
 * Failure mapping (documented in the tool descriptions):
 * - the code does not compile (SyntaxError without a stack: it never ran) → invalid_arguments on
 *   the field that holds it — the only invalid_arguments, because only then nothing has run;
 * - it threw or its promise rejected → cdp_error, retryable:false, details.exception = the text;
 * - its promise had not settled by `settleBy` → timeout `promise_pending`, retryable:false: the code ran, and a
 *   promise that never settles is no busy page (the dispatcher's page_busy would say so at the deadline).
 */
import { reasonedError, RelayError, toolLabel } from '@chrome-relay/protocol';
import type Protocol from 'devtools-protocol';
import type { CdpTarget } from '../cdp/cdpSession.js';
import type { CallContext } from '../context/call.js';

/** Where agent code runs: a tab (its main frame), or a session and, for a frame that is not its top, a context. */
export type MainWorldSite = number | { target: number | CdpTarget; contextId?: number };

function siteOf(at: MainWorldSite): { target: number | CdpTarget; contextId?: number } {
  return typeof at === 'number' ? { target: at } : at;
}

export interface EvaluationSite {
  tool: string;
  field: string;
  maxDepth: number;
  /** Epoch ms by which a returned promise must have settled; without it, it is awaited as long as the call runs. */
  settleBy?: number;
}

export interface Evaluation {
  /** Deep-serialized result (see jsonValue.ts). */
  deep: unknown;
  remote: Protocol.Runtime.RemoteObject;
}

function exceptionText(details: Protocol.Runtime.ExceptionDetails): string {
  const description = details.exception?.description;
  if (description) return description.split('\n    at ')[0] ?? description;
  if (details.exception?.value !== undefined) return `Uncaught ${JSON.stringify(details.exception.value)}`;
  return details.text;
}

export async function evaluateInMainWorld(
  ctx: Pick<CallContext, 'cdp'>,
  at: MainWorldSite,
  expression: string,
  where: EvaluationSite,
): Promise<Evaluation> {
  const { target, contextId } = siteOf(at);
  const reply = await ctx.cdp.send(target, 'Runtime.evaluate', {
    expression,
    ...(contextId === undefined ? {} : { contextId }),
    replMode: true,
    awaitPromise: true,
    userGesture: true,
    serializationOptions: { serialization: 'deep', maxDepth: where.maxDepth },
  });
  const details = reply.exceptionDetails;
  if (!details && reply.result.subtype === 'promise' && reply.result.objectId !== undefined) {
    return settle(ctx, target, reply.result.objectId, where);
  }
  if (details) {
    const text = exceptionText(details);
    const compileError = details.exception?.className === 'SyntaxError' && details.stackTrace === undefined;
    if (compileError) {
      throw new RelayError('invalid_arguments', `Invalid arguments for ${where.tool}: ${where.field} is not valid JavaScript: ${text}.`, {
        tool: where.tool,
        phase: 'validate',
        details: { field: where.field, exception: text },
      });
    }
    throw pageThrew(where, 'Runtime.evaluate', text);
  }
  return { deep: reply.result.deepSerializedValue, remote: reply.result };
}

function pageThrew(where: { tool: string; field: string }, method: string, text: string): RelayError {
  return new RelayError('cdp_error', `The page threw while evaluating ${where.field}: ${text}`, {
    tool: where.tool,
    phase: 'act',
    retryable: false,
    // The page's own exception, not a failed command: no cdpMessage (its words are the page's, whatever they say).
    details: { method, exception: text },
  });
}

/**
 * Await the promise the code returned and serialize what it settles to. The code has run by now, so
 * a rejection is the page's exception (cdp_error), never invalid_arguments — whatever its class.
 */
async function settle(ctx: Pick<CallContext, 'cdp'>, target: number | CdpTarget, promiseId: string, where: EvaluationSite): Promise<Evaluation> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const settled = ctx.cdp.send(target, 'Runtime.callFunctionOn', {
      functionDeclaration: 'function () { return this; }',
      objectId: promiseId,
      awaitPromise: true,
      serializationOptions: { serialization: 'deep', maxDepth: where.maxDepth },
    });
    const { settleBy } = where;
    const reply =
      settleBy === undefined
        ? await settled
        : await Promise.race([
            settled,
            new Promise<never>((_resolve, reject) => {
              timer = setTimeout(() => reject(pending(where, settleBy)), Math.max(0, settleBy - Date.now()));
            }),
          ]);
    if (reply.exceptionDetails) throw pageThrew(where, 'Runtime.callFunctionOn', exceptionText(reply.exceptionDetails));
    return { deep: reply.result.deepSerializedValue, remote: reply.result };
  } finally {
    clearTimeout(timer);
    // The page keeps the promise alive for us until released; nobody needs it after this (a pending await of it
    // then ends with an error nobody reads).
    ctx.cdp.send(target, 'Runtime.releaseObject', { objectId: promiseId }).catch(() => undefined);
  }
}

function pending(where: EvaluationSite, settleBy: number): RelayError {
  return reasonedError(
    'timeout',
    'promise_pending',
    `The ${where.field} ran and returned a promise that had not settled when ${toolLabel(where.tool)} had to answer; it may never settle. Return a value that settles (or give a larger --timeout if it is merely slow); it ran, so check the page with \`chrome-relay snapshot\` before running one that changes it again.`,
    { tool: where.tool, phase: 'act', details: { field: where.field, settleBy: new Date(settleBy).toISOString(), mayHaveActed: true } },
  );
}

/** JavaScript truthiness of a deep-serialized value. */
export function isTruthy(deep: unknown): boolean {
  const d = (typeof deep === 'object' && deep !== null ? deep : {}) as { type?: unknown; value?: unknown };
  switch (d.type) {
    case 'undefined':
    case 'null':
      return false;
    case 'boolean':
      return d.value === true;
    case 'number':
      return typeof d.value === 'number' ? d.value !== 0 : d.value !== 'NaN' && d.value !== '-0';
    case 'string':
      return d.value !== '';
    case 'bigint':
      return d.value !== '0';
    default:
      return true;
  }
}

/**
 * Whether the page's main thread answers at all: the literal `1` evaluated in its main world (doctor's page check).
 * It runs nothing of ours or the agent's; the answer, not its value, is the point.
 */
export function mainWorldAnswers(ctx: Pick<CallContext, 'cdp'>, tabId: number): Promise<unknown> {
  return ctx.cdp.send(tabId, 'Runtime.evaluate', { expression: '1', returnByValue: true, silent: true });
}
