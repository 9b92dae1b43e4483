/**
 * Small reads of page state (get, wait) run in an isolated world of the tab's main frame: the page
 * shares the DOM with it but not its JavaScript globals, so page code cannot patch what we call
 * (a redefined querySelector, innerText or JSON) and we write nothing into the main world.
 *
 * Page.createIsolatedWorld with a name that already exists in the frame returns the same context
 * (observed: same executionContextId, globals kept), so it is asked for on every read instead of
 * caching the id: context ids restart in a new renderer process after a cross-process navigation,
 * and a cached id could then name some other context of the new page (its main world). Two extra
 * round trips (~2 ms) buy that certainty. If the document goes away between the two calls, the
 * read is retried once in the new document.
 *
 * The functions passed in are serialised with Function.prototype.toString, so they must be
 * self-contained: no imports, no closures over module variables.
 *
 * A read may also run in one child frame (`--frame @ref`): the world is then made in that frame, on the session
 * that owns it (the tab's for a same-process iframe, the frame's own for an out-of-process one).
 */
import { RelayError } from '@chrome-relay/protocol';
import type { CdpTarget } from '../cdp/cdpSession.js';
import { DOCUMENT_GONE, isCdpFailure } from '../cdp/failures.js';
import type { CallContext } from '../context/call.js';

/** A frame of a tab to read in; a bare tab id means its main frame. */
export interface FrameScope {
  tabId: number;
  frameId: string;
  /** The out-of-process frame's own session. */
  sessionId?: string;
}

const WORLD_NAME = 'chrome-relay-reads';

export function scopeTarget(where: number | FrameScope): number | CdpTarget {
  if (typeof where === 'number') return where;
  return where.sessionId === undefined ? where.tabId : { tabId: where.tabId, sessionId: where.sessionId };
}

async function createWorld(ctx: Pick<CallContext, 'cdp'>, where: number | FrameScope): Promise<number> {
  const target = scopeTarget(where);
  const frameId = typeof where === 'number' ? (await ctx.cdp.send(target, 'Page.getFrameTree')).frameTree.frame.id : where.frameId;
  const world = await ctx.cdp.send(target, 'Page.createIsolatedWorld', { frameId, worldName: WORLD_NAME });
  return world.executionContextId;
}

/**
 * Call `fn(...args)` in the reads world of the tab's main frame (or of `where`'s frame) and return its JSON value. An
 * exception inside `fn` is a bug of ours (the functions guard their own inputs): internal_error.
 */
export async function callInPage<Args extends unknown[], R>(
  ctx: Pick<CallContext, 'cdp'>,
  where: number | FrameScope,
  fn: (...args: Args) => R,
  ...args: Args
): Promise<Awaited<R>> {
  for (let attempt = 1; ; attempt++) {
    const contextId = await createWorld(ctx, where);
    try {
      const reply = await ctx.cdp.send(scopeTarget(where), 'Runtime.callFunctionOn', {
        functionDeclaration: fn.toString(),
        executionContextId: contextId,
        arguments: args.map((value) => ({ value })),
        returnByValue: true,
        awaitPromise: true,
      });
      if (reply.exceptionDetails) {
        const text = reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text;
        throw new RelayError('internal_error', `A page read of chrome-relay failed: ${text}`, { phase: 'act', details: { exception: text } });
      }
      return reply.result.value as Awaited<R>;
    } catch (error) {
      // The document (and its world) went away between calls: make the world again, once.
      if (attempt === 1 && isCdpFailure(error, ...DOCUMENT_GONE)) continue;
      throw error;
    }
  }
}
