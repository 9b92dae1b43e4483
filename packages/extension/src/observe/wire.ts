/**
 * Connect the captures to the worker's debugger sessions (the composition root calls this at the worker's top level:
 * a worker woken by a CDP event must have its listeners in place before the event is delivered), and a raw send for
 * arming a tab from inside a tool.
 */
import type { CdpSessions } from '../cdp/cdpSession.js';
import type { RawSend, TabCaptures } from './captures.js';

export function wireCaptures(sessions: CdpSessions, target: TabCaptures): void {
  sessions.on((event) => target.handle(event));
  sessions.onDetached((tabId) => target.sessionEnded(tabId));
}

/** A RawSend over the typed session, for arming a tab from inside a tool. */
export function rawSend(sessions: CdpSessions, tabId: number): RawSend {
  const send = sessions.send.bind(sessions) as (target: number, method: string, params?: object) => Promise<unknown>;
  return (method, params) => send(tabId, method, params);
}

