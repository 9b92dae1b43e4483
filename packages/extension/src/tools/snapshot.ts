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
import { RelayError } from '@chrome-relay/protocol';
import type { PageNode, PageSnapshot } from '../injected/types.js';
import { callPage, DocumentChanged } from '../page/pageCall.js';
import { mainFrameDocument, worlds as defaultWorlds, type Worlds } from '../page/worlds.js';
import type { RefCounter } from '../refs/counter.js';
import { refCounter, refRegistry } from '../refs/index.js';
import type { RefRegistry, RefSummary } from '../refs/registry.js';
import { resolveTab, setCurrentTab } from '../targets.js';
import { defineTool, type ToolContext } from './defineTool.js';

export interface SnapshotDeps {
  counter: RefCounter;
  registry: RefRegistry;
  worlds: Worlds;
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
async function snapshotDocument(ctx: ToolContext, deps: SnapshotDeps, tabId: number): Promise<PageSnapshot> {
  const frame = await mainFrameDocument(ctx, tabId);
  const world = await deps.worlds.ensure(ctx, tabId, frame);
  return deps.counter.run(ctx.deadline, async (allocation) => {
    const page = await callPage(ctx, deps.worlds, world, 'snapshot', { nextRef: allocation.next });
    await allocation.advanceTo(page.nextRef);
    const refs = refsInTree(page.tree);
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

export function createSnapshotTool(deps: SnapshotDeps) {
  return defineTool({
    name: 'snapshot',
    async handle(params, ctx) {
      const tabId = await resolveTab(params.tab, ctx);
      let page: PageSnapshot;
      try {
        page = await snapshotDocument(ctx, deps, tabId);
      } catch (error) {
        if (!(error instanceof DocumentChanged)) throw error;
        // The tab navigated while we looked: its old refs are dead; snapshot the new document, once.
        await deps.registry.markNavigated(tabId);
        try {
          page = await snapshotDocument(ctx, deps, tabId);
        } catch (retryError) {
          if (!(retryError instanceof DocumentChanged)) throw retryError;
          throw new RelayError('timeout', `Tab ${tabId} kept navigating while the snapshot ran; wait for the page to settle and snapshot again.`, {
            phase: 'act',
            details: { tab: tabId },
          });
        }
      }
      await setCurrentTab(tabId, ctx.browser);
      return { tabId, url: page.url, title: page.title, refCount: page.refCount, tree: page.tree };
    },
  });
}

export const snapshotTool = createSnapshotTool({ counter: refCounter, registry: refRegistry, worlds: defaultWorlds });
