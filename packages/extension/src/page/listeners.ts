/**
 * Elements a person acts on that only a page listener reveals: a todo label edited on double-click, a drop zone,
 * a `<div>` with a click handler and no pointer cursor. Page JavaScript cannot list listeners; CDP can:
 * DOMDebugger.getEventListeners on the document, the whole subtree, `pierce` (which also reports listeners of every
 * world, the page's main world included, and enters shadow roots). Each element found is resolved into our isolated
 * world (DOM.resolveNode) and handed to the page script (injected/listenerHints.ts) before the walk.
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
 */
import { RelayError } from '@chrome-relay/protocol';
import type Protocol from 'devtools-protocol';
import type { ToolContext } from '../tools/defineTool.js';
import { installPageScript } from './pageCall.js';
import { worldTarget, type PageWorld } from './worlds.js';

/** Listener types of actions a person performs on the element itself. */
const DIRECT_TYPES = new Set(['dblclick', 'dragstart', 'dragenter', 'dragover', 'drop']);
const CLICK_TYPES = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'contextmenu']);
/** An element listening for this many event types delegates for its descendants. */
export const DELEGATION_TYPES = 8;
/** Elements resolved into our world per document, at most. */
export const MAX_ELEMENTS = 300;

const GROUP = 'chrome-relay-listeners';

/**
 * Pure: the backend node ids to hint, in document order of first appearance. Direct-action listeners first; click
 * listeners only when all of them fit within MAX_ELEMENTS.
 */
export function pickListenerNodes(listeners: readonly Pick<Protocol.DOMDebugger.EventListener, 'type' | 'backendNodeId'>[]): number[] {
  const types = new Map<number, Set<string>>();
  for (const listener of listeners) {
    if (listener.backendNodeId === undefined) continue;
    let set = types.get(listener.backendNodeId);
    if (set === undefined) types.set(listener.backendNodeId, (set = new Set()));
    set.add(listener.type);
  }
  const direct: number[] = [];
  const clicks: number[] = [];
  for (const [node, set] of types) {
    if (set.size >= DELEGATION_TYPES) continue;
    if ([...set].some((type) => DIRECT_TYPES.has(type))) direct.push(node);
    else if ([...set].some((type) => CLICK_TYPES.has(type))) clicks.push(node);
  }
  const picked = direct.slice(0, MAX_ELEMENTS);
  return picked.length + clicks.length <= MAX_ELEMENTS ? [...picked, ...clicks] : picked;
}

const NOTE = 'function (...elements) { const api = globalThis.__chromeRelay; return api === undefined ? -1 : api.noteListeners(elements); }';

/**
 * Give the page script of `world` the elements with such listeners (replacing the last set). Best effort: a frame
 * that goes away meanwhile is the snapshot's business (its own call reports it), so CDP failures end the scan.
 */
export async function scanListeners(ctx: Pick<ToolContext, 'cdp'>, world: PageWorld): Promise<void> {
  const target = worldTarget(world);
  try {
    const doc = await ctx.cdp.send(target, 'Runtime.evaluate', { expression: 'document', contextId: world.contextId, objectGroup: GROUP, silent: true });
    const documentId = doc.result.objectId;
    if (documentId === undefined) return;
    const { listeners } = await ctx.cdp.send(target, 'DOMDebugger.getEventListeners', { objectId: documentId, depth: -1, pierce: true });
    const nodes = pickListenerNodes(listeners);
    const resolved = await Promise.all(
      nodes.map((backendNodeId) =>
        ctx.cdp
          .send(target, 'DOM.resolveNode', { backendNodeId, executionContextId: world.contextId, objectGroup: GROUP })
          .then((reply) => reply.object.objectId)
          // A node of another document (pierce enters same-process iframes) does not resolve here.
          .catch(() => undefined),
      ),
    );
    const args = resolved.filter((id): id is string => id !== undefined).map((objectId) => ({ objectId }));
    const note = () => ctx.cdp.send(target, 'Runtime.callFunctionOn', { objectId: documentId, functionDeclaration: NOTE, arguments: args, returnByValue: true, silent: true });
    if ((await note()).result.value === -1) {
      await installPageScript(ctx, world);
      await note();
    }
  } catch (error) {
    if (!(error instanceof RelayError) || error.code !== 'cdp_error') throw error;
  } finally {
    ctx.cdp.send(target, 'Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => undefined);
  }
}
