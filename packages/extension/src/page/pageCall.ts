/**
 * Calling the page script in our isolated world: one Runtime.evaluate per call, arguments
 * embedded as JSON, the answer returned as a JSON string (faster to ship than a by-value object
 * for big snapshots). The script is installed on first use in each document.
 */
import { reasonedError, RelayError } from '@chrome-relay/protocol';
import type Protocol from 'devtools-protocol';
import type { PageArgs, PageMethod, PageReturn } from '../injected/types.js';
import type { ToolContext } from '../tools/defineTool.js';
import { currentFrame } from './frames.js';
import { worldTarget, type PageWorld, type Worlds } from './worlds.js';

/** Runtime.evaluate's way of saying the world is gone (navigation, or a frame swap). */
const CONTEXT_GONE = /cannot find context with specified id|execution context was destroyed|cannot find default execution context/i;

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

function isContextGone(error: unknown): boolean {
  if (!(error instanceof RelayError) || error.code !== 'cdp_error') return false;
  const cdpMessage = error.details.cdpMessage;
  return typeof cdpMessage === 'string' && CONTEXT_GONE.test(cdpMessage);
}

function pageScript(): string {
  // Read lazily: the constant only exists in the esbuild bundle, not under unit tests.
  return __PAGE_SCRIPT__;
}

function exceptionText(details: Protocol.Runtime.ExceptionDetails): string {
  return details.exception?.description ?? details.text;
}

async function evaluate(ctx: Pick<ToolContext, 'cdp'>, world: PageWorld, expression: string, what: string): Promise<unknown> {
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

/** Install the page script in the world if it is missing (idempotent, see injected/index.ts). */
export async function installPageScript(ctx: Pick<ToolContext, 'cdp'>, world: PageWorld): Promise<void> {
  await evaluate(ctx, world, pageScript(), 'install');
}

async function callOnce<M extends PageMethod>(ctx: Pick<ToolContext, 'cdp'>, world: PageWorld, method: M, args: PageArgs<M>): Promise<PageReturn<M>> {
  const expression =
    `(() => { const api = globalThis.__chromeRelay; ` +
    `return api === undefined ? null : JSON.stringify(api.${method}(${JSON.stringify(args)})); })()`;
  let value = await evaluate(ctx, world, expression, method);
  if (value === null) {
    // A fresh world (new document, or first use): install, then ask again.
    await evaluate(ctx, world, pageScript(), 'install');
    value = await evaluate(ctx, world, expression, method);
  }
  if (typeof value !== 'string') {
    throw new RelayError('internal_error', `The page script's ${method} returned no answer.`, { phase: 'act', details: { method } });
  }
  return JSON.parse(value) as PageReturn<M>;
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
  ctx: Pick<ToolContext, 'cdp' | 'deadline'>,
  worlds: Worlds,
  world: PageWorld,
  method: M,
  args: PageArgs<M>,
): Promise<PageReturn<M>> {
  return withDeadline(callPageNow(ctx, worlds, world, method, args), ctx.deadline, world.tabId, method);
}

async function callPageNow<M extends PageMethod>(
  ctx: Pick<ToolContext, 'cdp'>,
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
    const childSessionFailed = world.sessionId !== undefined && error instanceof RelayError && error.code === 'cdp_error';
    if (!isContextGone(error) && !childSessionFailed) throw error;
    const frame = await currentFrame(ctx, world.tabId, world);
    if (frame === undefined || frame.loaderId !== world.loaderId) {
      worlds.forgetFrame(world.tabId, world.frameId);
      throw new DocumentChanged(world.tabId, world.frameId);
    }
    if (!isContextGone(error)) throw error;
  }
  worlds.forgetFrame(world.tabId, world.frameId);
  const frame = { frameId: world.frameId, loaderId: world.loaderId, ...(world.sessionId === undefined ? {} : { sessionId: world.sessionId }) };
  const again = await worlds.ensure(ctx, world.tabId, frame);
  try {
    return await callOnce(ctx, again, method, args);
  } catch (error) {
    // Gone twice in a row: the document is being replaced right now.
    if (isContextGone(error)) throw new DocumentChanged(world.tabId, world.frameId);
    throw error;
  }
}

/**
 * A RemoteObject handle (objectId, in `group`) on the element the page API call `call` (e.g. `element({…})`) returns
 * in our world; undefined when it returns null. A world without the page script gets it first. Release the group
 * with Runtime.releaseObjectGroup.
 */
async function pageObject(ctx: Pick<ToolContext, 'cdp'>, world: PageWorld, call: string, group: string): Promise<string | undefined> {
  const expression = `(() => { const api = globalThis.__chromeRelay; return api === undefined ? undefined : (api.${call} ?? null); })()`;
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
export function pageElementHandle(ctx: Pick<ToolContext, 'cdp'>, world: PageWorld, ref: string, group: string): Promise<string | undefined> {
  return pageObject(ctx, world, `element(${JSON.stringify({ ref })})`, group);
}

/** A handle on the element a described interceptor stands for (injected `candidate`); undefined when it is gone. */
export function pageCandidateHandle(ctx: Pick<ToolContext, 'cdp'>, world: PageWorld, candidate: number, group: string): Promise<string | undefined> {
  return pageObject(ctx, world, `candidate(${JSON.stringify({ candidate })})`, group);
}

/** A handle on the frame element input at `at` (a point of this viewport), or by keyboard focus (null), goes into; undefined when none. */
export function inputFrameHandle(ctx: Pick<ToolContext, 'cdp'>, world: PageWorld, at: { x: number; y: number } | null, group: string): Promise<string | undefined> {
  return pageObject(ctx, world, `inputFrame(${JSON.stringify(at)})`, group);
}
