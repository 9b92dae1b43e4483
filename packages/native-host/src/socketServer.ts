/**
 * The Unix socket CLI clients talk to: one listening socket, many clients at once, each a stream of
 * length-prefixed JSON frames (the same codec as native messaging).
 *
 * Invariants:
 * - The socket is born private: created under umask 0o177, then chmod 0600 (its directory is 0700).
 * - A live socket is never unlinked: an existing path is probed first, and only a refused connection
 *   proves it dead.
 * - On close the socket is unlinked only if the path still holds the inode we created. (libuv unlinks
 *   a pipe's path when its server closes, so when the path is no longer ours we must not close the
 *   server at all — it is just unref'd and dies with the process.)
 * - A client whose byte stream is corrupt is reported once and ignored afterwards; the handler decides
 *   what to answer before the connection is closed.
 */
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import {
  encodeFrame,
  FrameDecodeError,
  FrameDecoder,
  MAX_SOCKET_FRAME_BYTES,
  type ClientResponse,
  type FrameError,
} from '@chrome-relay/protocol';
import { probeSocket } from '@chrome-relay/host-files';
import type { Log } from './log.js';
import type { ClientPort } from './relay.js';

export interface SocketHandlers {
  onMessage(client: ClientPort, raw: unknown): void;
  onFrameFault(client: ClientPort, fault: FrameError): void;
  onClose(client: ClientPort): void;
}

export interface SocketServer {
  readonly path: string;
  readonly clientCount: number;
  /** Stop accepting, let every client flush and close (at most `graceMs`), unlink the socket if still ours. */
  close(graceMs?: number): Promise<void>;
}

export { probeSocket } from '@chrome-relay/host-files';

export async function listenSocket(path: string, handlers: SocketHandlers, log: Log): Promise<SocketServer> {
  await clearStalePath(path);

  const clients = new Set<Socket>();
  const server = createServer((socket) => {
    clients.add(socket);
    attachClient(socket, handlers, log, () => clients.delete(socket));
  });

  const previousUmask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ path, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(previousUmask);
  }
  server.on('error', (error) => log(`socket server error: ${error.message}`));
  chmodSync(path, 0o600);
  const created = lstatSync(path);

  const isStillOurs = (): boolean => {
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

function attachClient(socket: Socket, handlers: SocketHandlers, log: Log, forget: () => void): void {
  const decoder = new FrameDecoder(MAX_SOCKET_FRAME_BYTES);
  let open = true;
  let corrupt = false;

  const port: ClientPort = {
    send(response: ClientResponse) {
      const frame = encodeFrame(response, MAX_SOCKET_FRAME_BYTES);
      if (open) socket.write(frame);
    },
    close() {
      if (!open) return;
      open = false;
      socket.end();
    },
  };

  socket.on('data', (chunk: Buffer) => {
    if (corrupt) return;
    let messages: unknown[];
    try {
      messages = decoder.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    } catch (error) {
      if (!(error instanceof FrameDecodeError)) throw error;
      corrupt = true;
      handlers.onFrameFault(port, error.fault);
      return;
    }
    for (const raw of messages) {
      if (!open) return;
      handlers.onMessage(port, raw);
    }
  });
  // 'close' always follows 'error', so errors are only logged here.
  socket.on('error', (error) => log(`client socket error: ${error.message}`));
  socket.on('close', () => {
    open = false;
    forget();
    handlers.onClose(port);
  });
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
