/**
 * `snapshot`: the compact accessibility tree of a tab, every actionable element with a ref.
 *
 * The work happens next to the page (one Runtime.evaluate in our isolated world) because shipping
 * the full AX tree through chrome.debugger costs about a second on big pages. Order matters for
 * the ref invariant "one string, one element, forever":
 *   lock counter → page computes refs from the counter's next number (binds nothing yet)
 *   → store the advanced counter → store the tab's registry entry → page commits its bindings
 *   → unlock → reply.
 * A failure before the commit leaves the page answering to its previous refs only.
 */
import { reasonedError, RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { callTab } from '../context/call.js';
import type { PageNode, PageSnapshot, SnapshotArgs } from '../injected/types.js';
import { isCommandFailure } from '../cdp/failures.js';
import { callPage, DocumentChanged } from '../page/pageCall.js';
import type { FrameInfo } from '../page/frames.js';
import { isFrameGone } from '../page/frameGone.js';
import { frameSlotOf } from '../page/frameOwner.js';
import type { ScanSite } from '../page/listeners.js';
import { graftFrames, type FrameShot } from '../page/frameTree.js';
import { mainFrameDocument, type PageWorld } from '../page/worlds.js';
import type { RefSummary } from '../refs/registry.js';
import { framesAroundBlocked } from '../policy/frameBlocks.js';
import { blockedFrameError } from '../policy/policy.js';
import { selectorRefused } from '../page/selectorRefused.js';
import { defineTool } from './defineTool.js';
import type { ToolContext } from '../actions/toolContext.js';
import { shapeTree } from '../actions/snapshotShape.js';

/** The services this tool uses (tools/defineTool.ts). */
const USES = ['registry', 'counter', 'worlds', 'frames', 'snapshotLocks', 'snapshotHistory', 'scanListeners'] as const;
type UsedContext = ToolContext<(typeof USES)[number]>;

/** Every ref in the tree with its role and name (each ref sits on exactly one node). */
export function refsInTree(tree: readonly PageNode[]): RefSummary[] {
  const found: RefSummary[] = [];
  const visit = (nodes: readonly PageNode[]): void => {
    for (const node of nodes) {
      if (node.ref !== undefined) found.push({ ref: node.ref, role: node.role, name: node.name ?? '' });
      if (node.children !== undefined) visit(node.children);
    }
  };
  visit(tree);
  return found;
}

/** A frame left unread because it shows a blocked site, and the rule its iframe node names. */
interface BlockedFrame {
  frame: FrameInfo;
  rule: string;
}

interface FrameRun {
  frame: FrameInfo;
  world: PageWorld;
  page: PageSnapshot;
  /** The refs in the tree. */
  refs: RefSummary[];
  /** Refs the page keeps for hidden elements (not in the tree, still routed to this frame). */
  hidden: RefSummary[];
  slot?: number;
}

/** The frame a scope belongs to: a ref's own frame when the call resolved it live in this tab, else the main frame. */
function scopeFrameId(ctx: UsedContext, tabId: number, mainFrameId: string, scope: SnapshotArgs['scope']): string {
  if (scope === undefined || !('ref' in scope)) return mainFrameId;
  const found = ctx.refs.get(scope.ref);
  return found !== undefined && found.state === 'live' && found.tabId === tabId ? found.frame.frameId : mainFrameId;
}

/**
 * Snapshot one frame in its world. A child frame that navigates or goes away meanwhile is left out
 * (undefined); the main frame's DocumentChanged goes up (the caller retries the whole tab).
 */
async function snapshotFrame(ctx: UsedContext, tabId: number, frame: FrameInfo, args: SnapshotArgs, isMain: boolean): Promise<FrameRun | undefined> {
  try {
    const world = await ctx.worlds.ensure(ctx, tabId, frame);
    const page = await callPage(ctx, ctx.worlds, world, 'snapshot', args);
    // Refs are read before frames are grafted together, so each frame's refs are its own.
    const refs: RefSummary[] = page.refs?.map(([ref, role, name]) => ({ ref, role, name })) ?? refsInTree(page.tree);
    if (refs.length !== page.refCount) {
      throw new RelayError('internal_error', `The snapshot tree carries ${refs.length} refs but the page issued ${page.refCount}.`, {
        phase: 'act',
        details: { tab: tabId, frame: frame.frameId },
      });
    }
    const hidden: RefSummary[] = page.hidden?.map(([ref, role, name]) => ({ ref, role, name })) ?? [];
    if (!isMain) for (const record of [...refs, ...hidden]) record.frame = { frameId: frame.frameId, loaderId: frame.loaderId };
    return { frame, world, page, refs, hidden };
  } catch (error) {
    if (isMain) throw error;
    if (error instanceof DocumentChanged) return undefined;
    // A child session that ended mid-way (the OOPIF navigated or was removed).
    if (frame.sessionId !== undefined && isCommandFailure(error)) return undefined;
    // A same-process child frame that moved to another process (or went away) since the frame tree was read.
    if (isFrameGone(error)) return undefined;
    throw error;
  }
}

/**
 * One attempt against the documents the tab shows now (main frame and every iframe). Frames that show a site the
 * person blocked (FrameSessions.list marks them, and every frame inside them) are never entered: no world, no
 * listener read, no walk. Their <iframe> node in the parent's tree says so instead (`siteBlocked`, the rule). A
 * frame that navigated onto a blocked site after the list was read is caught by the URL its own walk reports, and
 * dropped with everything it produced before anything is committed or returned.
 */
async function snapshotDocument(ctx: UsedContext, tabId: number, scope: SnapshotArgs['scope'], maxText: number | undefined): Promise<PageSnapshot> {
  const main = await mainFrameDocument(ctx, tabId);
  const all = await ctx.frames.list(ctx, tabId);
  const listed = all.filter((frame) => frame.frameId !== main.frameId);
  const frames = listed.filter((frame) => frame.blocked === undefined);
  const blocked: BlockedFrame[] = listed.flatMap((frame) => (frame.blocked === undefined ? [] : [{ frame, rule: frame.blocked.rule }]));
  const scoped = scopeFrameId(ctx, tabId, main.frameId, scope);
  const scopeBlock = listed.find((frame) => frame.frameId === scoped)?.blocked;
  if (scopeBlock !== undefined && scope !== undefined && 'ref' in scope) throw blockedFrameError(tabId, scopeBlock, { ref: scope.ref, is: 'inside' });
  if (ctx.scanListeners !== undefined) await ctx.scanListeners(ctx, await scanSites(ctx, tabId, [{ ...main }, ...frames], framesAroundBlocked(all)));
  return ctx.counter.run(ctx.deadline, async (allocation) => {
    let nextRef = allocation.next;
    const runs: FrameRun[] = [];
    for (const frame of [{ ...main }, ...frames]) {
      const isMain = frame.frameId === main.frameId;
      const args: SnapshotArgs = { nextRef };
      if (maxText !== undefined) args.maxText = maxText;
      if (scope !== undefined && frame.frameId === scoped) args.scope = scope;
      const run = await snapshotFrame(ctx, tabId, frame, args, isMain);
      if (run === undefined) continue;
      const late = isMain ? undefined : await ctx.frames.blocking(run.page.url);
      if (late !== undefined) {
        // Its walk is never committed, and its refs numbers are handed to the next frame.
        blocked.push({ frame, rule: late.rule });
        continue;
      }
      if (run.page.scopeRefused !== undefined) throw selectorRefused('snapshot', 'scopeSelector', scope !== undefined && 'selector' in scope ? scope.selector : '', run.page.scopeRefused, { tab: tabId });
      if (run.page.scopeMissing !== undefined) {
        throw reasonedError('element_not_found', 'scope_missing', `Nothing to snapshot: ${run.page.scopeMissing}. Snapshot without --scope to see the page.`, {
          phase: 'resolve',
          details: { tab: tabId, scope },
        });
      }
      nextRef = run.page.nextRef;
      runs.push(run);
    }
    // Place each child frame under its iframe node; parents were listed (and snapshotted) first.
    const byFrame = new Map(runs.map((run) => [run.frame.frameId, run]));
    const slotIn = async (frame: FrameInfo): Promise<number | undefined> => {
      const parent = frame.parentId === undefined ? undefined : byFrame.get(frame.parentId);
      // Asked of the parent's document (DOM.getFrameOwner there): nothing of the child is touched.
      return parent === undefined ? undefined : frameSlotOf(ctx, parent.world, frame.frameId).catch(() => undefined);
    };
    for (const run of runs) {
      const slot = await slotIn(run.frame);
      if (slot !== undefined) run.slot = slot;
    }
    const root = runs.find((run) => run.frame.frameId === scoped) ?? runs[0];
    if (root === undefined) throw new RelayError('internal_error', 'The snapshot saw no main frame.', { phase: 'act', details: { tab: tabId } });
    const shots: FrameShot[] = runs.map((run) => {
      const shot: FrameShot = { frameId: run.frame.frameId, tree: run.page.tree };
      if (run.frame.parentId !== undefined) shot.parentId = run.frame.parentId;
      if (run.slot !== undefined) shot.slot = run.slot;
      return shot;
    });
    // A blocked frame's node is marked in its parent's tree (a frame inside a blocked one has no parent shown).
    for (const { frame, rule } of blocked) {
      const slot = await slotIn(frame);
      if (frame.parentId !== undefined && slot !== undefined) shots.push({ frameId: frame.frameId, parentId: frame.parentId, slot, tree: [], blocked: rule });
    }
    // The shown tree starts at the scope's frame; refs count for every frame the page shows.
    graftFrames([...shots.filter((shot) => shot.frameId === root.frame.frameId), ...shots.filter((shot) => shot.frameId !== root.frame.frameId)]);
    const reachable = graftReach(runs, main.frameId);
    const kept = runs.filter((run) => reachable.has(run.frame.frameId));
    await allocation.advanceTo(nextRef);
    const refs = kept.flatMap((run) => run.refs);
    await ctx.registry.replaceTab(tabId, main, [...refs, ...kept.flatMap((run) => run.hidden)]);
    for (const run of kept) {
      const isMain = run.frame.frameId === main.frameId;
      let committed: boolean;
      try {
        ({ committed } = await callPage(ctx, ctx.worlds, run.world, 'commit', { token: run.page.token }));
      } catch (error) {
        // A child frame replaced meanwhile: its refs die with it (openRef sees the new loader).
        if (!isMain && error instanceof DocumentChanged) continue;
        throw error;
      }
      if (!committed) {
        throw new RelayError('internal_error', 'The page did not accept the snapshot it had just produced.', { phase: 'act', details: { tab: tabId, frame: run.frame.frameId } });
      }
    }
    // Like a scoped page snapshot, refCount counts every ref issued, shown in the tree or not.
    return { ...root.page, nextRef, refCount: refs.length };
  });
}

/**
 * Our world in each (unblocked) frame, for the listener scan; a child frame gone meanwhile is left out (the snapshot
 * sees it too). `shallow`: the frames whose piercing read would reach a blocked frame in their process.
 */
async function scanSites(ctx: UsedContext, tabId: number, frames: readonly FrameInfo[], shallow: ReadonlySet<string>): Promise<ScanSite[]> {
  const sites: ScanSite[] = [];
  for (const frame of frames) {
    try {
      const world = await ctx.worlds.ensure(ctx, tabId, frame);
      sites.push({ world, frameId: frame.frameId, ...(frame.parentId === undefined ? {} : { parentId: frame.parentId }), ...(shallow.has(frame.frameId) ? { shallow: true } : {}) });
    } catch (error) {
      if (frame.parentId === undefined || !isCommandFailure(error)) throw error;
    }
  }
  return sites;
}

/** Frames reachable from the main frame through found slots (the ones whose refs the tab now holds). */
function graftReach(runs: readonly FrameRun[], mainFrameId: string): Set<string> {
  const reach = new Set<string>([mainFrameId]);
  for (const run of runs) {
    const parentId = run.frame.parentId;
    if (parentId !== undefined && run.slot !== undefined && reach.has(parentId)) reach.add(run.frame.frameId);
  }
  return reach;
}

function scopeOf(params: ToolParams<'snapshot'>): SnapshotArgs['scope'] {
  if (params.scopeRef !== undefined && params.scopeSelector !== undefined) {
    throw new RelayError('invalid_arguments', 'Invalid arguments for snapshot: give --scope once (a ref or a CSS selector).', {
      phase: 'validate',
      details: { field: 'scope' },
    });
  }
  if (params.scopeRef !== undefined) return { ref: params.scopeRef };
  if (params.scopeSelector !== undefined) return { selector: params.scopeSelector };
  return undefined;
}

/** The tab's documents, once more when it navigated meanwhile. */
async function snapshotTab(ctx: UsedContext, tabId: number, scope: SnapshotArgs['scope'], maxText: number | undefined): Promise<PageSnapshot> {
  try {
    return await snapshotDocument(ctx, tabId, scope, maxText);
  } catch (error) {
    if (!(error instanceof DocumentChanged)) throw error;
    // The tab navigated while we looked: its old refs are dead; snapshot the new document, once.
    await ctx.registry.markNavigated(tabId);
    try {
      return await snapshotDocument(ctx, tabId, scope, maxText);
    } catch (retryError) {
      if (!(retryError instanceof DocumentChanged)) throw retryError;
      throw reasonedError('timeout', 'navigating', `Tab ${tabId} kept navigating while the snapshot ran; wait for the page to settle (\`chrome-relay wait --load\`) and snapshot again.`, {
        phase: 'act',
        details: { tab: tabId },
      });
    }
  }
}

export const snapshotTool = defineTool({
  name: 'snapshot',
  uses: USES,
  async handle(params, ctx) {
    const scope = scopeOf(params);
    const tabId = callTab(ctx);
    const page = await ctx.snapshotLocks.run(tabId, ctx.deadline, () => snapshotTab(ctx, tabId, scope, params.maxText));
    const shape = { interactive: params.interactive === true, elide: params.noElide !== true, ...(params.depth === undefined ? {} : { depth: params.depth }) };
    const scopeKey = scope === undefined ? '' : JSON.stringify(scope);
    const previous = params.diff ? await ctx.snapshotHistory.previous(tabId, scopeKey) : undefined;
    await ctx.snapshotHistory.remember(tabId, scopeKey, page.tree);
    const result: ToolResult<'snapshot'> = { tabId, url: page.url, title: page.title, refCount: page.refCount, tree: shapeTree(page.tree, shape) };
    if (page.modal !== undefined) result.modal = page.modal;
    if (previous !== undefined) result.previous = previous === null ? null : shapeTree(previous, shape);
    return result;
  },
});

