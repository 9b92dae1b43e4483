/**
 * Calling the page script in our isolated world: one Runtime.evaluate per call, arguments
 * embedded as JSON, the answer returned as a JSON string (faster to ship than a by-value object
 * for big snapshots). The script goes with the first call in each world, so a fresh document answers its first call
 * in one evaluation (installing is idempotent: injected/index.ts). Every page method is called from here, the listener
 * scan's included (page/listeners.ts): no other file of the worker holds page code.
 *
 * A context id names a context only within one renderer process. After a navigation into another process (a link
 * to another site) the id of our world in the old document can name a context of the new one — its main world, or
 * our world there — and a call sent by id runs there. Observed in Chromium 156: the guard's record read right after
 * a click on a cross-site link came from the new document, which knew no such arming, and the click that navigated
 * was reported as not delivered. So:
 * - the script is installed only into the document the world was made for (its frame still shows that loader);
 * - every call carries the world's stamp (PageApi.stamp, learnt from the first answer), and a context whose script
 *   has another stamp, or none once the world had one, is not ours: the call goes the way of a context that is gone.
 */
import { reasonedError, RelayError } from '@chrome-relay/protocol';
import type Protocol from 'devtools-protocol';
import { isCdpFailure, isCommandFailure } from '../cdp/failures.js';
import type { ReadAwaitMethod } from '../injected/reads.js';
import type { PageArgs, PageMethod, PageReturn } from '../injected/types.js';
import type { CallContext } from '../context/call.js';
import { currentFrame, type FrameInfo } from './frames.js';
import { mainFrameDocument, worldTarget, type FrameSite, type PageWorld, type Worlds } from './worlds.js';


/**
 * The tab now shows another document than the world we were given: whatever refs we hold for it
 * are dead. Not a RelayError: each tool decides (snapshot retries, click reports stale_ref).
 */
export class DocumentChanged extends Error {
  readonly tabId: number;
  /** The frame whose document changed (the main frame's id when it was the main frame). */
  readonly frameId: string | undefined;
  constructor(tabId: number, frameId?: string) {
    super(`tab ${tabId} navigated to a new document`);
    this.name = 'DocumentChanged';
    this.tabId = tabId;
    this.frameId = frameId;
  }
}

/** Runtime.evaluate's way of saying the world is gone (navigation, or a frame swap). */
function isContextGone(error: unknown): boolean {
  return isCdpFailure(error, 'context_gone');
}

function pageScript(): string {
  // Read lazily: the constant only exists in the esbuild bundle, not under unit tests.
  return __PAGE_SCRIPT__;
}

function exceptionText(details: Protocol.Runtime.ExceptionDetails): string {
  return details.exception?.description ?? details.text;
}

async function evaluate(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, expression: string, what: string): Promise<unknown> {
  const response = await ctx.cdp.send(worldTarget(world), 'Runtime.evaluate', {
    expression,
    contextId: world.contextId,
    returnByValue: true,
    // Never stop at a breakpoint or "pause on exceptions" a person may have set in DevTools.
    silent: true,
  });
  if (response.exceptionDetails !== undefined) {
    // Our own code threw in the page: a chrome-relay bug, never the agent's input.
    throw new RelayError('internal_error', `The page script failed in ${what}: ${exceptionText(response.exceptionDetails)}`, {
      phase: 'act',
      details: { method: what, exception: exceptionText(response.exceptionDetails) },
    });
  }
  return response.result.value;
}

/**
 * Install the page script in the world if it is missing (idempotent, see injected/index.ts): only while the world's
 * frame still shows the document the world was made for (see the header); DocumentChanged otherwise.
 */
async function installPageScript(ctx: Pick<CallContext, 'cdp'>, world: PageWorld): Promise<void> {
  await stillItsDocument(ctx, world);
  await evaluate(ctx, world, pageScript(), 'install');
}

/** DocumentChanged unless the world's frame still shows the document the world was made for. */
async function stillItsDocument(ctx: Pick<CallContext, 'cdp'>, world: PageWorld): Promise<void> {
  const frame = await currentFrame(ctx, world.tabId, world);
  if (frame === undefined || frame.loaderId !== world.loaderId) throw new DocumentChanged(world.tabId, world.frameId);
}

/** The context a world's id names now is not that world (see the header): handled like a context that is gone. */
class NotOurWorld extends Error {}

/**
 * Pure: the expression that calls `method` in a world. Strict, so that a page's function met in a context that is
 * not ours cannot read the expected stamp from its caller's source. null: no page script there (the world's stamp
 * not known yet); 0: not the world's context.
 */
