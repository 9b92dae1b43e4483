/**
 * The endpoint CLI clients talk to — a Unix socket, or a named pipe on Windows: one listener, many clients
 * at once, each a stream of length-prefixed JSON frames (the same codec as native messaging).
 *
 * Invariants:
 * - A Unix socket is born private: created under umask 0o177, then chmod 0600 (its directory is 0700).
 * - A named pipe has no modes to set, so every request must pass `admit` (the client's proof that it can
 *   read this user's secret, host-files secret.ts) before anything reads it; the first that does not ends
 *   its connection as a `refused` fault. The pipe name is the host's alone (Windows refuses a second
 *   server on a name in use) and vanishes with it: nothing to probe, unlink or compare beforehand.
 * - A live socket is never unlinked: an existing path is probed first, and only a refused connection
 *   proves it dead.
 * - On close the socket is unlinked only if the path still holds the inode we created. (libuv unlinks
 *   a pipe's path when its server closes, so when the path is no longer ours we must not close the
 *   server at all — it is just unref'd and dies with the process.)
 * - A client whose byte stream is corrupt is reported once and ignored afterwards; the handler decides
 *   what to answer before the connection is closed.
 *
 * Limits (SOCKET_LIMITS; a local client is a same-user process, but a careless or hostile one must not
 * take the host down or eat the machine's memory):
 * - One request frame is at most MAX_SOCKET_REQUEST_BYTES (anything larger could never be forwarded
 *   through Chrome's 1 MiB anyway) and nests at most MAX_REQUEST_DEPTH levels.
 * - All connections together hold at most `maxPendingBytes` of unfinished frames; the connection whose
 *   chunk goes over is answered (overloaded) and closed, and its bytes are let go at once.
 * - Backpressure: each request gets exactly one response, so dispatched − answered = calls in flight.
 *   A connection with `maxInFlight` calls in flight, or whose unread responses exceed `writeHighWaterBytes`,
 *   is not read any further until that drops: its requests wait in the kernel, not in our memory.
 * - A connection with nothing in flight that delivers no complete frame for `idleMs` is closed (answered
 *   first when it left half a frame); so is one that leaves our answers unread for `idleMs` (dropped: it
 *   is not reading them anyway).
 */
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import {
  encodeFrame,
  FrameDecoder,
  MAX_REQUEST_DEPTH,
  MAX_SOCKET_FRAME_BYTES,
  MAX_SOCKET_REQUEST_BYTES,
  type ClientResponse,
} from '@chrome-relay/protocol';
import { listenPrivate, needsProof, probeSocket } from '@chrome-relay/host-files';
import type { Log } from './log.js';
import type { ClientFault, ClientPort } from './relay.js';

export interface SocketHandlers {
  onMessage(client: ClientPort, raw: unknown): void;
  /** The connection cannot go on (corrupt stream, over a limit, idle mid-frame): answer, then close it. */
  onFrameFault(client: ClientPort, fault: ClientFault): void;
  onClose(client: ClientPort): void;
}

export interface SocketLimits {
  /** Largest request frame. */
  maxRequestBytes: number;
  /** Deepest nesting of a request. */
  maxRequestDepth: number;
  /** Bytes of unfinished frames held across all connections. */
  maxPendingBytes: number;
  /** Calls in flight per connection before it is no longer read. */
  maxInFlight: number;
  /** Unread response bytes per connection before it is no longer read. */
  writeHighWaterBytes: number;
  /** A connection with nothing in flight and no complete frame for this long is closed. */
  idleMs: number;
}

export const SOCKET_LIMITS: Readonly<SocketLimits> = {
  maxRequestBytes: MAX_SOCKET_REQUEST_BYTES,
  maxRequestDepth: MAX_REQUEST_DEPTH,
  // Sixteen requests of Chrome's maximum size arriving at once; the CLI writes a request in one go, so only
  // a stalled or hostile client keeps bytes here for long.
  maxPendingBytes: 16 * MAX_SOCKET_REQUEST_BYTES,
  // The CLI sends one request per connection; a client that pipelines gets this many at a time.
  maxInFlight: 16,
  writeHighWaterBytes: 1024 * 1024,
  // The CLI writes its request right after connecting and then always has a call in flight.
  idleMs: 30_000,
};

