/**
 * The common first half of every ref-addressed action: which tab the ref lives in (registry),
 * is that tab still showing the document the ref was issued for, and our world in it. Then page
 * calls that turn "the document changed under us" into stale_ref (reason navigated) and the
 * page's refusals into the closed codes, all in one place so every element tool says the same.
 */
import { reasonedError, RelayError, type ToolName } from '@chrome-relay/protocol';
import type { CdpTarget } from '../cdp/cdpSession.js';
import type { Interceptor, PageArgs, PageMethod, PageReturn, StaleReason } from '../injected/types.js';
import type { NavigationTiming } from '../page/navigation.js';
import { callPage, DocumentChanged } from '../page/pageCall.js';
import { frameSessions, type FrameInfo, type FrameSessions } from '../page/frames.js';
import { framePointIn } from '../page/frameOwner.js';
import { mainFrameDocument, type FrameDocument, type PageWorld, type Worlds } from '../page/worlds.js';
import { resolveRefTarget, staleRefError } from '../refs/refTarget.js';
import type { RefRegistry } from '../refs/registry.js';
import type { ToolContext } from './defineTool.js';

export interface RefDeps {
  registry: RefRegistry;
  worlds: Worlds;
  /** The tab's frames and their sessions (default: the worker's); only refs inside iframes use it. */
  frames?: Pick<FrameSessions, 'list'>;
}

export interface ActionDeps extends RefDeps {
  navigation: NavigationTiming;
}

/**
 * A ref's tab, the main frame's document when the action began, and our world in the ref's own
 * frame (the main frame's, or an iframe's; `world.frameId` says which).
 */
export interface RefSite {
  ref: string;
  tabId: number;
  before: FrameDocument;
  world: PageWorld;
}

function framesOf(deps: RefDeps): Pick<FrameSessions, 'list'> {
  return deps.frames ?? frameSessions;
}

/** Page domain on (navigation watch, file chooser events) and the main frame's document. */
export async function enablePage(ctx: ToolContext, tabId: number): Promise<FrameDocument> {
  // Enabling twice is harmless and cheap.
  const [frame] = await Promise.all([mainFrameDocument(ctx, tabId), ctx.cdp.send(tabId, 'Page.enable')]);
  return frame;
}

export async function openRef(ctx: ToolContext, deps: RefDeps, ref: string, requestedTab: number | undefined): Promise<RefSite> {
  const target = await resolveRefTarget(deps.registry, ctx.browser, ref, requestedTab);
  const { tabId } = target;
  const before = await enablePage(ctx, tabId);
  // The document the ref was issued in is gone, even if the new one has a look-alike element.
  if (before.frameId !== target.document.frameId || before.loaderId !== target.document.loaderId) {
    await deps.registry.markNavigated(tabId);
    throw staleRefError(ref, 'navigated', tabId);
  }
  if (target.frame.frameId === before.frameId) {
    const world = await deps.worlds.ensure(ctx, tabId, before);
    return { ref, tabId, before, world };
  }
  // A ref inside an iframe: that frame must still show the document the ref was issued in (only
  // this frame's refs die when it navigates; the rest of the tab's stay).
  const frame = (await framesOf(deps).list(ctx, tabId)).find((candidate) => candidate.frameId === target.frame.frameId);
  if (frame === undefined || frame.loaderId !== target.frame.loaderId) throw staleRefError(ref, 'navigated', tabId);
  const world = await deps.worlds.ensure(ctx, tabId, frame);
  return { ref, tabId, before, world };
}

/** Call the page API for this site; a document swap mid-call is stale_ref (navigated). */
export async function callSite<M extends PageMethod>(ctx: ToolContext, deps: RefDeps, site: RefSite, method: M, args: PageArgs<M>): Promise<PageReturn<M>> {
  try {
    return await callPage(ctx, deps.worlds, site.world, method, args);
  } catch (error) {
    if (!(error instanceof DocumentChanged)) throw error;
    // Only the main frame's new document kills the whole tab's refs.
    if (error.frameId === undefined || error.frameId === site.before.frameId) await deps.registry.markNavigated(site.tabId);
    throw staleRefError(site.ref, 'navigated', site.tabId);
  }
}

/** Throw stale_ref for a page outcome that says so; otherwise hand the outcome back narrowed. */
export function unlessStale<T extends { status: string }>(site: RefSite, outcome: T | { status: 'stale'; reason: StaleReason }): Exclude<T, { status: 'stale' }> {
  if (outcome.status === 'stale') throw staleRefError(site.ref, (outcome as { reason: StaleReason }).reason, site.tabId);
  return outcome as Exclude<T, { status: 'stale' }>;
}

export function interceptedError(tool: ToolName, ref: string, tabId: number, at: { x: number; y: number; healed: boolean; interceptor: Interceptor }): RelayError {
  const who = at.interceptor;
  // Id and name (and, rarely, the tag) are the page's own strings: quoted, so they cannot pose as the rest of the sentence.
  const tag = /^[a-z][a-z0-9-]*$/.test(who.tag) ? who.tag : JSON.stringify(who.tag);
  const label = `<${tag}${who.id ? ` id=${JSON.stringify(who.id)}` : ''}>${who.name ? ` ${JSON.stringify(who.name)}` : ''}${who.ref ? ` (@${who.ref})` : ''}`;
  const verb = tool === 'hover' ? 'Hover over' : tool === 'drag' ? 'Drag of' : 'Click on';
  return new RelayError(
    'click_intercepted',
    `${verb} @${ref} was not delivered: ${label} covers it at (${at.x}, ${at.y}). Dismiss or close that element, then try @${ref} again.`,
    { tool, phase: 'act', details: { ref, tab: tabId, interceptor: who, x: at.x, y: at.y, healed: at.healed } },
  );
}

