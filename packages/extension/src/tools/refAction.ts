/**
 * The common first half of every ref-addressed action: which tab the ref lives in (registry),
 * is that tab still showing the document the ref was issued for, and our world in it. Then page
 * calls that turn "the document changed under us" into stale_ref (reason navigated) and the
 * page's refusals into the closed codes, all in one place so every element tool says the same.
 */
import { RelayError, type ToolName } from '@chrome-relay/protocol';
import type { Interceptor, PageArgs, PageMethod, PageReturn, StaleReason } from '../injected/types.js';
import type { NavigationTiming } from '../page/navigation.js';
import { callPage, DocumentChanged } from '../page/pageCall.js';
import { mainFrameDocument, type FrameDocument, type PageWorld, type Worlds } from '../page/worlds.js';
import { resolveRefTarget, staleRefError } from '../refs/refTarget.js';
import type { RefRegistry } from '../refs/registry.js';
import type { ToolContext } from './defineTool.js';

export interface RefDeps {
  registry: RefRegistry;
  worlds: Worlds;
}

export interface ActionDeps extends RefDeps {
  navigation: NavigationTiming;
}

/** A ref's tab, the document it showed when the action began, and our world in it. */
export interface RefSite {
  ref: string;
  tabId: number;
  before: FrameDocument;
  world: PageWorld;
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
  const world = await deps.worlds.ensure(ctx, tabId, before);
  return { ref, tabId, before, world };
}

/** Call the page API for this site; a document swap mid-call is stale_ref (navigated). */
export async function callSite<M extends PageMethod>(ctx: ToolContext, deps: RefDeps, site: RefSite, method: M, args: PageArgs<M>): Promise<PageReturn<M>> {
  try {
    return await callPage(ctx, deps.worlds, site.world, method, args);
  } catch (error) {
    if (!(error instanceof DocumentChanged)) throw error;
    await deps.registry.markNavigated(site.tabId);
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
  const label = `<${who.tag}${who.id ? `#${who.id}` : ''}>${who.name ? ` "${who.name}"` : ''}${who.ref ? ` (@${who.ref})` : ''}`;
  const verb = tool === 'hover' ? 'Hover over' : tool === 'drag' ? 'Drag of' : 'Click on';
  return new RelayError(
    'click_intercepted',
    `${verb} @${ref} was not delivered: ${label} covers it at (${at.x}, ${at.y}). Dismiss or close that element, then try @${ref} again.`,
    { tool, phase: 'act', details: { ref, tab: tabId, interceptor: who, x: at.x, y: at.y, healed: at.healed } },
  );
}

export function notVisibleError(tool: ToolName, ref: string, tabId: number): RelayError {
  return new RelayError(
    'element_not_found',
    `Ref @${ref} names an element that is not visible now (hidden or zero-sized), so there is nothing to point at. Wait for it to appear, or snapshot again.`,
    { tool, phase: 'act', details: { ref, tab: tabId, reason: 'not_visible' } },
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

/**
 * Resolve, scroll into view and hit-test the ref's element in one page round trip; the point to
 * put the mouse at, or the closed error (stale, covered, not visible).
 */
export async function pointerTarget(ctx: ToolContext, deps: RefDeps, site: RefSite, tool: ToolName): Promise<{ x: number; y: number; healed: boolean }> {
  const outcome = unlessStale(site, await callSite(ctx, deps, site, 'prepareClick', { ref: site.ref }));
  switch (outcome.status) {
    case 'ok':
      return { x: outcome.x, y: outcome.y, healed: outcome.healed };
    case 'intercepted':
      throw interceptedError(tool, site.ref, site.tabId, outcome);
    case 'not_visible':
      throw notVisibleError(tool, site.ref, site.tabId);
  }
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
