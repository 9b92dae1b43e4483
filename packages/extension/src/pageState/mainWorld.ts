/**
 * Evaluation of agent-written JavaScript in the page's main world (`js`, `wait --fn`): that code
 * wants the page's own globals, so unlike page reads it does not run in an isolated world.
 *
 * replMode allows top-level `await` and re-declaring `let`/`const` across calls, like the DevTools
 * console; awaitPromise waits for a returned promise. userGesture counts as a user activation, as
 * an agent's explicit action (window.open, clipboard) would in a person's console.
 *
 * Failure mapping (documented in the tool descriptions):
 * - the code does not compile (SyntaxError without a stack: it never ran) → invalid_arguments on
 *   the field that holds it;
 * - it threw or its promise rejected → cdp_error, retryable:false, details.exception = the text.
 */
import { RelayError } from '@chrome-relay/protocol';
import type Protocol from 'devtools-protocol';
import type { ToolContext } from '../tools/defineTool.js';

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
  ctx: Pick<ToolContext, 'cdp'>,
  tabId: number,
  expression: string,
  where: { tool: string; field: string; maxDepth: number },
): Promise<Evaluation> {
  const reply = await ctx.cdp.send(tabId, 'Runtime.evaluate', {
    expression,
    replMode: true,
    awaitPromise: true,
    userGesture: true,
    serializationOptions: { serialization: 'deep', maxDepth: where.maxDepth },
  });
  const details = reply.exceptionDetails;
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
    throw new RelayError('cdp_error', `The page threw while evaluating ${where.field}: ${text}`, {
      tool: where.tool,
      phase: 'act',
      retryable: false,
      details: { method: 'Runtime.evaluate', cdpMessage: text, exception: text },
    });
  }
  return { deep: reply.result.deepSerializedValue, remote: reply.result };
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
