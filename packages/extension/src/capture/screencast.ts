/**
 * The one place a tab's pixels are asked for: Page.startScreencast / stopScreencast and the frame acknowledgements
 * (ESLint allows these commands, and Page.captureScreenshot, nowhere else). Pixels that leave the worker are painted
 * over where they show a site the person blocked before they do: screenshot.ts for a screenshot, recordMask.ts for
 * every recorded frame; the frame `waitForDraw` takes is only waited for and never leaves, nor does the one frame of
 * a tab kept drawing (TabDrawing).
 *
 * A screencast rather than Page.captureScreenshot: on a hidden background tab the latter hangs (Chromium 156), while
 * a screencast frame comes as soon as the tab draws.
 *
 * A tab has one screencast: each user starts it with its own options, takes only its own frames (`startedFrames`: a
 * frame still on its way from the one keeping the tab drawing is not), and ends it with `endScreencast`, which hands
 * the tab back to TabDrawing when agents work in it.
 */
import type Protocol from 'devtools-protocol';
import type { CdpSessions } from '../cdp/cdpSession.js';

export type ScreencastOptions = Protocol.Page.StartScreencastRequest;

/** Screencast frames of the tab's top document as they come, each acknowledged after `onFrame` (Chrome sends the next only then). */
function onScreencastFrames(cdp: Pick<CdpSessions, 'on' | 'send'>, tabId: number, onFrame: (frame: Protocol.Page.ScreencastFrameEvent) => Promise<void> | void): () => void {
  return cdp.on((event) => {
    if (event.tabId !== tabId || event.sessionId !== undefined || event.method !== 'Page.screencastFrame') return;
    const frame = event.params as Protocol.Page.ScreencastFrameEvent;
    void Promise.resolve()
      .then(() => onFrame(frame))
      .catch((error: unknown) => console.error('chrome-relay: handling a screencast frame failed', error))
      .finally(() => cdp.send(tabId, 'Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined));
  });
}

/**
 * Start the tab's screencast with `options`, and hand `onFrame` its frames (each acknowledged after it). The screencast
 * keeping the tab drawing is stopped first, and only frames sent after that stop was answered are this one's: the
 * session sends events and answers in order, so a frame that came before the answer was drawn for the one it ended
 * (its 16 px frame). A frame sent between that answer and the start's own answer is this screencast's first, and is
 * kept. Chrome can still deliver, after that answer, a frame it encoded for the screencast that was stopped (seen: a
 * screenshot of an element cropped from a 16 px frame, 2 px wide); a user that needs its own frame size checks it
 * (screenshot.ts downscaledFrame). The unsubscribe; a start that fails unsubscribes itself.
 */
export async function startedFrames(
  ctx: { readonly cdp: Pick<CdpSessions, 'on' | 'send'>; readonly drawing: TabDrawing },
  tabId: number,
  options: ScreencastOptions,
  onFrame: (frame: Protocol.Page.ScreencastFrameEvent) => Promise<void> | void,
): Promise<() => void> {
  const { cdp } = ctx;
  const kept = ctx.drawing.kept(tabId);
  let ours = !kept;
  const unsubscribe = onScreencastFrames(cdp, tabId, (frame) => (ours ? onFrame(frame) : undefined));
  try {
    // Chrome refuses a second screencast while one runs ("Screencast is already active"): end the one keeping the
    // tab drawing first (a moment of a hidden tab, then this one draws it).
    if (kept) await cdp.send(tabId, 'Page.stopScreencast');
    ours = true;
    await cdp.send(tabId, 'Page.startScreencast', options);
  } catch (error) {
    unsubscribe();
    throw error;
  }
  return unsubscribe;
}

/**
 * End a user's screencast of the tab: stop it, or — while agents work in the tab — go back to keeping it drawing. A
 * tab that can no longer stop its screencast has stopped anyway.
 */
export async function endScreencast(ctx: { readonly cdp: Pick<CdpSessions, 'send'>; readonly drawing: TabDrawing }, tabId: number): Promise<void> {
  const next = ctx.drawing.kept(tabId) ? ctx.cdp.send(tabId, 'Page.startScreencast', KEEP_DRAWING) : ctx.cdp.send(tabId, 'Page.stopScreencast');
  await next.catch(() => undefined);
}

/**
 * The screencast that keeps a tab drawing: the smallest frame, never acknowledged, so Chrome encodes one and then
 * sends nothing more — while the capture itself keeps the page painting.
 */
const KEEP_DRAWING: ScreencastOptions = { format: 'jpeg', quality: 1, maxWidth: 16, maxHeight: 16 };

/**
 * Agent tabs draw at full rate while agents work in them, headless or headful, in `launch`'s browser and the person's
 * own Chrome, without being shown or focused. Measured (Chromium 156, scripts/bench/suiteDrawing.ts): a background tab
 * whose page draws after its load event — every React app — ran requestAnimationFrame about once a second once its
 * first debugger session had ended, also after the next attach with focus emulation on; so menus rendered a second
 * late, and focus moved on the next frame arrived late. Page.setWebLifecycleState('active'), Emulation.setIdleOverride
 * and toggling focus emulation left it there; a running screencast (Chrome keeps a captured tab painting, hidden)
 * brought it back to every frame. So each session keeps its tab in a screencast from the moment it is prepared until
 * it ends: the call's work, and the idle time after it (cdp/idleDetach.ts) that covers the snapshot an agent takes
 * next. Its one frame never leaves the worker.
 */
export class TabDrawing {
  readonly #tabs = new Set<number>();

  /** A session preparer (CdpSessions.onSessionPrepare): keep the fresh session's tab drawing until it ends. */
  async keep(tabId: number, send: (method: string, params?: object) => Promise<unknown>): Promise<void> {
    this.#tabs.add(tabId);
    // A page that cannot be captured (a crashed tab) still takes every other command.
    await send('Page.startScreencast', KEEP_DRAWING).catch(() => undefined);
  }

  /** The tab's session ended (CdpSessions.onDetached), and its screencast with it. */
  ended(tabId: number): void {
    this.#tabs.delete(tabId);
  }

  /** Agents work in the tab: its screencast, once a user ends theirs, goes back to keeping it drawing. */
  kept(tabId: number): boolean {
    return this.#tabs.has(tabId);
  }
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
export async function waitForDraw(ctx: { readonly cdp: Pick<CdpSessions, 'on' | 'send'>; readonly drawing: TabDrawing }, tabId: number, limitMs = DRAW_LIMIT_MS): Promise<boolean> {
  let unsubscribe: () => void = () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let drawn: () => void = () => undefined;
  const framed = new Promise<boolean>((resolve) => {
    drawn = () => resolve(true);
    timer = setTimeout(() => resolve(false), limitMs);
  });
  try {
    unsubscribe = await startedFrames(ctx, tabId, { format: 'jpeg', quality: 1, maxWidth: 16, maxHeight: 16 }, drawn);
    return await framed;
  } finally {
    clearTimeout(timer);
    unsubscribe();
    await endScreencast(ctx, tabId);
  }
}
