/**
 * One persistent socket to the host, for a long-lived client (the MCP server): calls are multiplexed
 * on it by id (the host answers each id once, in any order), so a call costs a frame each way instead
 * of a process start and a connect. The host is found the way every CLI call finds it (hostClient.ts)
 * on the first call and again after its socket closed — a browser that restarted or a host that was
 * replaced is picked up by the next call, with no restart of the client.
 *
 * Failures map onto the same closed codes as a CLI call: no host → extension_not_connected; the host
 * went away with calls in flight → native_host_disconnected (mutating calls non-retryable, interrupted.ts);
 * no answer in time → timeout. Closing the session (its client went away) fails the calls still in
 * flight the same way, and every later call at once: nothing it opened keeps the process alive.
 */
import type { Socket } from 'node:net';
import {
  asInterrupted,
  encodeFrame,
  FrameDecoder,
  MAX_SOCKET_FRAME_BYTES,
  reasonedError,
  RelayError,
  toolLabel,
  type ClientResponse,
  type HostDescriptor,
} from '@chrome-relay/protocol';
import { notConnected, pickHost, RECONNECT_WAIT_MS, recentlyActive } from '../hostClient.js';
import { explainLostHost, explainLostHostResponse } from '../lostHost.js';
import type { Endpoint } from '../remote/endpoint.js';
import { linkLost, linkPeer, linkRequest, linkSocketOf, openLink } from '../remote/linkClient.js';
import { callRequest, connectTo, hostPeer, readResponse, type CallEnvelope } from '../socketCall.js';

/** How long the first call waits for a link to open (a holder to start, ssh to log in, the far bridge to start). */
const LINK_OPEN_MS = 15_000;

interface Pending {
  tool: string;
  /** The connection the call went out on: only its loss fails the call. */
  connection: Connection;
  resolve(response: ClientResponse): void;
  reject(error: unknown): void;
  timer: ReturnType<typeof setTimeout>;
}

interface Connection {
  socket: Socket;
  path: string;
  decoder: FrameDecoder;
  /** The host's descriptor: whose browser to look at when it goes (lostHost.ts); null through an endpoint, whose bridge looks. */
  host: HostDescriptor | null;
}

export interface HostSessionOptions {
  home: string;
  profile?: string | undefined;
  /** The browser is elsewhere (CHROME_RELAY_ENDPOINT, --endpoint): the session is one link to its bridge (remote/linkClient.ts). */
  endpoint?: Endpoint | undefined;
}

export class HostSession {
  private connection: Promise<Connection> | undefined;
  /** The connected socket, once there is one: what close() destroys. */
  private live: Connection | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private profile: string | undefined;

  constructor(private readonly options: HostSessionOptions) {
    this.profile = options.profile;
  }

  /** From now on, the host of this browser profile only (the browser this session started: browser on demand). */
  useProfile(profile: string): void {
    this.profile = profile;
  }

