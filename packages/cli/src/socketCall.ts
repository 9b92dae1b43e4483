/**
 * One request to one known host socket. `doctor` and `update` talk to every live host in turn, including
 * several default-profile hosts of different browsers (all with profile null), which discovery by profile
 * in hostClient.ts cannot tell apart — so they address hosts by socket path.
 * Failures map onto the same closed codes as hostClient: nothing listening → extension_not_connected,
 * the host hung up mid-call → native_host_disconnected, no answer → timeout.
 */
import { connect, type Socket } from 'node:net';
import { homedir } from 'node:os';
import { currentPlatform, proofForEndpoint } from '@chrome-relay/host-files';
import {
  asInterrupted,
  ClientResponseSchema,
  FrameDecoder,
  MAX_SOCKET_FRAME_BYTES,
  PROTOCOL_VERSION,
  reasonedError,
  RelayError,
  toolLabel,
  VERSION,
  encodeFrame,
  type ClientResponse,
} from '@chrome-relay/protocol';
import { isRecord, isSameBuild } from './sameBuild.js';

/** Envelope fields beside the params (targeting and the agent identity for leases). */
export interface CallEnvelope {
  target?: { tab?: number | undefined; workspace?: string | undefined; group?: string | undefined } | undefined;
  agent?: string | undefined;
  /** A snapshot right after the tool, in the same call (protocol messages.ts). */
  snapshot?: Record<string, unknown> | undefined;
  /** Present no proof of this user's secret even to a host on a named pipe (doctor checks that it refuses such a call). */
  withoutProof?: boolean | undefined;
}

/**
 * What a host on a named pipe wants to see: the proof that this client can read the user's secret
 * (host-files secret.ts). A Unix socket wants none: its file modes decide who connects.
 */
export function proofFor(endpoint: string, tool: string): string | undefined {
  const user = { env: process.env, userHome: homedir() };
  try {
    return proofForEndpoint(endpoint, user) ?? undefined;
  } catch (error) {
    const file = currentPlatform().secretFile(user);
    throw reasonedError('extension_not_connected', 'client_not_authorized', `Cannot read this user's chrome-relay secret (${file ?? 'none'}): ${(error as Error).message}. The host at ${endpoint} answers no client without it: run chrome-relay as the user whose browser runs the host; if you are that user, run \`chrome-relay doctor\`.`, {
      tool,
      phase: 'connect',
      details: { socket: endpoint, secret: file },
    });
  }
}

/** The host's answer: as is from a host of this build, else checked by the schema (sameBuild.ts); undefined when unreadable. */
export function readResponse(message: unknown): ClientResponse | undefined {
  if (isRecord(message) && isRecord(message.versions) && isSameBuild(message.versions.host) && typeof message.id === 'number' && typeof message.ok === 'boolean') {
    return message as ClientResponse;
  }
  const parsed = ClientResponseSchema().safeParse(message);
  return parsed.success ? parsed.data : undefined;
}

/** The request frame of one call to the host at `endpoint` (the CLI's one-shot socket and the MCP server's persistent one). */
export function callRequest(endpoint: string, id: number, tool: string, params: Record<string, unknown>, timeoutMs: number, envelope: CallEnvelope) {
  const auth = envelope.withoutProof === true ? undefined : proofFor(endpoint, tool);
  return requestFrame(id, tool, params, timeoutMs, envelope, auth === undefined ? {} : { auth });
}

/**
 * A call's request as every road sends it (to a local host here, through a link in remote/linkClient.ts): the call,
 * this build's versions, the envelope's fields that are set, and the road's own fields (`auth`, `profile`) last.
 */
export function requestFrame(id: number, tool: string, params: Record<string, unknown>, timeoutMs: number, envelope: CallEnvelope, road: Record<string, unknown>): { id: number } & Record<string, unknown> {
  return {
    id,
    tool,
    params,
    timeoutMs,
    client: { version: VERSION, protocolVersion: PROTOCOL_VERSION },
    ...(envelope.target === undefined ? {} : { target: envelope.target }),
    ...(envelope.agent === undefined ? {} : { agent: envelope.agent }),
    ...(envelope.snapshot === undefined ? {} : { snapshot: envelope.snapshot }),
    ...road,
  };
}

/** A connected socket, or the error of the one attempt. */
export function connectOnce(path: string): Promise<Socket | NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error));
  });
}

/** A connected socket, or null when nothing listens there (a host that just died). */
export async function connectTo(path: string): Promise<Socket | null> {
  const connected = await connectOnce(path);
  return connected instanceof Error ? null : connected;
}

