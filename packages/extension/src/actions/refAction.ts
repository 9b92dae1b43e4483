/**
 * The common first half of every ref-addressed action: which tab the ref lives in (registry),
 * is that tab still showing the document the ref was issued for, and our world in it. Then page
 * calls that turn "the document changed under us" into stale_ref (reason navigated) and the
 * page's refusals into the closed codes, all in one place so every element tool says the same.
 */
import { reasonedError, RelayError, type ToolName } from '@chrome-relay/protocol';
import type Protocol from 'devtools-protocol';
import type { PageArgs, PageMethod, PageReturn, StaleReason } from '../injected/types.js';
import type { NavigationTiming } from '../page/navigation.js';
import { callPage, DocumentChanged, pageElementHandle } from '../page/pageCall.js';
import type { FrameInfo } from '../page/frames.js';
import { mainFrameDocument, worldTarget, type FrameState, type PageWorld, type Worlds } from '../page/worlds.js';
import { blockedFrameError } from '../policy/policy.js';
import { staleRefError, tabClosedError } from '../refs/refTarget.js';
import type { CallRef } from '../context/call.js';
import type { RefCounter } from '../refs/counter.js';
import type { RefRegistry } from '../refs/registry.js';
import type { RefContext } from './toolContext.js';
import type { DeliveryWhen } from './deliveryVerdict.js';
import type { InterceptorIdentity } from './interceptorIdentity.js';

/**
 * A ref's tab, the main frame's document when the action began, and our world in the ref's own
 * frame (the main frame's, or an iframe's; `world.frameId` says which).
 */
export interface RefSite {
  ref: string;
  tabId: number;
  before: FrameState;
  world: PageWorld;
  /** For the ref of an <iframe>, while the person blocks any site: the frame it shows, found (and checked) by openRef. */
  shows?: ShownFrame;
}

/** What an <iframe> ref's element shows: its node as DOM.describeNode reports it, and that frame in the tab's list (undefined: not loaded or not reachable yet). */
export interface ShownFrame {
  node: Protocol.DOM.Node;
  frame: FrameInfo | undefined;
}

const SHOWN_GROUP = 'chrome-relay-shown-frame';

/** Page domain on (navigation watch, file chooser events) and the main frame's document. */
export async function enablePage(ctx: RefContext, tabId: number): Promise<FrameState> {
  // The dispatcher's dialog guard enabled it on this session already (once per session), and the main frame's
  // document is then known from Page events; otherwise enable it here and read.
  if (ctx.dialogs.pageEventsOn(tabId)) return ctx.mainFrames.current(ctx, tabId, true);
  const [frame] = await Promise.all([mainFrameDocument(ctx, tabId), ctx.cdp.send(tabId, 'Page.enable')]);
  return frame;
}

/**
 * Every ref-addressed tool starts here, so this is where a ref meets the person's site block list inside a page
 * (the tab itself was checked by the dispatcher): a ref inside a frame that shows a blocked site, or inside one
 * within it, and the ref of an <iframe> showing one, fail site_blocked before anything is asked of the page. That
 * holds whenever the frame became blocked: it navigated onto the site after the snapshot, or the person added the
 * rule since.
 */
export async function openRef(ctx: RefContext, ref: string): Promise<RefSite> {
  const target = resolvedRef(ctx, ref);
  const { tabId } = target;
  const before = await enablePage(ctx, tabId);
  // The document the ref was issued in is gone, even if the new one has a look-alike element.
  if (before.frameId !== target.document.frameId || before.loaderId !== target.document.loaderId) {
    await ctx.registry.markNavigated(tabId);
    throw staleRefError(ref, 'navigated', tabId);
  }
  let site: RefSite;
  if (target.frame.frameId === before.frameId) {
    site = { ref, tabId, before, world: await ctx.worlds.ensure(ctx, tabId, before) };
  } else {
    // A ref inside an iframe: that frame must still show the document the ref was issued in (only
    // this frame's refs die when it navigates; the rest of the tab's stay). A frame that now shows a blocked
    // site says so first: that, not the navigation, is what the agent must know.
    const frame = (await ctx.frames.list(ctx, tabId)).find((candidate) => candidate.frameId === target.frame.frameId);
    if (frame?.blocked !== undefined) throw blockedFrameError(tabId, frame.blocked, { ref, is: 'inside' });
    if (frame === undefined || frame.loaderId !== target.frame.loaderId) throw staleRefError(ref, 'navigated', tabId);
    site = { ref, tabId, before, world: await ctx.worlds.ensure(ctx, tabId, frame) };
  }
  if (target.record.role === 'iframe' && (await ctx.frames.blockList()).length > 0) {
    // Pointing at, focusing or capturing the frame element reaches into what it shows.
    site.shows = await frameShownBy(ctx, site);
  }
  return site;
}

