/**
 * Wait until a frame's renderer has drawn what its DOM now says. The browser routes mouse input
 * between a tab's out-of-process frames by the last frame the compositor drew, not by the DOM: a
 * press sent right after a scroll went to the cross-origin iframe drawn at that point before the
 * scroll (observed in Chromium 156, issue 9). Two animation frames after a change, the first
 * frame showing it has been produced and drawn.
 */
import type { ToolContext } from '../tools/defineTool.js';
import { worldTarget, type PageWorld } from './worlds.js';

/**
 * How long to wait for a frame. A tab that draws (visible, or focus-emulated as our sessions are)
 * produces one within ~16 ms; one that does not draw at all never will, and waiting longer would
 * not help it.
 */
export const PAINT_LIMIT_MS = 250;

const TWO_FRAMES = 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))))';

/** Resolves once the world's frame drew twice, or after PAINT_LIMIT_MS; true when it drew. */
export async function waitForPaint(ctx: Pick<ToolContext, 'cdp'>, world: PageWorld, limitMs = PAINT_LIMIT_MS): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), limitMs);
  });
  const painted = ctx.cdp
    .send(worldTarget(world), 'Runtime.evaluate', { expression: TWO_FRAMES, contextId: world.contextId, awaitPromise: true, returnByValue: true, silent: true })
    .then(
      () => true,
      // A world that went away has nothing left to draw; the action's own checks report the change.
      () => false,
    );
  try {
    return await Promise.race([painted, late]);
  } finally {
    clearTimeout(timer);
  }
}