  async call(tool: string, params: Record<string, unknown>, timeoutMs: number, envelope: CallEnvelope = {}): Promise<ClientResponse> {
    if (this.closed) throw sessionClosed(tool);
    const connection = await this.connected(tool);
    if (this.closed) throw sessionClosed(tool);
    const id = this.nextId++;
    const endpoint = this.options.endpoint;
    const request = endpoint === undefined ? callRequest(connection.path, id, tool, params, timeoutMs, envelope) : linkRequest(id, tool, params, timeoutMs, { ...envelope, profile: this.options.profile });
    return new Promise<ClientResponse>((resolve, reject) => {
      // The host enforces timeoutMs itself; the margin lets its own timeout answer arrive first.
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(asInterrupted((endpoint === undefined ? hostPeer(connection.path) : linkPeer(endpoint)).silent(tool, timeoutMs)));
      }, timeoutMs + 1000);
      this.pending.set(id, { tool, connection, resolve, reject, timer });
      try {
        connection.socket.write(encodeFrame(request, MAX_SOCKET_FRAME_BYTES));
      } catch (error) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(RelayError.from(error, tool, 'transport'));
      }
    });
  }

  /** End the session: calls in flight fail (native_host_disconnected, cause client_closed), later ones at once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const open = new Set([...this.pending.values()].map((call) => call.connection));
    if (this.live) open.add(this.live);
    for (const connection of open) this.fail(connection, sessionClosed);
    // A connection still being opened sees `closed` and drops its socket (open()).
    this.connection = undefined;
  }

  private connected(tool: string): Promise<Connection> {
    this.connection ??= this.open(tool).catch((error: unknown) => {
      this.connection = undefined;
      throw error;
    });
    return this.connection;
  }

  /** Find the host (waiting briefly while one is being restarted, like a CLI call) and connect to it. */
  private async open(tool: string): Promise<Connection> {
    const endpoint = this.options.endpoint;
    if (endpoint !== undefined) {
      const socket = await openLink(endpoint, this.options.home, tool, LINK_OPEN_MS);
      if (this.closed) {
        socket.destroy();
        throw sessionClosed(tool);
      }
      return this.attach(socket, null, linkSocketOf(this.options.home, endpoint));
    }
    const giveUpAt = Date.now() + (recentlyActive(this.options.home) ? RECONNECT_WAIT_MS : 0);
    for (;;) {
      if (this.closed) throw sessionClosed(tool);
      const host = pickHost(this.options.home, this.profile, tool);
      if (host) {
        const socket = await connectTo(host.socket);
        if (socket && this.closed) socket.destroy();
        else if (socket) return this.attach(socket, host, host.socket);
      }
      if (Date.now() >= giveUpAt) throw notConnected(tool, this.options.home, this.profile);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private attach(socket: Socket, host: HostDescriptor | null, path: string): Connection {
    const connection: Connection = { socket, path, decoder: new FrameDecoder(MAX_SOCKET_FRAME_BYTES), host };
    this.live = connection;
    socket.on('data', (chunk: Buffer) => {
      let messages: unknown[];
      try {
        messages = connection.decoder.push(chunk);
      } catch (error) {
        this.fail(connection, (tool) => new RelayError('internal_error', `Malformed frame from the host at ${path}: ${(error as Error).message}`, { tool, phase: 'transport' }));
        return;
      }
      for (const message of messages) {
        const response = readResponse(message);
        if (response === undefined) continue;
        const call = this.pending.get(response.id);
        if (!call) continue;
        // The link behind this connection is gone (its holder says so, then hangs up): the next call opens another.
        if (!response.ok && response.error.details.reason === 'link_lost' && this.live === connection) this.forget(connection);
        this.pending.delete(response.id);
        clearTimeout(call.timer);
        // A host that exits on purpose answers before it goes: what became of its browser is looked at here too.
        if (host !== null && !response.ok && response.error.code === 'native_host_disconnected') {
          explainLostHostResponse(response, host, this.options.home).then(call.resolve, call.reject);
        } else call.resolve(response);
      }
    });
    socket.on('error', () => undefined); // 'close' follows and reports it
    // A host that exits on purpose answers first (relay.ts); a bare close means it died (killed, crashed).
    const endpoint = this.options.endpoint;
    socket.on('close', () =>
      this.fail(connection, (tool) =>
        asInterrupted(
          endpoint !== undefined
            ? linkLost(endpoint, tool, 'the link to the person\'s machine closed before the answer came')
            : reasonedError(
                'native_host_disconnected',
                'host_exited',
                `The native host went away during ${toolLabel(tool)} without answering (it was killed or crashed); while the browser runs, the extension starts a new host within a second: retry in a moment.`,
                { tool, phase: 'transport', details: { socket: path, cause: 'host_died' } },
              ),
        ),
      ),
    );
    return connection;
  }

  /** New calls no longer go out on `connection` (calls on it still get their answers). */
  private forget(connection: Connection): void {
    if (this.live !== connection) return;
    this.live = undefined;
    this.connection = undefined;
  }

  /** The connection is done: every call on it fails, and the next call looks for the host again. */
  private fail(connection: Connection, error: (tool: string) => RelayError): void {
    connection.socket.destroy();
    this.forget(connection);
    for (const [id, call] of this.pending) {
      if (call.connection !== connection) continue;
      this.pending.delete(id);
      clearTimeout(call.timer);
      const failure = error(call.tool);
      const host = connection.host;
      if (host !== null && failure.code === 'native_host_disconnected') explainLostHost(failure, host, this.options.home).then(call.reject, call.reject);
      else call.reject(failure);
    }
  }
}

/** A call cut off, or refused, because the session's client went away. */
function sessionClosed(tool: string): RelayError {
  return asInterrupted(
    reasonedError(
      'native_host_disconnected',
      'client_closed',
      `${toolLabel(tool)} was cut off: the MCP client closed the session (its stdin ended) before the call answered. Nothing to do in this session; in a new one, check the page with \`chrome-relay snapshot\` before re-issuing a mutating call.`,
      { tool, phase: 'transport', details: { cause: 'client_closed' } },
    ),
  );
}