/**
 * What a failed exchange says about its far end: the host of this machine (hostPeer), or a link to a bridge on the
 * person's machine (remote/linkClient.ts), whose losses mean other things and call for other moves.
 */
export interface Peer {
  /** Nothing answers at the socket: the call never started. */
  unreachable(tool: string, error: NodeJS.ErrnoException): RelayError;
  /** The connection closed before the answer. */
  lost(tool: string): RelayError;
  /** No answer by the call's deadline (plus the margin that lets the far end's own timeout answer first). */
  silent(tool: string, timeoutMs: number): RelayError;
  /** What came back is not an answer this CLI can read. */
  unreadable(tool: string, problem: string): RelayError;
}

/** The host of this machine at `socketPath`. */
export function hostPeer(socketPath: string): Peer {
  return {
    unreachable: (tool, error) =>
      reasonedError('extension_not_connected', 'no_host', `Nothing answers on ${socketPath} (${error.code ?? error.message}): its host is gone. Retry in a moment; if no browser comes back, run \`chrome-relay doctor\` (ask the person to open their browser, or run \`chrome-relay launch\` for a dedicated one).`, { tool, phase: 'connect', details: { socket: socketPath, errno: error.code ?? null } }),
    // A host that exits on purpose answers first (relay.ts); a bare close means it died (killed, crashed).
    // Whether a new host comes depends on the browser: lostHost.ts says which when it knows the browser.
    lost: (tool) =>
      reasonedError(
        'native_host_disconnected',
        'host_exited',
        `The native host went away during ${toolLabel(tool)} without answering (it was killed or crashed, or its browser exited); while the browser runs, the extension starts a new host within a second: retry in a moment.`,
        { tool, phase: 'transport', details: { socket: socketPath, cause: 'host_died' } },
      ),
    silent: (tool, timeoutMs) =>
      reasonedError('timeout', 'host_unresponsive', `The host at ${socketPath} did not answer ${toolLabel(tool)} within ${timeoutMs} ms; run \`chrome-relay doctor\`.`, {
        tool,
        phase: 'transport',
        details: { socket: socketPath, timeoutMs },
      }),
    unreadable: (tool, problem) => new RelayError('internal_error', `The host at ${socketPath} ${problem}`, { tool, phase: 'transport' }),
  };
}

export function callSocket(socketPath: string, tool: string, params: Record<string, unknown>, timeoutMs: number, envelope: CallEnvelope = {}): Promise<ClientResponse> {
  let request: ReturnType<typeof callRequest>;
  try {
    request = callRequest(socketPath, 1, tool, params, timeoutMs, envelope);
  } catch (error) {
    return Promise.reject(error);
  }
  return exchange(connect(socketPath), false, request, tool, timeoutMs, hostPeer(socketPath));
}

/**
 * One request and its answer on `socket` (connecting, or `connected` already), then the socket is closed. Every
 * way it can fail is the peer's to word; a call cut off midway is reported as one that may have acted (interrupted.ts).
 */
export function exchange(socket: Socket, connected: boolean, request: { id: number }, tool: string, timeoutMs: number, peer: Peer): Promise<ClientResponse> {
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
    // The far end enforces timeoutMs itself; the margin lets its own timeout answer arrive first.
    const timer = setTimeout(() => finish(() => reject(asInterrupted(peer.silent(tool, timeoutMs)))), timeoutMs + 1000);
    const send = (): void => {
      connected = true;
      try {
        socket.write(encodeFrame(request, MAX_SOCKET_FRAME_BYTES));
      } catch (error) {
        finish(() => reject(RelayError.from(error, tool, 'transport')));
      }
    };
    if (connected) send();
    else socket.once('connect', send);
    socket.on('data', (chunk: Buffer) => {
      let messages: unknown[];
      try {
        messages = decoder.push(chunk);
      } catch (error) {
        finish(() => reject(peer.unreadable(tool, `sent a malformed frame: ${(error as Error).message}`)));
        return;
      }
      for (const message of messages) {
        const response = readResponse(message);
        if (response === undefined) {
          finish(() => reject(peer.unreadable(tool, 'sent a response this CLI cannot read (version skew?); run `chrome-relay update`.')));
          return;
        }
        // id 0 is the answer to a request the far end could not read (relay.ts clientFrameFault): ours.
        if (response.id === request.id || (response.id === 0 && !response.ok)) finish(() => resolve(response));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (connected) return; // 'close' follows and reports it
      finish(() => reject(peer.unreachable(tool, error)));
    });
    socket.on('close', () => finish(() => reject(asInterrupted(peer.lost(tool)))));
  });
}
