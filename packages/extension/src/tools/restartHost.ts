/**
 * `restart_host`: swap in a freshly installed host (only `chrome-relay update` sends it). The tool only
 * answers; the port is closed a moment later by the host port module (wired in background.ts), so the
 * answer reaches the CLI before the old host exits — and every other call in flight dies with it.
 */
import { defineTool } from './defineTool.js';

/** Delay between answering and closing the port. */
export const RESTART_DELAY_MS = 50;

let requestRestart: ((delayMs: number) => void) | null = null;

/** background.ts hands us the host port's reconnect once it exists. */
export function setRestartHostHandler(handler: (delayMs: number) => void): void {
  requestRestart = handler;
}

export const restartHostTool = defineTool({
  name: 'restart_host',
  async handle() {
    if (!requestRestart) throw new Error('restart handler not wired (background.ts must call setRestartHostHandler)');
    requestRestart(RESTART_DELAY_MS);
    return { reconnectInMs: RESTART_DELAY_MS };
  },
});
