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
import { RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import type { PageNode, PageSnapshot, SnapshotArgs } from '../injected/types.js';
import { callPage, DocumentChanged } from '../page/pageCall.js';
import { mainFrameDocument, worlds as defaultWorlds, type Worlds } from '../page/worlds.js';
import type { RefCounter } from '../refs/counter.js';
import { refCounter, refRegistry } from '../refs/index.js';
import { chromeSessionStore } from '../refs/persist.js';
import type { RefRegistry, RefSummary } from '../refs/registry.js';
import { resolveTab, setCurrentTab } from '../targets.js';
import { defineTool, type ToolContext } from './defineTool.js';
import { SnapshotHistory } from './snapshotHistory.js';
import { shapeTree } from './snapshotShape.js';

export interface SnapshotDeps {
  counter: RefCounter;
  registry: RefRegistry;
  worlds: Worlds;
  history: SnapshotHistory;
}

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

/** One attempt against the document the tab shows now. */
async function snapshotDocument(ctx: ToolContext, deps: SnapshotDeps, tabId: number, scope: SnapshotArgs['scope']): Promise<PageSnapshot> {
  const frame = await mainFrameDocument(ctx, tabId);
  const world = await deps.worlds.ensure(ctx, tabId, frame);
  return deps.counter.run(ctx.deadline, async (allocation) => {
    const args: SnapshotArgs = { nextRef: allocation.next };
    if (scope !== undefined) args.scope = scope;
    const page = await callPage(ctx, deps.worlds, world, 'snapshot', args);
    if (page.scopeMissing !== undefined) {
      throw new RelayError('element_not_found', `Nothing to snapshot: ${page.scopeMissing}. Snapshot without --scope to see the page.`, {
        phase: 'resolve',
        details: { tab: tabId, scope },
      });
    }
    await allocation.advanceTo(page.nextRef);
    const refs = page.refs?.map(([ref, role, name]) => ({ ref, role, name })) ?? refsInTree(page.tree);
    if (refs.length !== page.refCount) {
      throw new RelayError('internal_error', `The snapshot tree carries ${refs.length} refs but the page issued ${page.refCount}.`, {
        phase: 'act',
        details: { tab: tabId },
      });
    }
    await deps.registry.replaceTab(tabId, frame, refs);
    const { committed } = await callPage(ctx, deps.worlds, world, 'commit', { token: page.token });
    if (!committed) {
      throw new RelayError('internal_error', 'The page did not accept the snapshot it had just produced.', { phase: 'act', details: { tab: tabId } });
    }
    return page;
  });
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

export function createSnapshotTool(deps: SnapshotDeps) {
  return defineTool({
    name: 'snapshot',
    async handle(params, ctx) {
      const scope = scopeOf(params);
      const tabId = await resolveTab(params.tab, ctx);
      let page: PageSnapshot;
      try {
        page = await snapshotDocument(ctx, deps, tabId, scope);
      } catch (error) {
        if (!(error instanceof DocumentChanged)) throw error;
        // The tab navigated while we looked: its old refs are dead; snapshot the new document, once.
        await deps.registry.markNavigated(tabId);
        try {
          page = await snapshotDocument(ctx, deps, tabId, scope);
        } catch (retryError) {
          if (!(retryError instanceof DocumentChanged)) throw retryError;
          throw new RelayError('timeout', `Tab ${tabId} kept navigating while the snapshot ran; wait for the page to settle and snapshot again.`, {
            phase: 'act',
            details: { tab: tabId },
          });
        }
      }
      await setCurrentTab(tabId, ctx.browser);
      const shape = { interactive: params.interactive === true, elide: params.noElide !== true, ...(params.depth === undefined ? {} : { depth: params.depth }) };
      const scopeKey = scope === undefined ? '' : JSON.stringify(scope);
      const previous = params.diff ? await deps.history.previous(tabId, scopeKey) : undefined;
      await deps.history.remember(tabId, scopeKey, page.tree);
      const result: ToolResult<'snapshot'> = { tabId, url: page.url, title: page.title, refCount: page.refCount, tree: shapeTree(page.tree, shape) };
      if (previous !== undefined) result.previous = previous === null ? null : shapeTree(previous, shape);
      return result;
    },
  });
}

export const snapshotTool = createSnapshotTool({
  counter: refCounter,
  registry: refRegistry,
  worlds: defaultWorlds,
  history: new SnapshotHistory(chromeSessionStore),
});