/**
 * The frame the ref's element shows (the ref verified, or healed, first); stale_ref when the element is gone, and
 * site_blocked when that frame shows a site the person blocked: every way a ref reaches into the frame its element
 * shows (acting on an <iframe>, --frame @ref) learns that here, once.
 */
export async function frameShownBy(ctx: RefContext, site: RefSite): Promise<ShownFrame> {
  const resolved = await callSite(ctx, site, 'resolve', { ref: site.ref });
  if (resolved.status === 'stale') throw staleRefError(site.ref, resolved.reason, site.tabId);
  const target = worldTarget(site.world);
  try {
    const handle = await pageElementHandle(ctx, site.world, site.ref, SHOWN_GROUP);
    if (handle === undefined) throw staleRefError(site.ref, 'vanished', site.tabId);
    const { node } = await ctx.cdp.send(target, 'DOM.describeNode', { objectId: handle, depth: 0 });
    const frameId = node.frameId;
    const frame = frameId === undefined ? undefined : (await ctx.frames.list(ctx, site.tabId)).find((candidate) => candidate.frameId === frameId);
    if (frame?.blocked !== undefined) throw blockedFrameError(site.tabId, frame.blocked, { ref: site.ref, is: 'frame' });
    return { node, frame };
  } finally {
    ctx.cdp.send(target, 'Runtime.releaseObjectGroup', { objectGroup: SHOWN_GROUP }).catch(() => undefined);
  }
}

/**
 * The ref as the call was resolved (targeting/resolveCall.ts: the registry was read once, there), or the closed error
 * that says why it cannot be used: never issued or forgotten, its tab navigated, its tab closed.
 */
function resolvedRef(ctx: RefContext, ref: string): Extract<CallRef, { state: 'live' }> {
  const found = ctx.refs.get(ref);
  if (found === undefined) {
    // Every ref param is resolved with the call (cliShape REF_PARAMS): a tool opening another is a bug of ours.
    throw new RelayError('internal_error', `@${ref} was not resolved with the call.`, { phase: 'resolve', details: { ref } });
  }
  switch (found.state) {
    case 'live':
      return found;
    case 'unknown':
      throw staleRefError(ref, 'unknown_ref');
    case 'navigated':
      throw staleRefError(ref, 'navigated', found.tabId);
    case 'closed':
      throw tabClosedError(ref, found.tabId);
  }
}

/** Call the page API for this site; a document swap mid-call is stale_ref (navigated). */
async function callSite<M extends PageMethod>(ctx: RefContext, site: RefSite, method: M, args: PageArgs<M>): Promise<PageReturn<M>> {
  try {
    return await callPage(ctx, ctx.worlds, site.world, method, args);
  } catch (error) {
    if (!(error instanceof DocumentChanged)) throw error;
    // Only the main frame's new document kills the whole tab's refs.
    if (error.frameId === undefined || error.frameId === site.before.frameId) await ctx.registry.markNavigated(site.tabId);
    throw staleRefError(site.ref, 'navigated', site.tabId);
  }
}

/** What a read of a ref's element answers once its stale and refused outcomes became errors. */
export type RefRead<M extends PageMethod> = Exclude<PageReturn<M>, { status: 'stale' } | { status: 'refused' }>;

/**
 * One read (or small act) of the page API in the ref's document — every one a tool makes of a ref goes through here,
 * so every tool says the same: the document replaced mid-call, or the page answering that the ref is stale (vanished,
 * ambiguous, changed…), is stale_ref with its reason; the page refusing (not a field, disabled…) is invalid_arguments
 * naming why. Anything else the page answers comes back for the tool to read.
 */
