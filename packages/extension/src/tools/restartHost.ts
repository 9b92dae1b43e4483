/**
 * `restart_host`: swap in a freshly installed host (only `chrome-relay update` sends it). The tool only
 * answers; the port is closed a moment later by the host port (ctx.restartHost, wired in background.ts), so the
 * answer reaches the CLI before the old host exits — and every other call in flight dies with it.
 */
import { defineTool } from './defineTool.js';

/** Delay between answering and closing the port. */
export const RESTART_DELAY_MS = 50;

export const restartHostTool = defineTool({
  name: 'restart_host',
  uses: ['restartHost'],
  async handle(_params, ctx) {
    ctx.restartHost(RESTART_DELAY_MS);
    return { reconnectInMs: RESTART_DELAY_MS };
  },
});
