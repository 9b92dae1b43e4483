/**
 * Connect the captures to the worker's debugger sessions and tab lifecycle. Imported for its effect
 * by the observe tools (so background.ts need not know about captures), at module top level: a
 * worker woken by a CDP event must have its listeners in place before the event is delivered.
 */
import { cdp, type CdpSessions } from '../cdp/cdpSession.js';
import { onTabClosed } from '../targets.js';
import { captures, type RawSend, type TabCaptures } from './captures.js';

export function wireCaptures(sessions: CdpSessions, target: TabCaptures): void {
  sessions.on((event) => target.handle(event));
  sessions.onDetached((tabId) => target.sessionEnded(tabId));
  onTabClosed((tabId) => target.forget(tabId));
}

/** A RawSend over the typed session, for arming a tab from inside a tool. */
export function rawSend(sessions: CdpSessions, tabId: number): RawSend {
  const send = sessions.send.bind(sessions) as (target: number, method: string, params?: object) => Promise<unknown>;
  return (method, params) => send(tabId, method, params);
}

wireCaptures(cdp, captures);
