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
 * One world per frame: a child frame gets its own (same name, created with its frameId), on the
 * session that owns the frame (the tab's for same-process frames, a flattened child session for an
 * out-of-process iframe, see frames.ts).
 */
import type { CdpTarget } from '../cdp/cdpSession.js';
import type { SiteBlock } from '../policy/frameBlocks.js';
import { blockedFrameError } from '../policy/policy.js';
import type { CallContext } from '../context/call.js';
import type { KeyValueStore } from '../refs/persist.js';

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

/** A frame's document and, for an out-of-process iframe, the child session that owns it. */
export interface FrameSite extends FrameDocument {
  /** Absent for frames the tab's own session owns (the main frame and same-process iframes). */
  sessionId?: string;
}

export interface PageWorld extends FrameSite {
  tabId: number;
  /** Names the context only within the renderer process that made it: calls also check `stamp` (page/pageCall.ts). */
  contextId: number;
  /** The page script's stamp in this world, learnt from the first call that reaches it. */
  stamp?: string;
}

/** Where CDP commands for this world's frame go. */
export function worldTarget(world: Pick<PageWorld, 'tabId' | 'sessionId'>): CdpTarget {
  return world.sessionId === undefined ? { tabId: world.tabId } : { tabId: world.tabId, sessionId: world.sessionId };
}

/** The main frame's id, the loader of the document it currently shows, and its URL. */
export async function mainFrameDocument(ctx: Pick<CallContext, 'cdp'>, tabId: number): Promise<FrameState> {
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
  /** Per tab, per frame: the world of the document we last used (memory only; re-created cheaply, see above). */
  readonly #byTab = new Map<number, Map<string, PageWorld>>();

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

  /**
   * Our world in the document `frame` describes (from mainFrameDocument, or a child frame from FrameSessions.list),
   * created if missing. Never in a frame the list marked blocked: every child frame comes from that list, so this is
   * the last line before chrome-relay would run anything inside a site the person blocked.
   */
  async ensure(ctx: Pick<CallContext, 'cdp'>, tabId: number, frame: FrameSite & { readonly blocked?: SiteBlock | undefined }): Promise<PageWorld> {
    if (frame.blocked !== undefined) throw blockedFrameError(tabId, frame.blocked, { frame: true });
    const known = this.#byTab.get(tabId)?.get(frame.frameId);
    if (known !== undefined && known.loaderId === frame.loaderId && known.sessionId === frame.sessionId) return known;
    const worldName = await this.worldName();
    const target = worldTarget({ tabId, ...(frame.sessionId === undefined ? {} : { sessionId: frame.sessionId }) });
    const { executionContextId } = await ctx.cdp.send(target, 'Page.createIsolatedWorld', {
      frameId: frame.frameId,
      worldName,
      // The page script needs nothing beyond the page's own origin.
      grantUniveralAccess: false,
    });
    const world: PageWorld = { tabId, frameId: frame.frameId, loaderId: frame.loaderId, contextId: executionContextId };
    if (frame.sessionId !== undefined) world.sessionId = frame.sessionId;
    let frames = this.#byTab.get(tabId);
    if (frames === undefined) {
      frames = new Map();
      this.#byTab.set(tabId, frames);
    }
    frames.set(frame.frameId, world);
    return world;
  }

  /** Forget the cached contexts of every frame of the tab (destroyed, or the tab is gone). */
  forget(tabId: number): void {
    this.#byTab.delete(tabId);
  }

  /** Forget one frame's cached context (its document was replaced). */
  forgetFrame(tabId: number, frameId: string): void {
    this.#byTab.get(tabId)?.delete(frameId);
  }

  async #loadName(): Promise<string> {
    const stored = (await this.#store.get([EPOCH_KEY]))[EPOCH_KEY];
    if (typeof stored === 'string' && /^[0-9a-f]{12}$/.test(stored)) return WORLD_PREFIX + stored;
    const epoch = randomEpoch();
    await this.#store.set({ [EPOCH_KEY]: epoch });
    return WORLD_PREFIX + epoch;
  }
}

