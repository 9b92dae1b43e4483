/**
 * Wait until the browser has drawn what the page's DOM now says. The browser routes mouse input
 * between a tab's out-of-process frames by the hit-test data of the last frame it drew, not by the
 * DOM: a press sent right after a scroll went to the cross-origin iframe drawn at that point
 * before the scroll (observed in Chromium 156), and a click reported as delivered would have landed elsewhere.
 *
 * Two steps, both needed (measured, Chromium 156, a same-origin iframe clicked right after the
 * page scrolled away from a cross-origin one, three clicks per tab):
 * - waitForPaint: two animation frames in the page, so its renderer has produced a frame with
 *   the new layout. Alone, it was enough under Xvfb but not headless: 2 of 3 clicks still went
 *   to the cross-origin frame, whose renderer-side position was current but the browser's
 *   routing data was not.
 * - waitForDraw (capture/screencast.ts, the one place pixels are asked for): one screencast frame of the tab. A
 *   capture makes the browser draw the tab now, and drawing is what refreshes the routing data: with it, 6 of 6
 *   landed.
 */
import type { CallContext } from '../context/call.js';
import { callPageAwait } from './pageCall.js';
import type { PageWorld } from './worlds.js';

/**
 * How long to wait for a frame. A tab that draws (visible, or focus-emulated as our sessions are)
 * produces one within ~16 ms; one that does not draw at all never will, and waiting longer would
 * not help it.
 */
export const PAINT_LIMIT_MS = 250;

/** Resolves once the world's frame drew twice, or after PAINT_LIMIT_MS; true when it drew. */
export async function waitForPaint(ctx: Pick<CallContext, 'cdp'>, world: PageWorld, limitMs = PAINT_LIMIT_MS): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), limitMs);
  });
  const painted = callPageAwait(ctx, world, 'twoFrames').then(
    (drew) => drew === true,
    // A world that went away has nothing left to draw; the action's own checks report the change.
    () => false,
  );
  try {
    return await Promise.race([painted, late]);
  } finally {
    clearTimeout(timer);
  }
}
