/**
 * chrome-relay's isolated world in each tab's document: the page cannot see it, and nothing we do
 * there writes to the page's DOM or main world.
 *
 * The world is named `chrome-relay:<epoch>`. The epoch is random per extension instance and kept
 * in chrome.storage.session: it survives service-worker restarts and is cleared by an extension
 * reload, which therefore gets a fresh world where no old ref is known (old refs → stale).
 *
 * Verified in Chromium 156 through chrome.debugger (not assumed):
 * - Page.createIsolatedWorld with a name that already exists in the frame returns the SAME
 *   context (same id, our globals intact), also from a new debugger session after detach and
 *   re-attach. So after a worker restart, "create" finds the old world and its ref bindings; no
 *   Runtime.enable replay is needed (that works too: it reports name + auxData.frameId).
 * - The world outlives the debugger session that created it; context ids stay valid across
 *   sessions; pushState/replaceState/hash changes keep the context and the loaderId.
 * - A cross-document navigation destroys it: Runtime.evaluate then fails with "Cannot find
 *   context with specified id".
 *
 * Only the main frame for now; PageWorld carries frameId so frames (and OOPIF sessions) can come
 * later without changing callers.
 */
import type { ToolContext } from '../tools/defineTool.js';
import type { KeyValueStore } from '../refs/persist.js';
import { chromeSessionStore } from '../refs/persist.js';

const EPOCH_KEY = 'worldEpoch';
const WORLD_PREFIX = 'chrome-relay:';

export interface FrameDocument {
  frameId: string;
  loaderId: string;
}

export interface FrameState extends FrameDocument {
  /** The document's URL as the renderer has it (chrome.tabs' url can lag behind a fresh commit). */
  url: string;
}

export interface PageWorld extends FrameDocument {
  tabId: number;
  contextId: number;
}

/** The main frame's id, the loader of the document it currently shows, and its URL. */
export async function mainFrameDocument(ctx: Pick<ToolContext, 'cdp'>, tabId: number): Promise<FrameState> {
  const { frame } = (await ctx.cdp.send(tabId, 'Page.getFrameTree')).frameTree;
  return { frameId: frame.id, loaderId: frame.loaderId, url: frame.url + (frame.urlFragment ?? '') };
}

function randomEpoch(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export class Worlds {
  readonly #store: KeyValueStore;
  #name: Promise<string> | undefined;
  /** Per tab: the world of the document we last used (memory only; re-created cheaply, see above). */
  readonly #byTab = new Map<number, PageWorld>();

  constructor(store: KeyValueStore) {
    this.#store = store;
  }

  /** `chrome-relay:<epoch>`, the epoch created once per extension instance. */
  worldName(): Promise<string> {
    this.#name ??= this.#loadName().catch((error: unknown) => {
      this.#name = undefined;
      throw error;
    });
    return this.#name;
  }

  /** Our world in the document `frame` describes (from mainFrameDocument), created if missing. */
  async ensure(ctx: Pick<ToolContext, 'cdp'>, tabId: number, frame: FrameDocument): Promise<PageWorld> {
    const known = this.#byTab.get(tabId);
    if (known !== undefined && known.frameId === frame.frameId && known.loaderId === frame.loaderId) return known;
    const worldName = await this.worldName();
    const { executionContextId } = await ctx.cdp.send(tabId, 'Page.createIsolatedWorld', {
      frameId: frame.frameId,
      worldName,
      // The page script needs nothing beyond the page's own origin.
      grantUniveralAccess: false,
    });
    const world: PageWorld = { tabId, frameId: frame.frameId, loaderId: frame.loaderId, contextId: executionContextId };
    this.#byTab.set(tabId, world);
    return world;
  }

  /** Forget the cached context (it was destroyed, or the tab is gone). */
  forget(tabId: number): void {
    this.#byTab.delete(tabId);
  }

  async #loadName(): Promise<string> {
    const stored = (await this.#store.get([EPOCH_KEY]))[EPOCH_KEY];
    if (typeof stored === 'string' && /^[0-9a-f]{12}$/.test(stored)) return WORLD_PREFIX + stored;
    const epoch = randomEpoch();
    await this.#store.set({ [EPOCH_KEY]: epoch });
    return WORLD_PREFIX + epoch;
  }
}

export const worlds = new Worlds(chromeSessionStore);