export function callExpression(method: string, args: unknown, stamp: string | undefined): string {
  return `(() => { 'use strict'; const api = globalThis.__chromeRelay; ${stampCheck(stamp)}if (api === undefined) return null; return api.stamp + ':' + JSON.stringify(api.${method}(${JSON.stringify(args)})); })()`;
}

/**
 * Pure: the statement, right after `const api = globalThis.__chromeRelay`, that answers `foreign` in a context that is
 * not the world's: no page script there, or another one (a page's own `__chromeRelay` may be anything, a getter that
 * throws included). Nothing while the world's stamp is not known yet.
 */
function stampCheck(stamp: string | undefined, foreign = '0'): string {
  if (stamp === undefined) return '';
  return `try { if (typeof api !== 'object' || api === null || api.stamp !== ${JSON.stringify(stamp)}) return ${foreign}; } catch { return ${foreign}; } `;
}

/** Pure: `call` preceded by the page script, which installs itself unless the world has it already. */
function withPageScript(script: string, call: string): string {
  return `${script}\n;${call}`;
}

async function callOnce<M extends PageMethod>(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, method: M, args: PageArgs<M>): Promise<PageReturn<M>> {
  let value: unknown;
  if (world.stamp === undefined) {
    // The first call in a world learns its stamp, only from the document the world was made for (see the header), and
    // takes the page script along: a fresh document needs it, and one that has it (a world met again after the worker
    // restarted) keeps its own. One evaluation, where asking, installing and asking again took three.
    await stillItsDocument(ctx, world);
    value = await evaluate(ctx, world, withPageScript(pageScript(), callExpression(method, args, undefined)), method);
  } else {
    value = await evaluate(ctx, world, callExpression(method, args, world.stamp), method);
  }
  if (value === 0) throw new NotOurWorld();
  const colon = typeof value === 'string' ? value.indexOf(':') : -1;
  if (typeof value !== 'string' || colon < 1) {
    throw new RelayError('internal_error', `The page script's ${method} returned no answer.`, { phase: 'act', details: { method } });
  }
  world.stamp ??= value.slice(0, colon);
  return JSON.parse(value.slice(colon + 1)) as PageReturn<M>;
}

/**
 * Give up on the page at the deadline. A page can stop answering (a busy main thread, an open
 * alert() dialog); the late answer is then ignored, which is safe because a snapshot only takes
 * effect in the page on commit, and nothing else changes page state except a heal (which a later
 * call re-verifies anyway).
 */
function withDeadline<T>(work: Promise<T>, deadline: number, tabId: number, method: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          reasonedError(
            'timeout',
            'page_busy',
            `Tab ${tabId} did not answer in time (${method}): the page may be busy or showing a dialog. Check the tab with \`chrome-relay snapshot\`, then retry.`,
            { phase: 'act', details: { tab: tabId, method } },
          ),
        ),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * Call `method` in the world, giving up at ctx.deadline (timeout). If the context is gone but the
 * tab still shows the same document, the world is re-found (same name → same world) and the call
 * made once more; if the document changed, DocumentChanged is thrown.
 */
export function callPage<M extends PageMethod>(
  ctx: Pick<CallContext, 'cdp' | 'deadline'>,
  worlds: Worlds,
  world: PageWorld,
  method: M,
  args: PageArgs<M>,
): Promise<PageReturn<M>> {
  return withDeadline(callPageNow(ctx, worlds, world, method, args), ctx.deadline, world.tabId, method);
}

async function callPageNow<M extends PageMethod>(
  ctx: Pick<CallContext, 'cdp'>,
  worlds: Worlds,
  world: PageWorld,
  method: M,
  args: PageArgs<M>,
): Promise<PageReturn<M>> {
  try {
    return await callOnce(ctx, world, method, args);
  } catch (error) {
    // An OOPIF's child session ends with its document (the frame navigated or was removed); what
    // chrome.debugger then says is not a context error, so check the frame before giving up.
    const childSessionFailed = world.sessionId !== undefined && isCommandFailure(error);
    const gone = isContextGone(error) || error instanceof NotOurWorld;
    if (!gone && !childSessionFailed) throw error;
    const frame = await currentFrame(ctx, world.tabId, world);
    if (frame === undefined || frame.loaderId !== world.loaderId) {
      worlds.forgetFrame(world.tabId, world.frameId);
      throw new DocumentChanged(world.tabId, world.frameId);
    }
    if (!gone) throw error;
  }
  worlds.forgetFrame(world.tabId, world.frameId);
  const frame = { frameId: world.frameId, loaderId: world.loaderId, ...(world.sessionId === undefined ? {} : { sessionId: world.sessionId }) };
  const again = await worlds.ensure(ctx, world.tabId, frame);
  try {
    return await callOnce(ctx, again, method, args);
  } catch (error) {
    // Gone twice in a row: the document is being replaced right now.
    if (isContextGone(error) || error instanceof NotOurWorld) throw new DocumentChanged(world.tabId, world.frameId);
    throw error;
  }
}

