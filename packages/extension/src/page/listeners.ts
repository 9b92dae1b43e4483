/**
 * Elements a person acts on that only a page listener reveals: a todo label edited on double-click, a drop zone,
 * a `<div>` with a click handler and no pointer cursor. Page JavaScript cannot list listeners; CDP can:
 * DOMDebugger.getEventListeners on the document, the whole subtree, `pierce` (which also reports listeners of every
 * world, the page's main world included, and enters shadow roots). Each element found is resolved into our isolated
 * world (DOM.resolveNode) and handed to the page script (injected/listenerHints.ts) before the walk; the script
 * keeps them by backend node id, so a later read resolves only the elements it does not hold yet.
 *
 * Why not a hook in the page's main world (patching addEventListener at document start): it would run page-visible
 * code we do not own, the page could read or forge its record, and it misses documents loaded before it. Reading
 * over CDP touches nothing the page can see.
 *
 * Cost, measured (direct CDP, 2 cores): the listener read is ~2 ms on a page with a few hundred listeners and
 * ~20 ms with 2,000; resolving costs ~0.3 ms per element, so the elements passed are bounded (MAX_ELEMENTS), and
 * click-type listeners (most often on buttons and links, which have refs anyway) only count on pages with few of
 * them. Listeners on an element that handles many event types are a framework's delegation root (React's root,
 * jQuery's document handlers), not a target: skipped. Delegated handlers are therefore not seen; a row holding
 * controls still gets its own ref when they show on hover (walker.ts).
 *
 * What runs in the page is the page API's, called through the one page-call path (page/pageCall.ts): the state read
 * (listenerScanState, which also counts the inline handlers when a read is due), the document's handle (documentNode)
 * and the hand-over (noteListeners). A fresh document's first call carries the page script with it, so it gets the
 * script and the state in one evaluation, and the snapshot's own calls in that world then know its stamp.
 *
 * Inline handlers (`<button onclick="…">`) are listeners too, and the walker already sees them by their attribute.
 * When every element the read reports with a click-type listener is one of those, resolving them would bring
 * nothing the walk lacks: 200 inline `onclick` rows cost ~56 ms of a first snapshot's ~340 ms. The read gives no
 * way to tell an inline handler from an added one, so it is told by count: each element with such an attribute
 * has that listener, so when the document holds as many of them as the read reports elements with click-type
 * listeners, they are the same elements (pickListenerNodes). Any other count, a shadow root's included, resolves
 * them all as before.
 */
import type Protocol from 'devtools-protocol';
import { isCommandFailure } from '../cdp/failures.js';
import { CLICK_LISTENER_TYPES } from '../injected/listenerHints.js';
import type { ListenerScanState } from '../injected/types.js';
import type { CallContext } from '../context/call.js';
import { callPageIfThere, callPageWithElements, DocumentChanged, pageDocumentHandle } from './pageCall.js';
import { worldTarget, type PageWorld } from './worlds.js';

/** Listener types of actions a person performs on the element itself. */
const DIRECT_TYPES = new Set(['dblclick', 'dragstart', 'dragenter', 'dragover', 'drop']);
const CLICK_TYPES = new Set(CLICK_LISTENER_TYPES);
/** An element listening for this many event types delegates for its descendants. */
export const DELEGATION_TYPES = 8;
/** Elements resolved into our world per document, at most. */
export const MAX_ELEMENTS = 300;

const GROUP = 'chrome-relay-listeners';

/**
 * Pure: the backend node ids to hint, in document order of first appearance. Direct-action listeners first; click
 * listeners only when all of them fit within MAX_ELEMENTS, and not when they are all inline handlers: when
 * `inlineClicks` (the elements of the document with an inline click-type handler attribute, listenerHints.ts
 * INLINE_CLICK_SELECTOR) equals the number of elements with a click-type listener.
 */
export function pickListenerNodes(listeners: readonly Pick<Protocol.DOMDebugger.EventListener, 'type' | 'backendNodeId'>[], inlineClicks = -1): number[] {
  const types = new Map<number, Set<string>>();
  for (const listener of listeners) {
    if (listener.backendNodeId === undefined) continue;
    let set = types.get(listener.backendNodeId);
    if (set === undefined) types.set(listener.backendNodeId, (set = new Set()));
    set.add(listener.type);
  }
  const direct: number[] = [];
  const clicks: number[] = [];
  let clickElements = 0;
  for (const [node, set] of types) {
    const clicked = [...set].some((type) => CLICK_TYPES.has(type));
    if (clicked) clickElements++;
    if (set.size >= DELEGATION_TYPES) continue;
    if ([...set].some((type) => DIRECT_TYPES.has(type))) direct.push(node);
    else if (clicked) clicks.push(node);
  }
  const picked = direct.slice(0, MAX_ELEMENTS);
  if (clickElements === inlineClicks) return picked;
  return picked.length + clicks.length <= MAX_ELEMENTS ? [...picked, ...clicks] : picked;
}

