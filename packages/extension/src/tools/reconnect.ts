/**
 * `reconnect`: swap in a freshly installed host. The tool only answers; the port is closed a moment later by the
 * host port module (wired in background.ts), so the answer reaches the CLI before the old host exits.
 */
import { defineTool } from './defineTool.js';

/** Delay between answering and closing the port. */
export const RECONNECT_DELAY_MS = 50;

let requestReconnect: ((delayMs: number) => void) | null = null;

/** background.ts hands us the host port's reconnect once it exists. */
export function setReconnectHandler(handler: (delayMs: number) => void): void {
  requestReconnect = handler;
}

export const reconnectTool = defineTool({
  name: 'reconnect',
  async handle() {
    if (!requestReconnect) throw new Error('reconnect handler not wired (background.ts must call setReconnectHandler)');
    requestReconnect(RECONNECT_DELAY_MS);
    return { reconnectInMs: RECONNECT_DELAY_MS };
  },
});
