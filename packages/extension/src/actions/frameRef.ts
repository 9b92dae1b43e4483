/**
 * `--frame @ref` for the readers (`get`, `wait`, `js`): the ref of an <iframe> from a snapshot names the document
 * inside it, same-origin or cross-origin (out-of-process). The ref is verified like any other (stale_ref when the
 * iframe is gone), then the frame it shows is found by the id DOM.describeNode reports for the element.
 *
 * Agent code (`js`, `wait --fn`) runs in that frame's main world. An out-of-process frame is the top frame of its
 * own session: its default context is that world. A same-process frame has no session of its own, and CDP only
 * names its main world in Runtime.executionContextCreated events (which a second Runtime.enable does not repeat,
 * and observe/captures.ts enables Runtime on attach). So the frame's document is resolved into its main world
 * (DOM.resolveNode without a context resolves there) and the context id is read from the returned object id,
 * which V8 writes as `<isolate>.<context>.<object>` (v8/src/inspector/remote-object-id.cc); `contextIdOf` checks
 * that shape and refuses anything else.
 */
import { reasonedError, RelayError, toolLabel, type ToolName } from '@chrome-relay/protocol';
import type { CdpTarget } from '../cdp/cdpSession.js';
import { worldTarget, type FrameSite } from '../page/worlds.js';
import type { MainWorldSite } from '../pageState/mainWorld.js';
import type { RefContext } from './toolContext.js';
import { frameShownBy, openRef } from './refAction.js';
const GROUP = 'chrome-relay-frame-ref';

export interface FrameRefTarget {
  tabId: number;
  /** Where reads of the page API run (page/pageCall.ts callRead): the frame's document. */
  reads: { tabId: number; frame: FrameSite };
  /** Where agent code runs. */
  main: MainWorldSite;
}

/** Pure: the execution context id inside a V8 remote object id, or undefined when it is not in the known shape. */
export function contextIdOf(objectId: string): number | undefined {
  const match = /^-?\d+\.(\d+)\.\d+$/.exec(objectId);
  const id = match?.[1] === undefined ? NaN : Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function notAFrame(tool: ToolName, ref: string, tabId: number): RelayError {
  return new RelayError('invalid_arguments', `Invalid arguments for ${toolLabel(tool)}: --frame @${ref} is not an <iframe>; give the ref of the iframe (its line in the snapshot reads \`iframe … [ref=eN]\`).`, {
    tool,
    phase: 'resolve',
    details: { field: 'frame', ref, tab: tabId },
  });
}

/**
 * The frame an iframe ref shows, or the closed error (stale ref, not an iframe, nothing loaded in it, or a site the
 * person blocked: frameShownBy refuses that, whether openRef asked it already or it is asked here).
 */
export async function resolveFrameRef(ctx: RefContext, tool: ToolName, ref: string): Promise<FrameRefTarget> {
  const site = await openRef(ctx, ref);
  const { node, frame } = site.shows ?? (await frameShownBy(ctx, site));
  if (node.frameId === undefined) throw notAFrame(tool, ref, site.tabId);
  if (frame === undefined) {
    throw reasonedError('element_not_found', 'no_match', `The iframe @${ref} shows no document chrome-relay can reach yet (it may still be loading); \`chrome-relay wait\` a moment, or check it in a fresh \`chrome-relay snapshot\`, then retry.`, {
      tool,
      phase: 'resolve',
      details: { frame: ref, tab: site.tabId },
    });
  }
  const reads = { tabId: site.tabId, frame: { frameId: frame.frameId, loaderId: frame.loaderId, ...(frame.sessionId === undefined ? {} : { sessionId: frame.sessionId }) } };
  const documentNode = node.contentDocument?.backendNodeId;
  if (documentNode === undefined) {
    // Out of process: the frame is the top of its own session, whose default context is its main world.
    if (frame.sessionId === undefined || frame.sessionId === site.world.sessionId) throw reasonedError('element_not_found', 'no_match', `The iframe @${ref} has no document yet (it may still be loading); \`chrome-relay wait\` a moment, or check it in a fresh \`chrome-relay snapshot\`, then retry.`, { tool, phase: 'resolve', details: { frame: ref, tab: site.tabId } });
    const own: CdpTarget = { tabId: site.tabId, sessionId: frame.sessionId };
    return { tabId: site.tabId, reads, main: { target: own } };
  }
  const parent = worldTarget(site.world);
  try {
    const { object } = await ctx.cdp.send(parent, 'DOM.resolveNode', { backendNodeId: documentNode, objectGroup: GROUP });
    const contextId = object.objectId === undefined ? undefined : contextIdOf(object.objectId);
    if (contextId === undefined) {
      throw new RelayError('internal_error', `Could not find the main world of the frame in @${ref} (unexpected object id shape).`, { tool, phase: 'resolve', details: { frame: ref } });
    }
    return { tabId: site.tabId, reads, main: { target: parent, contextId } };
  } finally {
    ctx.cdp.send(parent, 'Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => undefined);
  }
}