export interface SocketServer {
  readonly path: string;
  readonly clientCount: number;
  /** Stop accepting, let every client flush and close (at most `graceMs`), unlink the socket if still ours. */
  close(graceMs?: number): Promise<void>;
}

export { probeSocket } from '@chrome-relay/host-files';

/** Whether a request may be read: true for every request on a Unix socket, only for proven ones on a pipe. */
export type Admit = (raw: unknown) => boolean;

export async function listenSocket(path: string, handlers: SocketHandlers, log: Log, limits: Readonly<SocketLimits> = SOCKET_LIMITS, admit: Admit = () => true): Promise<SocketServer> {
  const pipe = needsProof(path);
  if (!pipe) await clearStalePath(path);

  const clients = new Set<Socket>();
  const budget: PendingBudget = { held: 0, limit: limits.maxPendingBytes };
  const server = createServer((socket) => {
    clients.add(socket);
    attachClient(socket, { handlers, log, limits, budget, admit }, () => clients.delete(socket));
  });

  await listenPrivate(server, path, pipe);
  server.on('error', (error) => log(`socket server error: ${error.message}`));
  if (!pipe) chmodSync(path, 0o600);
  const created = pipe ? null : lstatSync(path);

  const isStillOurs = (): boolean => {
    if (created === null) return true;
    try {
      const now = lstatSync(path);
      return now.isSocket() && now.ino === created.ino && now.dev === created.dev;
    } catch {
      return false;
    }
  };

  let closing: Promise<void> | null = null;
  return {
    path,
    get clientCount() {
      return clients.size;
    },
    close(graceMs = 1000) {
      closing ??= (async () => {
        const ours = isStillOurs();
        const stopped = ours ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
        if (!ours) {
          log(`socket ${path} was replaced by another file; leaving it in place`);
          server.unref();
        }
        await endAll(clients, graceMs);
        await stopped;
        if (ours && isStillOurs()) unlinkQuietly(path);
      })();
      return closing;
    },
  };
}

async function clearStalePath(path: string): Promise<void> {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!stat.isSocket()) {
    throw new Error(`${path} exists and is not a socket; remove it and restart the browser.`);
  }
  if ((await probeSocket(path)) === 'live') {
    throw new Error(`another process is listening on ${path}; refusing to replace a live socket.`);
  }
  unlinkQuietly(path);
}

/** How long a connection we hung up on may take to read our last answer and close its side. */
const CLOSE_GRACE_MS = 5_000;

/** Bytes of unfinished frames held across all connections. */
interface PendingBudget {
  held: number;
  readonly limit: number;
}

interface ClientContext {
  handlers: SocketHandlers;
  log: Log;
  limits: Readonly<SocketLimits>;
  budget: PendingBudget;
  admit: Admit;
}