/** One frame's document and our world in it. */
export interface ScanSite {
  world: PageWorld;
  frameId: string;
  parentId?: string;
  /**
   * Read this document alone, not its same-process child frames and shadow roots (no `pierce`): one of those frames
   * shows a site the person blocked, and a node of it reported here would be resolved into a world made inside it.
   * Listeners inside this document's shadow roots then go unseen.
   */
  shallow?: true;
}

type Listener = Pick<Protocol.DOMDebugger.EventListener, 'type' | 'backendNodeId'>;

/**
 * Pure: each frame's own listeners. `pierce` also reports the listeners of same-process child frames, and a node
 * must only ever be resolved in the world of its own document (resolving it in a parent's world makes the browser
 * create that world in the child frame, beside ours). Backend node ids are unique per session, so a node reported
 * by several frames of one session belongs to the deepest of them.
 */
export function ownListeners(sites: readonly ScanSite[], reported: ReadonlyMap<string, readonly Listener[]>): Map<string, Listener[]> {
  const byId = new Map(sites.map((site) => [site.frameId, site]));
  const depth = (site: ScanSite): number => {
    let levels = 0;
    for (let parent = site.parentId; parent !== undefined && levels <= sites.length; parent = byId.get(parent)?.parentId) levels++;
    return levels;
  };
  const owner = new Map<string, { frameId: string; depth: number }>();
  for (const site of sites) {
    const level = depth(site);
    for (const listener of reported.get(site.frameId) ?? []) {
      if (listener.backendNodeId === undefined) continue;
      const node = `${site.world.sessionId ?? ''}:${listener.backendNodeId}`;
      const known = owner.get(node);
      if (known === undefined || known.depth < level) owner.set(node, { frameId: site.frameId, depth: level });
    }
  }
  const own = new Map<string, Listener[]>();
  for (const site of sites) {
    own.set(
      site.frameId,
      (reported.get(site.frameId) ?? []).filter((listener) => listener.backendNodeId !== undefined && owner.get(`${site.world.sessionId ?? ''}:${listener.backendNodeId}`)?.frameId === site.frameId),
    );
  }
  return own;
}

/**
 * The read is made on the page's own (main-world) document, never on an isolated world's. Observed in Chromium 156:
 * getEventListeners with `pierce` on an isolated world's document leaves wrappers behind that the renderer's
 * young-generation GC trips over: the tab crashes (SIGSEGV) within a few reads once the page allocates, and every
 * later call times out as "page busy". The same read on the main world's document never did (thousands of reads).
 * Reaching that document resolves its node into the main world by id, which runs nothing in the page: our world's
 * document (the page API's documentNode) gives the node id.
 */
async function readListeners(ctx: Pick<CallContext, 'cdp'>, { world, shallow }: ScanSite): Promise<Listener[]> {
  const target = worldTarget(world);
  const ourId = await pageDocumentHandle(ctx, world, GROUP);
  if (ourId === undefined) return [];
  const { backendNodeId } = (await ctx.cdp.send(target, 'DOM.describeNode', { objectId: ourId })).node;
  // No execution context: the node's frame's main world. No object group: getEventListeners wraps every handler
  // (twice: handler and originalHandler, with its source text as description) into the group of the object it is
  // called on, and with none it wraps nothing. Measured on 1,500 listeners: 208 KB instead of 676 KB, and through
  // chrome.debugger the bytes are most of the read's cost.
  const { object } = await ctx.cdp.send(target, 'DOM.resolveNode', { backendNodeId });
  const objectId = object.objectId;
  if (objectId === undefined) return [];
  try {
    const { listeners } = await ctx.cdp.send(target, 'DOMDebugger.getEventListeners', { objectId, depth: -1, pierce: shallow !== true });
    return listeners;
  } finally {
    ctx.cdp.send(target, 'Runtime.releaseObject', { objectId }).catch(() => undefined);
  }
}

