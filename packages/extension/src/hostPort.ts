/**
 * The extension's end of native messaging: one port to the native host, kept open.
 *
 * Chrome starts the host process when we connect and kills it when the port closes, so the port is
 * also what keeps the host (and its CLI socket) alive. An open port keeps the worker alive too
 * (CHROMIUM.md). If the host dies or is missing, we reconnect with backoff: 100 ms doubling to 5 s,
 * back to 100 ms once a connection has lived 10 s (a host that crashes at start must not be
 * respawned in a tight loop). Wake-up listeners call ensureConnected(); it respects a pending backoff.
 *
 * Every message from the host is validated here (a process edge); each call gets exactly one reply, and
 * that reply is one that can reach the host (answerFit.ts: size and nesting checked before posting).
 */
import {
  HOST_NAME,
  HostToExtensionSchema,
  PROTOCOL_VERSION,
  RelayError,
  VERSION,
  type ExtensionHello,
  type ExtensionToHost,
} from '@chrome-relay/protocol';
import { fitAnswer } from './answerFit.js';
import type { Dispatch } from './dispatcher.js';

/** What we need from a chrome.runtime.Port; faked in tests. */
export interface NativePort {
  /** Throws if the port is already disconnected. */
  postMessage(message: ExtensionToHost): void;
  onMessage(listener: (message: unknown) => void): void;
  /** `errorMessage` is chrome.runtime.lastError at disconnect time (e.g. "Specified native messaging host not found."). */
  onDisconnect(listener: (errorMessage: string | undefined) => void): void;
  /** Close the port from our side; Chrome then closes the host's stdin and the host exits. */
  disconnect(): void;
}

export const RECONNECT = { initialMs: 100, maxMs: 5_000, resetAfterMs: 10_000 } as const;

export interface HostPortDeps {
  /** Opens a port; may throw synchronously. */
  readonly connect: () => NativePort;
  readonly dispatch: Dispatch;
  readonly hello: () => ExtensionHello;
  readonly now?: () => number;
  readonly setTimer?: (run: () => void, ms: number) => void;
  readonly log?: (message: string) => void;
  /** Told when a host greets us (connected) and when the port goes away (toolbar icon, popup). */
  readonly onStatus?: (status: HostLink) => void;
}

/** The native host as the extension sees it: greeted on the current port, or not. */
export interface HostLink {
  connected: boolean;
  host: { version: string; protocolVersion: number; pid: number } | null;
}

export interface HostPort {
  /** Connect now unless connected or a reconnect is already scheduled. */
  ensureConnected(): void;
  isConnected(): boolean;
  /**
   * After `delayMs`, close the port and open a new one: Chrome starts a fresh host process from the
   * manifest (how `chrome-relay update` swaps in a new host). The delay lets the current answer leave first.
   */
  reconnect(delayMs: number): void;
  /** Greet the host again (what it reports changed: the person paused or resumed, or switched agents through a bridge). */
  greet(): void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createHostPort(deps: HostPortDeps): HostPort {
  const now = deps.now ?? Date.now;
  const setTimer = deps.setTimer ?? ((run: () => void, ms: number) => void setTimeout(run, ms));
  const log = deps.log ?? ((message: string) => console.warn(`chrome-relay: ${message}`));

  let port: NativePort | null = null;
  let connectedAt = 0;
  let nextDelay: number = RECONNECT.initialMs;
  let reconnectScheduled = false;

  function post(target: NativePort, message: ExtensionToHost): void {
    try {
      target.postMessage(message);
    } catch (error) {
      // The host went away while we worked; its calls die with it and the host reports that side.
      log(`could not send ${message.type} to the native host: ${messageOf(error)}`);
    }
  }

  function scheduleReconnect(): void {
    if (reconnectScheduled) return;
    reconnectScheduled = true;
    const delay = nextDelay;
    nextDelay = Math.min(nextDelay * 2, RECONNECT.maxMs);
    setTimer(() => {
      reconnectScheduled = false;
      connect();
    }, delay);
  }

  async function receive(from: NativePort, message: unknown): Promise<void> {
    const parsed = HostToExtensionSchema().safeParse(message);
    if (!parsed.success) {
      log(`ignored a malformed message from the native host: ${parsed.error.message}`);
      const id = typeof message === 'object' && message !== null && 'id' in message ? message.id : undefined;
      if (typeof id === 'number' && Number.isInteger(id)) {
        const tool = typeof message === 'object' && message !== null && 'tool' in message && typeof message.tool === 'string' ? message.tool : '';
        const error = new RelayError(
          'internal_error',
          'The native host sent a call this extension cannot read; make sure the CLI, host and extension come from the same release (`chrome-relay doctor`).',
          { tool, phase: 'transport', details: { issues: parsed.error.issues.map((i) => i.message) } },
        );
        post(from, { type: 'error', id, error: error.toData() });
      }
      return;
    }
    const envelope = parsed.data;
    if (envelope.type === 'hello') {
      log(`connected to native host ${envelope.host.version} (protocol ${envelope.host.protocolVersion}, pid ${envelope.host.pid})`);
      if (from === port) deps.onStatus?.({ connected: true, host: { ...envelope.host } });
      return;
    }
    post(from, fitAnswer(await deps.dispatch(envelope), envelope.tool));
  }

  function connect(): void {
    let opened: NativePort;
    try {
      opened = deps.connect();
    } catch (error) {
      log(`connecting to the native host failed: ${messageOf(error)}`);
      scheduleReconnect();
      return;
    }
    port = opened;
    connectedAt = now();
    opened.onMessage((message) => void receive(opened, message));
    opened.onDisconnect((errorMessage) => {
      if (port !== opened) return;
      port = null;
      deps.onStatus?.({ connected: false, host: null });
      log(`native host disconnected${errorMessage ? `: ${errorMessage}` : ''}`);
      if (now() - connectedAt >= RECONNECT.resetAfterMs) nextDelay = RECONNECT.initialMs;
      scheduleReconnect();
    });
    // Chrome queues this until the host process is up.
    post(opened, deps.hello());
  }

  return {
    ensureConnected() {
      if (port !== null || reconnectScheduled) return;
      connect();
    },
    isConnected: () => port !== null,
    greet() {
      if (port !== null) post(port, deps.hello());
    },
    reconnect(delayMs) {
      setTimer(() => {
        const old = port;
        // Forget it first so its onDisconnect does not schedule a backoff reconnect as well.
        port = null;
        deps.onStatus?.({ connected: false, host: null });
        if (old) {
          try {
            old.disconnect();
          } catch (error) {
            log(`closing the native port failed: ${messageOf(error)}`);
          }
        }
        nextDelay = RECONNECT.initialMs;
        connect();
      }, delayMs);
    },
  };
}

/** chrome.runtime.connectNative behind NativePort. */
export function connectChromeNative(): NativePort {
  const port = chrome.runtime.connectNative(HOST_NAME);
  return {
    postMessage: (message) => port.postMessage(message),
    onMessage: (listener) => port.onMessage.addListener((message: unknown) => listener(message)),
    // lastError is only readable inside the listener; reading it also stops Chrome logging it as unchecked.
    onDisconnect: (listener) => port.onDisconnect.addListener(() => listener(chrome.runtime.lastError?.message)),
    disconnect: () => port.disconnect(),
  };
}

export function chromeHello(pausedSince: number | null, remoteAgents: boolean): ExtensionHello {
  return {
    type: 'hello',
    extension: { id: chrome.runtime.id, version: VERSION, protocolVersion: PROTOCOL_VERSION },
    userAgent: navigator.userAgent,
    pausedSince,
    remoteAgents,
  };
}
