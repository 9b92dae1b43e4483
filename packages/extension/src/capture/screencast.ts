/**
 * The one place a tab's pixels are asked for: Page.startScreencast / stopScreencast and the frame acknowledgements
 * (ESLint allows these commands, and Page.captureScreenshot, nowhere else). Pixels that leave the worker are painted
 * over where they show a site the person blocked before they do: screenshot.ts for a screenshot, recordMask.ts for
 * every recorded frame; the frame `waitForDraw` takes is only waited for and never leaves.
 *
 * A screencast rather than Page.captureScreenshot: on a hidden background tab the latter hangs (Chromium 156), while
 * a screencast frame comes as soon as the tab draws.
 */
import type Protocol from 'devtools-protocol';
import type { CdpSessions } from '../cdp/cdpSession.js';
import type { CallContext } from '../context/call.js';

export type ScreencastOptions = Protocol.Page.StartScreencastRequest;

/** Screencast frames of the tab's top document as they come, each acknowledged after `onFrame` (Chrome sends the next only then). */
export function onScreencastFrames(cdp: Pick<CdpSessions, 'on' | 'send'>, tabId: number, onFrame: (frame: Protocol.Page.ScreencastFrameEvent) => Promise<void> | void): () => void {
  return cdp.on((event) => {
    if (event.tabId !== tabId || event.sessionId !== undefined || event.method !== 'Page.screencastFrame') return;
    const frame = event.params as Protocol.Page.ScreencastFrameEvent;
    void Promise.resolve()
      .then(() => onFrame(frame))
      .catch((error: unknown) => console.error('chrome-relay: handling a screencast frame failed', error))
      .finally(() => cdp.send(tabId, 'Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined));
  });
}

export async function startScreencast(cdp: Pick<CdpSessions, 'send'>, tabId: number, options: ScreencastOptions): Promise<void> {
  await cdp.send(tabId, 'Page.startScreencast', options);
}

/** Stop the tab's screencast; a tab that can no longer stop it has stopped anyway. */
export async function stopScreencast(cdp: Pick<CdpSessions, 'send'>, tabId: number): Promise<void> {
  await cdp.send(tabId, 'Page.stopScreencast').catch(() => undefined);
}

/**
 * How long to wait for a frame. A tab that draws (visible, or focus-emulated as our sessions are)
 * produces one within ~16 ms; one that does not draw at all never will, and waiting longer would
 * not help it.
 */
export const DRAW_LIMIT_MS = 250;

/**
 * One screencast frame of the tab, acknowledged, then the screencast stopped; true when it came within `limitMs`.
 * A capture makes the browser draw the tab now, and drawing is what refreshes the data it routes mouse input by
 * between out-of-process frames (page/paint.ts says what was measured). Not while the tab is being recorded: the
 * recording's own screencast would be reconfigured and stopped (the caller checks).
 */
export async function waitForDraw(ctx: Pick<CallContext, 'cdp'>, tabId: number, limitMs = DRAW_LIMIT_MS): Promise<boolean> {
  let unsubscribe: () => void = () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const framed = new Promise<boolean>((resolve) => {
    unsubscribe = onScreencastFrames(ctx.cdp, tabId, () => resolve(true));
    timer = setTimeout(() => resolve(false), limitMs);
  });
  try {
    await startScreencast(ctx.cdp, tabId, { format: 'jpeg', quality: 1, maxWidth: 16, maxHeight: 16 });
    return await framed;
  } finally {
    clearTimeout(timer);
    unsubscribe();
    await stopScreencast(ctx.cdp, tabId);
  }
}
