/**
 * Every frame of a tab, and which CDP session owns each: the tab's session for the main frame and
 * same-process iframes, a flattened child session for each out-of-process iframe (OOPIF).
 *
 * Verified in Chromium 156 through chrome.debugger (not assumed):
 * - The tab session's Page.getFrameTree lists same-process frames only; an OOPIF is missing there.
 * - Target.setAutoAttach({autoAttach, flatten}) on the tab session delivers Target.attachedToTarget
 *   (type "iframe", targetId = the frame's id, parentFrameId) as an onEvent of the tab, before the
 *   command answers. Commands sent with {tabId, sessionId} then reach the OOPIF (Page.getFrameTree,
 *   Page.createIsolatedWorld, Runtime.evaluate).
 * - Calling setAutoAttach again does not repeat attachedToTarget for frames already attached, and
 *   Target.getTargets is "Not allowed" for extensions. So after a service-worker restart (the
 *   debugger session survives, our map does not) we turn auto-attach off and on again, which
 *   re-announces every OOPIF.
 * - DOM.getFrameOwner on the parent's session accepts an OOPIF's frame id.
 *
 * The list is also where the person's site block list meets the frames: `list` marks every frame that shows a
 * blocked site, or sits inside one (policy/frameBlocks.ts). Every tool that works inside a child frame finds that
 * frame through `list` (the snapshot, a ref's own frame in openRef, `--frame @ref`, the frames an input lands in),
 * so none of them can come by a child frame without its mark, and our world is never made in a marked one
 * (worlds.ts refuses it).
 */
import type Protocol from 'devtools-protocol';
import type { CdpEvent, CdpSessions, CdpTarget } from '../cdp/cdpSession.js';
import type { CallContext } from '../context/call.js';
import { frameBlocks, siteBlockOf, type SiteBlock } from '../policy/frameBlocks.js';
import type { SiteRule } from '../policy/sitePatterns.js';
import type { FrameSite } from './worlds.js';
import { isObject } from './cdpParams.js';

export interface FrameInfo extends FrameSite {
  url: string;
  /** Absent for the main frame. */
  parentId?: string;
  /** The frame shows a site the person blocked (or sits inside such a frame): chrome-relay never enters it. */
  blocked?: SiteBlock;
}

/** The person's block list as the frames are listed (the worker's: the options page's settings). */
export type RuleSource = () => Promise<readonly SiteRule[]>;

interface ChildSession {
  sessionId: string;
  /** The OOPIF's frame id (its target id). */
  frameId: string;
}

const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: false, flatten: true } as const;

/** Pure: one frame tree as a flat list, parents before children; `sessionId` set on every entry. */
export function flattenFrameTree(tree: Protocol.Page.FrameTree, sessionId: string | undefined): FrameInfo[] {
  const out: FrameInfo[] = [];
  const visit = (node: Protocol.Page.FrameTree): void => {
    const { frame } = node;
    const info: FrameInfo = { frameId: frame.id, loaderId: frame.loaderId, url: frame.url + (frame.urlFragment ?? '') };
    if (frame.parentId !== undefined) info.parentId = frame.parentId;
    if (sessionId !== undefined) info.sessionId = sessionId;
    out.push(info);
    for (const child of node.childFrames ?? []) visit(child);
  };
  visit(tree);
  return out;
}

/**
 * Pure: frames whose ancestors are all present, main frame first. A frame whose parent is unknown
 * (an OOPIF announced before its parent's tree was read, or one detaching) is left out: nothing
 * could place it in the snapshot.
 */
export function connectedFrames(frames: readonly FrameInfo[]): FrameInfo[] {
  const byId = new Map(frames.map((frame) => [frame.frameId, frame]));
  const out: FrameInfo[] = [];
  const placed = new Set<string>();
  const place = (frame: FrameInfo, seen: Set<string>): boolean => {
    if (placed.has(frame.frameId)) return true;
    if (seen.has(frame.frameId)) return false;
    seen.add(frame.frameId);
    if (frame.parentId !== undefined) {
      const parent = byId.get(frame.parentId);
      if (parent === undefined || !place(parent, seen)) return false;
    }
    placed.add(frame.frameId);
    out.push(frame);
    return true;
  };
  for (const frame of frames) if (frame.parentId === undefined) place(frame, new Set());
  for (const frame of frames) place(frame, new Set());
  return out;
}

export class FrameSessions {
  readonly #rules: RuleSource;
  /** Per tab: its OOPIF child sessions, by session id. */
  readonly #children = new Map<number, Map<string, ChildSession>>();
  /** Tabs whose auto-attach was set up by this worker (the map above is complete for them). */
  readonly #ready = new Map<number, Promise<void>>();

  constructor(rules: RuleSource) {
    this.#rules = rules;
  }

  /** The person's block rules now (none: no frame is blocked, and checks may stop there). */
  blockList(): Promise<readonly SiteRule[]> {
    return this.#rules();
  }