/**
 * One call in `world` as it is, for best-effort work beside a tool's own calls (the listener scan): undefined where the
 * world's context is gone, is not the world's, or its frame shows another document now — the tool's own page calls
 * report what that means. Bounded by the call's deadline like any page call.
 */
export async function callPageIfThere<M extends PageMethod>(ctx: Pick<CallContext, 'cdp' | 'deadline'>, world: PageWorld, method: M, args: PageArgs<M>): Promise<PageReturn<M> | undefined> {
  try {
    return await withDeadline(callOnce(ctx, world, method, args), ctx.deadline, world.tabId, method);
  } catch (error) {
    if (error instanceof NotOurWorld || error instanceof DocumentChanged || isContextGone(error)) return undefined;
    throw error;
  }
}

/**
 * A RemoteObject handle (objectId, in `group`) on the element the page API call `call` (e.g. `element({…})`) returns
 * in our world; undefined when it returns null. A world without the page script gets it first. Release the group
 * with Runtime.releaseObjectGroup.
 */
async function pageObject(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, call: string, group: string): Promise<string | undefined> {
  // A context that is not the world's (see the header) holds none of its elements: 0, read as none.
  const expression = `(() => { 'use strict'; const api = globalThis.__chromeRelay; ${stampCheck(world.stamp)}if (api === undefined) return undefined; return api.${call} ?? null; })()`;
  for (let attempt = 1; ; attempt++) {
    const response = await ctx.cdp.send(worldTarget(world), 'Runtime.evaluate', { expression, contextId: world.contextId, returnByValue: false, objectGroup: group, silent: true });
    if (response.exceptionDetails !== undefined) {
      const method = call.slice(0, call.indexOf('('));
      throw new RelayError('internal_error', `The page script failed in ${method}: ${exceptionText(response.exceptionDetails)}`, { phase: 'act', details: { method } });
    }
    if (response.result.type === 'undefined' && attempt === 1) {
      await installPageScript(ctx, world);
      continue;
    }
    return response.result.subtype === 'node' ? response.result.objectId : undefined;
  }
}

/**
 * A handle on the live element of `ref` in our world, for DOM.* commands that take an object
 * (DOM.setFileInputFiles). undefined when the ref has no live element. Call a JSON method on the ref first: it
 * verifies or heals the ref.
 */
export function pageElementHandle(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, ref: string, group: string): Promise<string | undefined> {
  return pageObject(ctx, world, `element(${JSON.stringify({ ref })})`, group);
}

/** A handle on the world's document (the listener read starts from its node id); undefined when the world has none. */
export function pageDocumentHandle(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, group: string): Promise<string | undefined> {
  return pageObject(ctx, world, 'documentNode()', group);
}

/** A handle on the element a described interceptor stands for (injected `candidate`); undefined when it is gone. */
export function pageCandidateHandle(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, candidate: number, group: string): Promise<string | undefined> {
  return pageObject(ctx, world, `candidate(${JSON.stringify({ candidate })})`, group);
}

/** A handle on the frame element input at `at` (a point of this viewport), or by keyboard focus (null), goes into; undefined when none. */
export function inputFrameHandle(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, at: { x: number; y: number } | null, group: string): Promise<string | undefined> {
  return pageObject(ctx, world, `inputFrame(${JSON.stringify(at)})`, group);
}

/**
 * Call an awaited read (`twoFrames`, `turn`) in the world and wait for its answer; undefined when the world went away
 * or the page threw (the caller decides what a missing answer means). Bounded by the caller.
 */
export async function callPageAwait<M extends ReadAwaitMethod>(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, method: M): Promise<PageReturn<M> | undefined> {
  // A context that is not the world's (see the header) answers 0: no answer.
  const expression = `(async () => { 'use strict'; const api = globalThis.__chromeRelay; ${stampCheck(world.stamp)}if (api === undefined) return null; return JSON.stringify(await api.${method}()); })()`;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const response = await ctx.cdp.send(worldTarget(world), 'Runtime.evaluate', { expression, contextId: world.contextId, awaitPromise: true, returnByValue: true, silent: true });
    if (response.exceptionDetails !== undefined) return undefined;
    const value: unknown = response.result.value;
    if (typeof value === 'string') return JSON.parse(value) as PageReturn<M>;
    if (value !== null) return undefined;
    if (attempt === 1) await installPageScript(ctx, world);
  }
  return undefined;
}

