/**
 * One request to the host of a browser profile over its Unix socket, with a deadline.
 * Transport failures become closed codes here: nothing reachable → extension_not_connected; the host vanished
 * mid-call → native_host_disconnected (retryable: the extension restarts a host within a second).
 */
import { connect, type Socket } from 'node:net';
import { statSync } from 'node:fs';
import {
  ClientResponseSchema,
  FrameDecoder,
  MAX_SOCKET_FRAME_BYTES,
  PROTOCOL_VERSION,
  RelayError,
  VERSION,
  encodeFrame,
  type ClientResponse,
  type HostDescriptor,
} from '@chrome-relay/protocol';
import { listDescriptors } from './discovery.js';
import { runDir } from './paths.js';

export interface CallOptions {
  home: string;
  /** Pick the host of this browser profile (user-data-dir) when several are running. */
  profile?: string | undefined;
  timeoutMs: number;
  target?: { tab?: number | undefined; workspace?: string | undefined; group?: string | undefined } | undefined;
  agent?: string | undefined;
}

/** How long to wait for a host that is being restarted (service worker waking, extension reconnecting). */
const RECONNECT_WAIT_MS = 2500;
/** A run dir touched this recently means a host just came or went: worth waiting for. */
const RECENT_ACTIVITY_MS = 15_000;

function pickHost(home: string, profile: string | undefined, tool: string): HostDescriptor | null {
  const live = listDescriptors(home).filter((d) => d.alive);
  const matching = profile ? live.filter((d) => d.descriptor.profile === profile) : live;
  if (matching.length > 1) {
    throw new RelayError('target_conflict', `${matching.length} browser profiles are connected; pass --profile <user-data-dir> to choose one.`, {
      tool,
      phase: 'connect',
      details: { profiles: matching.map((d) => d.descriptor.profile) },
    });
  }
  return matching[0]?.descriptor ?? null;
}

function recentlyActive(home: string): boolean {
  try {
    return Date.now() - statSync(runDir(home)).mtimeMs < RECENT_ACTIVITY_MS;
  } catch {
    return false;
  }
}

function notConnected(tool: string, home: string, profile: string | undefined): RelayError {
  return new RelayError(
    'extension_not_connected',
    'No chrome-relay browser is connected. Run `chrome-relay launch` to start one, or `chrome-relay doctor` to see why your browser is not connected.',
    { tool, phase: 'connect', details: { home, profile: profile ?? null } },
  );
}

function openSocket(path: string): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => resolve(socket));
    // ENOENT / ECONNREFUSED: the descriptor outlived its host; treat as absent.
    socket.once('error', () => resolve(null));
  });
}

async function connectToHost(options: CallOptions, tool: string): Promise<{ socket: Socket; host: HostDescriptor }> {
  // A host that just died (stale descriptor, or the run dir just changed) is usually being restarted by the
  // extension within a few hundred ms: wait for it briefly instead of failing an agent's call.
  const restarting = recentlyActive(options.home) || listDescriptors(options.home).some((d) => !d.alive);
  const giveUpAt = Date.now() + (restarting ? RECONNECT_WAIT_MS : 0);
  for (;;) {
    const host = pickHost(options.home, options.profile, tool);
    if (host) {
      const socket = await openSocket(host.socket);
      if (socket) return { socket, host };
    }
    if (Date.now() >= giveUpAt) throw notConnected(tool, options.home, options.profile);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let nextId = 1;

export async function callHost(tool: string, params: Record<string, unknown>, options: CallOptions): Promise<ClientResponse> {
  const { socket, host } = await connectToHost(options, tool);
  const id = nextId++;
  const request = {
    id,
    tool,
    params,
    timeoutMs: options.timeoutMs,
    client: { version: VERSION, protocolVersion: PROTOCOL_VERSION },
    ...(options.target === undefined ? {} : { target: options.target }),
    ...(options.agent === undefined ? {} : { agent: options.agent }),
  };
  return new Promise<ClientResponse>((resolve, reject) => {
    const decoder = new FrameDecoder(MAX_SOCKET_FRAME_BYTES);
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    // The host enforces timeoutMs itself; this local deadline only catches a wedged host.
    const timer = setTimeout(() => {
      finish(() =>
        reject(new RelayError('timeout', `The host did not answer within ${options.timeoutMs} ms.`, { tool, phase: 'transport', details: { timeoutMs: options.timeoutMs, hostPid: host.pid } })),
      );
    }, options.timeoutMs + 2000);
    socket.on('data', (chunk: Buffer) => {
      let messages: unknown[];
      try {
        messages = decoder.push(chunk);
      } catch (error) {
        finish(() => reject(new RelayError('internal_error', `Malformed frame from the host: ${(error as Error).message}`, { tool, phase: 'transport' })));
        return;
      }
      for (const message of messages) {
        const parsed = ClientResponseSchema.safeParse(message);
        if (!parsed.success) {
          finish(() => reject(new RelayError('internal_error', 'The host sent a response chrome-relay cannot read (version skew?). Run `chrome-relay doctor`.', { tool, phase: 'transport' })));
          return;
        }
        if (parsed.data.id === id) finish(() => resolve(parsed.data));
      }
    });
    socket.on('close', () => {
      finish(() =>
        reject(new RelayError('native_host_disconnected', 'The native host disconnected during the call; the browser restarts it within a second. Retry the command.', { tool, phase: 'transport', details: { hostPid: host.pid } })),
      );
    });
    socket.on('error', () => {
      /* 'close' follows and reports it */
    });
    try {
      socket.write(encodeFrame(request, MAX_SOCKET_FRAME_BYTES));
    } catch (error) {
      finish(() => reject(RelayError.from(error, tool, 'transport')));
    }
  });
}
