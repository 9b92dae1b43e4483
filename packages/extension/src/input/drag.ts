/**
 * HTML5 drag and drop through CDP: with Input.setInterceptDrags on, Chrome does not run the platform's drag loop
 * (which a debugger cannot drive) but reports the drag the page started (Input.dragIntercepted, with the data the page
 * set); the drop is then delivered as dragEnter/dragOver/drop with that data (Input.dispatchDragEvent).
 */
import type Protocol from 'devtools-protocol';
import type { CallContext } from '../context/call.js';
import { assertLanded, type Landed } from './landing.js';

export interface DragInterception {
  /** The drag the page started, once Chrome reported it. */
  intercepted(): Protocol.Input.DragData | undefined;
  /** Interception off again (safe to call more than once). */
  stop(): Promise<void>;
}

/** Intercept the drags of the tab's top document from now on. */
export async function interceptDrags(ctx: Pick<CallContext, 'cdp'>, tabId: number): Promise<DragInterception> {
  let data: Protocol.Input.DragData | undefined;
  const unsubscribe = ctx.cdp.on((event) => {
    if (event.tabId === tabId && event.sessionId === undefined && event.method === 'Input.dragIntercepted') {
      data = (event.params as Protocol.Input.DragInterceptedEvent).data;
    }
  });
  try {
    await ctx.cdp.send(tabId, 'Input.setInterceptDrags', { enabled: true });
  } catch (error) {
    unsubscribe();
    throw error;
  }
  return {
    intercepted: () => data,
    stop: async () => {
      unsubscribe();
      await ctx.cdp.send(tabId, 'Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
    },
  };
}

/** The drop of an intercepted drag at (x, y) of the tab's top viewport. */
export async function dispatchDrop(ctx: Pick<CallContext, 'cdp'>, landed: Landed, tabId: number, x: number, y: number, data: Protocol.Input.DragData): Promise<void> {
  assertLanded(landed, tabId);
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) await ctx.cdp.send(tabId, 'Input.dispatchDragEvent', { type, x, y, data });
}