/** Where a read runs: the tab's main frame (its number), or one frame of it (`--frame @ref`). */
export type ReadSite = number | { tabId: number; frame: FrameSite };

/**
 * A read in our world of the tab's main frame, or of one frame. A document replaced between two reads (a page that
 * navigates while `wait` polls it) is read again, once, in the document there now.
 */
export async function callRead<M extends PageMethod>(ctx: Pick<CallContext, 'cdp' | 'deadline'> & { readonly worlds: Worlds }, where: ReadSite, method: M, args: PageArgs<M>): Promise<PageReturn<M>> {
  const tabId = typeof where === 'number' ? where : where.tabId;
  const documentNow = async (): Promise<FrameSite | undefined> => {
    if (typeof where === 'number') return mainFrameDocument(ctx, tabId);
    const frame: FrameInfo | undefined = await currentFrame(ctx, tabId, where.frame);
    return frame;
  };
  const first = typeof where === 'number' ? await mainFrameDocument(ctx, tabId) : where.frame;
  try {
    return await callPage(ctx, ctx.worlds, await ctx.worlds.ensure(ctx, tabId, first), method, args);
  } catch (error) {
    if (!(error instanceof DocumentChanged)) throw error;
    const now = await documentNow();
    if (now === undefined) throw error;
    return callPage(ctx, ctx.worlds, await ctx.worlds.ensure(ctx, tabId, now), method, args);
  }
}

/** The page API's methods called on an element held as a RemoteObject (`this`), with JSON arguments after it. */
type ElementMethod = 'frameSlot' | 'framePoint' | 'pointInFrame';

/** Call `method` on the element `objectId` of `world`'s document (installing the page script if missing); its JSON value. */
export async function callPageOnElement(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, objectId: string, method: ElementMethod, args: readonly unknown[]): Promise<unknown> {
  const call = () =>
    ctx.cdp.send(worldTarget(world), 'Runtime.callFunctionOn', {
      objectId,
      functionDeclaration: 'function (method, ...args) { const api = globalThis.__chromeRelay; return api === undefined ? null : api[method](this, ...args); }',
      arguments: [{ value: method }, ...args.map((value) => ({ value }))],
      returnByValue: true,
      silent: true,
    });
  return callInstalling(ctx, world, method, call);
}

/** The page API's methods called with elements held as RemoteObjects: JSON arguments first, then the elements as one array. */
type ElementsMethod = 'noteListeners';

/**
 * Call `method` of the world's page script with `args` (JSON) and the elements `objectIds` (RemoteObjects of this
 * world, e.g. DOM.resolveNode'd into it) as its last argument: the value it returns, or undefined where the world's
 * id now names a context that is not the world's (see the header: its elements are not ours to hand over). A world
 * without the page script gets it first.
 */
export async function callPageWithElements(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, method: ElementsMethod, args: readonly unknown[], objectIds: readonly string[]): Promise<unknown> {
  // Strict in an inner arrow (a function with a rest parameter may not carry the directive itself), so that a page's
  // function met in a context that is not ours cannot read the expected stamp from its caller's source.
  const declaration = `function (method, args, ...elements) { return (() => { 'use strict'; const api = globalThis.__chromeRelay; ${stampCheck(world.stamp, 'undefined')}if (api === undefined) return null; return api[method](...args, elements); })(); }`;
  const call = () =>
    ctx.cdp.send(worldTarget(world), 'Runtime.callFunctionOn', {
      executionContextId: world.contextId,
      functionDeclaration: declaration,
      arguments: [{ value: method }, { value: args }, ...objectIds.map((objectId) => ({ objectId }))],
      returnByValue: true,
      silent: true,
    });
  return callInstalling(ctx, world, method, call);
}

/**
 * A call of the page API on elements (`call`: one Runtime.callFunctionOn) that answers null where the world has no
 * page script yet: the script is installed and the call made once more. Our own code throwing is a bug of ours.
 */
async function callInstalling(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, method: string, call: () => Promise<Protocol.Runtime.CallFunctionOnResponse>): Promise<unknown> {
  let response = await call();
  if (response.exceptionDetails === undefined && response.result.value === null) {
    await installPageScript(ctx, world);
    response = await call();
  }
  if (response.exceptionDetails !== undefined) {
    throw new RelayError('internal_error', `The page script failed in ${method}: ${exceptionText(response.exceptionDetails)}`, { phase: 'act', details: { method } });
  }
  return response.result.value;
}