  /** The rule a frame's URL falls under now; for a frame read after `list` (it may have navigated since). */
  async blocking(url: string): Promise<SiteBlock | undefined> {
    return siteBlockOf(await this.#rules(), url);
  }

  /** Follow attach/detach events; call once with the worker's sessions. */
  listen(cdp: Pick<CdpSessions, 'on' | 'onDetached' | 'send'>): void {
    cdp.on((event) => this.#onEvent(cdp, event));
    cdp.onDetached((tabId) => this.forgetTab(tabId));
  }

  forgetTab(tabId: number): void {
    this.#children.delete(tabId);
    this.#ready.delete(tabId);
  }

  /** Make sure every OOPIF of the tab has a known child session. */
  ensure(ctx: Pick<CallContext, 'cdp'>, tabId: number): Promise<void> {
    let ready = this.#ready.get(tabId);
    if (ready === undefined) {
      ready = this.#setUp(ctx, tabId).catch((error: unknown) => {
        this.#ready.delete(tabId);
        throw error;
      });
      this.#ready.set(tabId, ready);
    }
    return ready;
  }

  /**
   * Whether the tab has an out-of-process iframe right now. Mouse input is then routed between
   * processes by what the compositor last drew (see page/paint.ts); without one, the renderer
   * hit-tests every event itself against its current layout.
   */
  async hasOutOfProcessFrames(ctx: Pick<CallContext, 'cdp'>, tabId: number): Promise<boolean> {
    await this.ensure(ctx, tabId);
    return (this.#children.get(tabId)?.size ?? 0) > 0;
  }

  /** Every frame of the tab that can be placed under its parent, main frame first; blocked ones marked. */
  async list(ctx: Pick<CallContext, 'cdp'>, tabId: number): Promise<FrameInfo[]> {
    await this.ensure(ctx, tabId);
    const main = (await ctx.cdp.send(tabId, 'Page.getFrameTree')).frameTree;
    const frames = flattenFrameTree(main, undefined);
    for (const child of [...(this.#children.get(tabId)?.values() ?? [])]) {
      try {
        const tree = (await ctx.cdp.send({ tabId, sessionId: child.sessionId }, 'Page.getFrameTree')).frameTree;
        frames.push(...flattenFrameTree(tree, child.sessionId));
      } catch {
        // The frame detached between the event and now (navigated or removed): it is not there.
      }
    }
    const connected = connectedFrames(frames);
    const blocks = frameBlocks(connected, await this.#rules());
    for (const frame of connected) {
      const block = blocks.get(frame.frameId);
      if (block !== undefined) frame.blocked = block;
    }
    return connected;
  }

  async #setUp(ctx: Pick<CallContext, 'cdp'>, tabId: number): Promise<void> {
    // Off then on: after a worker restart the debugger session (and its child sessions) survived
    // but our map did not, and only a fresh auto-attach announces the existing OOPIFs again.
    this.#children.delete(tabId);
    await ctx.cdp.send(tabId, 'Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true });
    await ctx.cdp.send(tabId, 'Target.setAutoAttach', AUTO_ATTACH);
    // Nested OOPIFs are announced on their parent's child session: auto-attach there too.
    const done = new Set<string>();
    for (;;) {
      const pending = [...(this.#children.get(tabId)?.values() ?? [])].filter((child) => !done.has(child.sessionId));
      if (pending.length === 0) return;
      for (const child of pending) {
        done.add(child.sessionId);
        await ctx.cdp.send({ tabId, sessionId: child.sessionId }, 'Target.setAutoAttach', AUTO_ATTACH).catch(() => undefined);
      }
    }
  }

  #onEvent(cdp: Pick<CdpSessions, 'send'>, event: CdpEvent): void {
    if (!isObject(event.params)) return;
    if (event.method === 'Target.attachedToTarget') {
      const params = event.params as unknown as Protocol.Target.AttachedToTargetEvent;
      if (params.targetInfo.type !== 'iframe') return;
      let children = this.#children.get(event.tabId);
      if (children === undefined) {
        children = new Map();
        this.#children.set(event.tabId, children);
      }
      children.set(params.sessionId, { sessionId: params.sessionId, frameId: params.targetInfo.targetId });
      // A frame that became cross-origin after set-up: follow its own OOPIFs too (only once the
      // tab is set up; during set-up the loop in #setUp does it).
      if (this.#ready.has(event.tabId)) {
        const target: CdpTarget = { tabId: event.tabId, sessionId: params.sessionId };
        cdp.send(target, 'Target.setAutoAttach', AUTO_ATTACH).catch(() => undefined);
      }
    } else if (event.method === 'Target.detachedFromTarget') {
      const params = event.params as unknown as Protocol.Target.DetachedFromTargetEvent;
      if (params.sessionId !== undefined) this.#children.get(event.tabId)?.delete(params.sessionId);
    }
  }
}

/**
 * The document `site.frameId` shows now, looked up on the session that owns it; undefined when the
 * frame (or its child session) is gone.
 */
export async function currentFrame(ctx: Pick<CallContext, 'cdp'>, tabId: number, site: FrameSite): Promise<FrameInfo | undefined> {
  const target: CdpTarget = site.sessionId === undefined ? { tabId } : { tabId, sessionId: site.sessionId };
  let tree: Protocol.Page.FrameTree;
  try {
    tree = (await ctx.cdp.send(target, 'Page.getFrameTree')).frameTree;
  } catch (error) {
    // A child session ends when its frame navigates away or is removed; the tab's own never does here.
    if (site.sessionId !== undefined) return undefined;
    throw error;
  }
  return flattenFrameTree(tree, site.sessionId).find((frame) => frame.frameId === site.frameId);
}