export function notVisibleError(tool: ToolName, ref: string, tabId: number): RelayError {
  return reasonedError(
    'element_not_found',
    'not_visible',
    `Ref @${ref} names an element that is not visible now (hidden or zero-sized), so there is nothing to point at. Reveal it (scroll, expand, hover its menu) or wait for it, then retry.`,
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

/** Where mouse input for a point goes: the session of the widget that shows it, in that widget's CSS px. */
export interface PointerInput {
  target: number | CdpTarget;
  x: number;
  y: number;
}

/** A ref's point: x/y in the tab's top-level viewport (what results report), `input` for dispatching. */
export interface PointerPoint {
  x: number;
  y: number;
  healed: boolean;
  input: PointerInput;
}

/**
 * Resolve, scroll into view and hit-test the ref's element in one page round trip; the point to
 * put the mouse at, or the closed error (stale, covered, not visible).
 */
export async function pointerTarget(ctx: ToolContext, deps: RefDeps, site: RefSite, tool: ToolName): Promise<PointerPoint> {
  const outcome = unlessStale(site, await callSite(ctx, deps, site, 'prepareClick', { ref: site.ref }));
  switch (outcome.status) {
    case 'ok':
      if (site.world.frameId === site.before.frameId) return { x: outcome.x, y: outcome.y, healed: outcome.healed, input: { target: site.tabId, x: outcome.x, y: outcome.y } };
      return { ...(await toTopViewport(ctx, deps, site, tool, outcome)), healed: outcome.healed };
    case 'intercepted':
      throw interceptedError(tool, site.ref, site.tabId, outcome);
    case 'not_visible':
      throw notVisibleError(tool, site.ref, site.tabId);
  }
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
 * A point of an iframe's viewport, in the top-level viewport (reported to the agent) and in the
 * viewport of the widget that takes the input. Each ancestor adds its iframe's content-box
 * position, scrolls the iframe into view if needed, and proves that nothing of its own covers the
 * iframe at that point.
 *
 * Input for an out-of-process frame goes to its own session, in its own widget's coordinates.
 * Observed in Chromium 156 (background tab, headful): a click sent to the tab's session right
 * after the parent scrolled the OOPIF into view was delivered to the parent's <iframe> element,
 * not into the frame (the browser routes by what the compositor last drew, and a hidden tab does
 * not draw); a second click at the same point, with no scroll, landed. Same-process frames share
 * the tab's widget, so their input goes to the tab's session in top-level coordinates.
 */
async function toTopViewport(ctx: ToolContext, deps: RefDeps, site: RefSite, tool: ToolName, inner: { x: number; y: number; healed: boolean }): Promise<{ x: number; y: number; input: PointerInput }> {
  const chain = frameChain(await framesOf(deps).list(ctx, site.tabId), site.world.frameId);
  if (chain === undefined) throw staleRefError(site.ref, 'navigated', site.tabId);
  let point = { x: inner.x, y: inner.y };
  const local = site.world.sessionId;
  let input: PointerInput = local === undefined ? { target: site.tabId, x: point.x, y: point.y } : { target: { tabId: site.tabId, sessionId: local }, x: point.x, y: point.y };
  for (const { child, parent } of chain) {
    const parentWorld = await deps.worlds.ensure(ctx, site.tabId, parent);
    const mapped = await framePointIn(ctx, parentWorld, child.frameId, point.x, point.y);
    switch (mapped.status) {
      case 'ok':
        point = { x: mapped.x, y: mapped.y };
        // Still inside the widget of the ref's frame's process: its coordinates follow.
        if (parent.sessionId === local) input = { ...input, x: point.x, y: point.y };
        break;
      case 'intercepted':
        throw interceptedError(tool, site.ref, site.tabId, { x: mapped.x, y: mapped.y, healed: inner.healed, interceptor: mapped.interceptor });
      case 'not_visible':
        throw notVisibleError(tool, site.ref, site.tabId);
    }
  }
  return { x: point.x, y: point.y, input };
}

/**
 * Focus the ref's element in its page (the seam for `type -s @ref`: focus, then type with the
 * same trusted keyboard code). Throws the closed error when it cannot.
 */
export async function focusRef(
  ctx: ToolContext,
  deps: RefDeps,
  ref: string,
  requestedTab: number | undefined,
  tool: ToolName,
): Promise<{ tabId: number; healed: boolean }> {
  const site = await openRef(ctx, deps, ref, requestedTab);
  const outcome = unlessStale(site, await callSite(ctx, deps, site, 'focus', { ref }));
  if (outcome.status === 'refused') throw refusedError(tool, ref, site.tabId, outcome.reason);
  return { tabId: site.tabId, healed: outcome.healed };
}