function attachClient(socket: Socket, context: ClientContext, forget: () => void): void {
  const { handlers, log, limits, budget, admit } = context;
  let decoder = new FrameDecoder(limits.maxRequestBytes, limits.maxRequestDepth);
  /** Decoded requests not yet handed to the relay (at most one chunk's worth: reading stops meanwhile). */
  const queue: unknown[] = [];
  let open = true;
  let corrupt = false;
  let held = 0;
  let inFlight = 0;
  let idleTimer: ReturnType<typeof setTimeout> | null = null;
  /** Runs while our answers wait unread; a peer that reads none of them for idleMs is let go. */
  let stallTimer: ReturnType<typeof setTimeout> | null = null;

  const release = (): void => {
    budget.held -= held;
    held = 0;
  };
  const blocked = (): boolean => inFlight >= limits.maxInFlight || socket.writableLength > limits.writeHighWaterBytes;

  const port: ClientPort = {
    send(response: ClientResponse) {
      const frame = encodeFrame(response, MAX_SOCKET_FRAME_BYTES);
      inFlight = Math.max(0, inFlight - 1);
      if (open) socket.write(frame);
      if (inFlight === 0 && queue.length === 0) armIdle();
      // Deferred: the relay may answer from inside dispatch(), which must not re-enter itself.
      queueMicrotask(flow);
    },
    close() {
      if (!open) return;
      open = false;
      clearIdle();
      socket.end();
      // end() waits for the peer to close its side and for our answer to be read; a peer that does
      // neither must not keep the descriptor (or its unread answer) forever.
      setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
    },
  };

  const fault = (problem: ClientFault): void => {
    if (corrupt) return;
    corrupt = true;
    queue.length = 0;
    release();
    // Nothing more is read from this stream: what the old decoder buffered can be collected now.
    decoder = new FrameDecoder(0);
    handlers.onFrameFault(port, problem);
  };

  function clearIdle(): void {
    if (idleTimer !== null) clearTimeout(idleTimer);
    idleTimer = null;
  }

  /**
   * (Re)start the idle clock: at connect, on each complete frame and on each answer. Partial bytes do not
   * count (a client trickling one byte at a time is idle), and nothing in flight is ever idle: a call in
   * flight always ends in an answer.
   */
  function armIdle(): void {
    clearIdle();
    if (!open || corrupt || inFlight > 0) return;
    idleTimer = setTimeout(() => {
      idleTimer = null;
      if (!open || corrupt || inFlight > 0) return;
      if (held > 0) {
        fault({ kind: 'idle', idleMs: limits.idleMs, pendingBytes: held });
        return;
      }
      port.close();
    }, limits.idleMs);
    idleTimer.unref();
  }

  /** Hand queued requests to the relay while the connection is not blocked; read more only when drained. */
  function flow(): void {
    while (open && !corrupt && queue.length > 0 && !blocked()) {
      const raw = queue.shift();
      if (!admit(raw)) {
        log("refused a client: its request did not prove it can read this user's secret");
        fault({ kind: 'refused' });
        return;
      }
      inFlight++;
      handlers.onMessage(port, raw);
    }
    if (!open || corrupt) return;
    if (queue.length > 0 || blocked()) socket.pause();
    else socket.resume();
    if (inFlight > 0) clearIdle();
    watchStall();
  }

  function watchStall(): void {
    const unread = socket.writableLength > limits.writeHighWaterBytes;
    if (!unread) {
      if (stallTimer !== null) clearTimeout(stallTimer);
      stallTimer = null;
      return;
    }
    if (stallTimer !== null) return;
    stallTimer = setTimeout(() => {
      stallTimer = null;
      if (socket.writableLength <= limits.writeHighWaterBytes) return;
      log(`dropping a client that left ${socket.writableLength} bytes of answers unread for ${limits.idleMs} ms`);
      socket.destroy();
    }, limits.idleMs);
    stallTimer.unref();
  }

  socket.on('data', (chunk: Buffer) => {
    if (corrupt || !open) return;
    const frames = decoder.decode(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    budget.held += decoder.pendingBytes - held;
    held = decoder.pendingBytes;
    for (const frame of frames) {
      if ('fault' in frame) {
        fault(frame.fault);
        return;
      }
      queue.push(frame.message);
    }
    if (budget.held > budget.limit) {
      fault({ kind: 'overloaded', pendingBytes: budget.held, limit: budget.limit });
      return;
    }
    if (frames.length > 0) armIdle();
    flow();
  });
  socket.on('drain', flow);
  // 'close' always follows 'error', so errors are only logged here.
  socket.on('error', (error) => log(`client socket error: ${error.message}`));
  socket.on('close', () => {
    open = false;
    clearIdle();
    if (stallTimer !== null) clearTimeout(stallTimer);
    release();
    queue.length = 0;
    forget();
    handlers.onClose(port);
  });
  armIdle();
}

function endAll(clients: Set<Socket>, graceMs: number): Promise<void> {
  if (clients.size === 0) return Promise.resolve();
  const closed = [...clients].map((socket) => new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.end();
  }));
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      // A client that does not read its responses must not hold the browser's exit hostage.
      for (const socket of clients) socket.destroy();
      resolve();
    }, graceMs);
    void Promise.all(closed).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
