/**
 * A child frame that is no longer where its id was looked up: CDP's own answer when a command names a
 * frame the session no longer has. Seen in Chromium 156 when a fresh iframe's first (same-process)
 * document is swapped for a cross-origin one in another process between the frame-tree read and the
 * next command: the tab's session listed the frame, then `Page.createIsolatedWorld` answered
 * "No frame for given id found". The frame now lives in an out-of-process session (or is gone); a
 * snapshot leaves it out as it leaves out a child session that ended, and the next snapshot finds it
 * where it is.
 */
import { isCdpFailure } from '../cdp/failures.js';

export function isFrameGone(error: unknown): boolean {
  return isCdpFailure(error, 'frame_gone');
}