export async function readRef<M extends PageMethod>(ctx: RefContext, site: RefSite, tool: ToolName, method: M, args: PageArgs<M>): Promise<RefRead<M>> {
  const outcome: PageReturn<M> = await callSite(ctx, site, method, args);
  // Every page answer is an object; those that can be stale or refused say so in `status` (injected/types.ts).
  const said = outcome as { status?: unknown; reason?: unknown };
  if (said.status === 'stale') throw staleRefError(site.ref, said.reason as StaleReason, site.tabId);
  if (said.status === 'refused') throw refusedError(tool, site.ref, site.tabId, String(said.reason));
  return outcome as RefRead<M>;
}

/** How far a refused pointer action got, for click_intercepted (see deliveryVerdict.ts). */
export interface Interception {
  x: number;
  y: number;
  healed: boolean;
  when: DeliveryWhen;
  /** Absent when no frame we watch saw where the input went. */
  interceptor?: InterceptorIdentity;
  /** Whether any input was sent (false: the hit-test refused before the pointer moved). */
  sent: boolean;
  /** on_press: the element left the page after taking the press. */
  gone?: boolean;
  /** The interceptor holds the element, which gave way under the pointer (deliveryVerdict.ts). */
  gaveWay?: boolean;
  /** How the message names the action ("Double-click on"); by default the tool's word. */
  verb?: string;
}

/** Roles that say nothing a person recognises an element by: such an element is named by its tag. */
const UNNAMED_ROLES = new Set(['generic', 'none', 'presentation', 'paragraph']);

/**
 * An element as a message names it, briefly: by its role when it has one a snapshot shows (`dialog "Cookie consent"
 * (@e42)`), else by its tag (`<div id="banner"> "We use cookies" (@e42)`); the name is the short one the page gave.
 */
export function labelOf(who: { nodeName: string; id?: string; role?: string; name: string; ref?: string }): string {
  // Id and name (and, rarely, the tag) are the page's own strings: quoted, so they cannot pose as the rest of the sentence.
  const lower = who.nodeName.toLowerCase();
  const tag = /^[a-z][a-z0-9-]*$/.test(lower) ? lower : JSON.stringify(who.nodeName);
  const role = who.role !== undefined && /^[a-z]+$/.test(who.role) && !UNNAMED_ROLES.has(who.role) ? who.role : undefined;
  const what = role ?? `<${tag}${who.id ? ` id=${JSON.stringify(who.id)}` : ''}>`;
  return `${what}${who.name ? ` ${JSON.stringify(who.name)}` : ''}${who.ref ? ` (@${who.ref})` : ''}`;
}

/** How to get rid of the covering element: its ref shows it with what closes it. */
function dismissHow(who: InterceptorIdentity): string {
  return who.ref === undefined ? 'Dismiss or close that element' : `Dismiss or close it (\`chrome-relay snapshot -s @${who.ref}\` shows it and what closes it)`;
}

/** The message for each way a pointer action can miss its element; the move fits the situation. */
function interceptionMessage(tool: ToolName, ref: string, at: Interception): string {
  const verb = at.verb ?? (tool === 'hover' ? 'Hover over' : tool === 'drag' ? 'Drag of' : 'Click on');
  const where = `(${at.x}, ${at.y})`;
  if (at.interceptor === undefined) {
    return `${verb} @${ref} was not delivered: the input sent to ${where} never reached the document @${ref} is in (another frame took it, or a page listener stopped it). Snapshot, then try @${ref} again; if this repeats, the element is not reachable by a pointer.`;
  }
  const who = labelOf(at.interceptor);
  const dismiss = dismissHow(at.interceptor);
  if (!at.sent) return `${verb} @${ref} was not delivered: ${who} covers it at ${where}. ${dismiss}, then try @${ref} again.`;
  if (at.gaveWay === true && at.when !== 'on_press') {
    return `${verb} @${ref} was not delivered: it gave way under the pointer at ${where} (it shrank, moved or hid as the pointer arrived, as a hover style or a moving element does), and the input went to ${who}, which holds it; those events were cancelled. Take \`chrome-relay screenshot\` to see it, then try @${ref} again, or use a control that does not move.`;
  }
  switch (at.when) {
    case 'before_pointer':
      return `${verb} @${ref} was not delivered: ${who} was at ${where} when the pointer got there (the element moved or was covered after the hit-test); the events it would have received were cancelled. ${dismiss} if it stays, then try @${ref} again.`;
    case 'after_pointer':
      return `${verb} @${ref} was not delivered: the pointer reached it, then ${who} took the point ${tool === 'hover' ? '' : 'before the press '}(it appears when the pointer arrives); the events it would have received were cancelled. ${dismiss}, or avoid it, then try @${ref} again.`;
    case 'on_press':
      if (at.gone === true) {
        return `${verb} @${ref} did not complete as a click: it got the press, then left the page (its own press handler removed or replaced it), and the release went to ${who}, which was cancelled. The press may have done what you wanted: check the page before trying again.`;
      }
      return `${verb} @${ref} did not complete: it got the press, but ${who} took the release, which was cancelled. Its press handlers ran, so check the page before trying again.`;
  }
}

