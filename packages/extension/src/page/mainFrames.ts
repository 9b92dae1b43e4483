/**
 * What each tab's main frame shows, kept from Page events so a ref action need not ask (Page.getFrameTree) before
 * it starts: that read was one of the ~9 round trips of a small-page click.
 *
 * Trusted only while the events flow: a document is recorded from a Page.getFrameTree answer on a session whose
 * Page domain is enabled (the caller says so), then follows that session's Page.frameNavigated (a new document) and
 * Page.navigatedWithinDocument (a new URL, same document) events, and is forgotten when the session ends. The
 * renderer sends the commit's event before it answers any later command of the session, so what this knows is never
 * older than what a read would have said when the action started; a navigation that commits after that is caught as
 * before: our world's context is gone, and the page call reports the document changed.
 */
import type { CdpEvent, CdpSessions } from '../cdp/cdpSession.js';
import type { CallContext } from '../context/call.js';
import { mainFrameDocument, type FrameState } from './worlds.js';
import { isObject } from './cdpParams.js';

/** Pure: the main frame's document after `event`, or `known` unchanged. */
export function followEvent(known: FrameState, event: CdpEvent): FrameState {
  if (event.sessionId !== undefined || !isObject(event.params)) return known;
  const { params } = event;
  if (event.method === 'Page.frameNavigated' && isObject(params.frame)) {
    const { frame } = params;
    if (frame.parentId !== undefined || typeof frame.id !== 'string' || typeof frame.loaderId !== 'string' || typeof frame.url !== 'string') return known;
    const fragment = typeof frame.urlFragment === 'string' ? frame.urlFragment : '';
    return { frameId: frame.id, loaderId: frame.loaderId, url: frame.url + fragment };
  }
  if (event.method === 'Page.navigatedWithinDocument' && params.frameId === known.frameId && typeof params.url === 'string') {
    return { ...known, url: params.url };
  }
  return known;
}

export class MainFrames {
  readonly #known = new Map<number, FrameState>();

  constructor(cdp: Pick<CdpSessions, 'on' | 'onDetached'>) {
    cdp.on((event) => {
      const known = this.#known.get(event.tabId);
      if (known !== undefined) this.#known.set(event.tabId, followEvent(known, event));
    });
    cdp.onDetached((tabId) => this.#known.delete(tabId));
  }

  /**
   * The tab's main-frame document: from events when `eventsOn` (the session has Page enabled), else read. A read
   * made while events flow is kept.
   */
  async current(ctx: Pick<CallContext, 'cdp'>, tabId: number, eventsOn: boolean): Promise<FrameState> {
    const known = this.#known.get(tabId);
    if (eventsOn && known !== undefined && ctx.cdp.isAttached(tabId)) return known;
    const read = await mainFrameDocument(ctx, tabId);
    // Only a session that stayed attached with events on keeps it up to date.
    if (eventsOn && ctx.cdp.isAttached(tabId)) this.#known.set(tabId, read);
    return read;
  }
}