/**
 * Pure: which picked nodes the frame's world already holds (no resolve needed) and which must be resolved.
 */
export function splitKnown(nodes: readonly number[], known: ReadonlySet<number>): { reused: number[]; fresh: number[] } {
  const reused: number[] = [];
  const fresh: number[] = [];
  for (const node of nodes) (known.has(node) ? reused : fresh).push(node);
  return { reused, fresh };
}

/**
 * Hand the picked nodes to the frame's page script (replacing the last set): the ones it already holds by id, the
 * others resolved into its world. Nothing where the world's id names another context now (pageCall.ts: its elements
 * are not ours to hand over; the snapshot's own call reports the change).
 */
async function note(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, nodes: readonly number[], known: ReadonlySet<number>): Promise<void> {
  const target = worldTarget(world);
  const split = splitKnown(nodes, known);
  const resolved = await Promise.all(
    split.fresh.map((backendNodeId) =>
      ctx.cdp
        .send(target, 'DOM.resolveNode', { backendNodeId, executionContextId: world.contextId, objectGroup: GROUP })
        .then((reply) => ({ backendNodeId, objectId: reply.object.objectId }))
        // Gone since the read: nothing to hint.
        .catch(() => undefined),
    ),
  );
  const fresh = resolved.filter((entry): entry is { backendNodeId: number; objectId: string } => entry?.objectId !== undefined);
  await callPageWithElements(ctx, world, 'noteListeners', [split.reused, fresh.map((entry) => entry.backendNodeId)], fresh.map(({ objectId }) => objectId));
}

/**
 * A frame the scan skips: CDP failed there, or its document was replaced meanwhile (an ad frame that reloads). The
 * snapshot's own page calls report what that means; the scan must not read it as the tab navigating.
 */
const skipsFrame = (error: unknown): boolean => isCommandFailure(error) || error instanceof DocumentChanged;

/**
 * Whether the frame's page script wants a fresh read (a fresh document, or elements came or went since), what it
 * holds, and its inline click handlers; undefined for a frame to skip (gone, or not the world's).
 */
async function scanState(ctx: Pick<CallContext, 'cdp' | 'deadline'>, world: PageWorld): Promise<ListenerScanState | undefined> {
  try {
    return await callPageIfThere(ctx, world, 'listenerScanState', undefined);
  } catch (error) {
    if (!skipsFrame(error)) throw error;
    return undefined;
  }
}

/**
 * Give the page script of each frame the elements of its document with such listeners. Best effort: a frame that
 * goes away meanwhile is the snapshot's business (its own page call reports it), so CDP failures skip that frame.
 */
export async function scanListeners(ctx: Pick<CallContext, 'cdp' | 'deadline'>, allSites: readonly ScanSite[]): Promise<void> {
  const reported = new Map<string, Listener[]>();
  const read: ScanSite[] = [];
  // A frame's own set stays valid while no element came or went in it (listenerHints.ts). A parent's read also
  // reports its same-process children's nodes, which only their own reads can take back from it (ownListeners):
  // so with a parent, its same-process children are read again too. (Sites come parents first.)
  const stale = new Set<string>();
  const states = new Map<string, ListenerScanState>();
  for (const site of allSites) {
    const parent = allSites.find((candidate) => candidate.frameId === site.parentId);
    const withParent = parent !== undefined && stale.has(parent.frameId) && parent.world.sessionId === site.world.sessionId;
    const state = await scanState(ctx, site.world);
    if (state === undefined) continue;
    states.set(site.frameId, state);
    if (withParent || state.stale) stale.add(site.frameId);
  }
  const sites = allSites.filter((site) => stale.has(site.frameId));
  if (sites.length === 0) return;
  try {
    for (const site of sites) {
      try {
        reported.set(site.frameId, await readListeners(ctx, site));
        read.push(site);
      } catch (error) {
        if (!skipsFrame(error)) throw error;
      }
    }
    const own = ownListeners(read, reported);
    for (const site of read) {
      const state = states.get(site.frameId);
      const picked = pickListenerNodes(own.get(site.frameId) ?? [], state?.inlineClicks);
      await note(ctx, site.world, picked, new Set(state?.known)).catch((error: unknown) => {
        if (!skipsFrame(error)) throw error;
      });
    }
  } finally {
    for (const site of sites) ctx.cdp.send(worldTarget(site.world), 'Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => undefined);
  }
}