export function interceptedError(tool: ToolName, ref: string, tabId: number, at: Interception): RelayError {
  const details: Record<string, unknown> = { ref, tab: tabId, x: at.x, y: at.y, healed: at.healed, when: at.when };
  if (at.interceptor !== undefined) details.interceptor = at.interceptor;
  if (at.gaveWay === true) details.gaveWay = true;
  return new RelayError('click_intercepted', interceptionMessage(tool, ref, at), { tool, phase: at.sent ? 'verify' : 'act', details, retryable: false });
}

export function notVisibleError(tool: ToolName, ref: string, tabId: number, beyondEdge = false): RelayError {
  if (beyondEdge) {
    return reasonedError(
      'element_not_found',
      'out_of_reach',
      `Ref @${ref} is in the page but lies past the edge it can scroll to (the snapshot marks it [offscreen]), so no pointer reaches it. Use \`chrome-relay fill\`, \`chrome-relay select\`, or \`chrome-relay focus\` then \`chrome-relay keys\` on it instead: they need no pointer.`,
      { tool, phase: 'act', details: { ref, tab: tabId } },
    );
  }
  return reasonedError(
    'element_not_found',
    'not_visible',
    `Ref @${ref} names an element that is not visible now (hidden or zero-sized), so there is nothing to point at. Reveal it (scroll, expand, hover its menu) or \`chrome-relay wait\` for it, then retry.`,
    { tool, phase: 'act', details: { ref, tab: tabId } },
  );
}

/** The element exists but cannot take this action (wrong kind of element, disabled…). */
export function refusedError(tool: ToolName, ref: string, tabId: number, reason: string, extra: Record<string, unknown> = {}): RelayError {
  return new RelayError('invalid_arguments', `Cannot ${tool} @${ref}: ${reason}.`, {
    tool,
    phase: 'act',
    details: { field: 'ref', ref, tab: tabId, reason, ...extra },
  });
}

/** Pure: the frames from `frameId` up to (not including) the main frame, innermost first, each with its parent. */
export function frameChain(frames: readonly FrameInfo[], frameId: string): { child: FrameInfo; parent: FrameInfo }[] | undefined {
  const byId = new Map(frames.map((frame) => [frame.frameId, frame]));
  const chain: { child: FrameInfo; parent: FrameInfo }[] = [];
  let child = byId.get(frameId);
  while (child?.parentId !== undefined) {
    const parent = byId.get(child.parentId);
    if (parent === undefined || chain.length > frames.length) return undefined;
    chain.push({ child, parent });
    child = parent;
  }
  return child === undefined ? undefined : chain;
}

/**
 * Focus the ref's element in its page (the seam for `type -s @ref`: focus, then type with the
 * same trusted keyboard code). Throws the closed error when it cannot.
 */
export async function focusRef(
  ctx: RefContext,
  ref: string,
  tool: ToolName,
): Promise<{ tabId: number; healed: boolean }> {
  const site = await openRef(ctx, ref);
  const outcome = await readRef(ctx, site, tool, 'focus', { ref });
  return { tabId: site.tabId, healed: outcome.healed };
}
