/** A raw socket client for the host: writes any bytes, reads back whatever frames the host answers. */
import { readFileSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { encodeFrame, FrameDecoder, MAX_SOCKET_FRAME_BYTES, PROTOCOL_VERSION, VERSION } from '../../packages/protocol/src/index.js';

export interface RawClient {
  socket: Socket;
  /** Frames answered so far (parsed), in order. */
  answers: unknown[];
  /** Resolves when the host (or we) closed the connection. */
  closed: Promise<void>;
  isClosed(): boolean;
  /** When the connection closed (epoch ms), or null while open. */
  closedAt(): number | null;
  write(bytes: Uint8Array | string): void;
  /** The next answer, or null when none comes within `ms`. */
  next(ms: number): Promise<unknown>;
  destroy(): void;
}

export function connectRaw(path: string, options: { read?: boolean } = {}): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path });
    const decoder = new FrameDecoder(MAX_SOCKET_FRAME_BYTES);
    const answers: unknown[] = [];
    const waiters: ((answer: unknown) => void)[] = [];
    let closed = false;
    let closedAt: number | null = null;
    const closedPromise = new Promise<void>((r) => socket.once('close', () => {
      closed = true;
      closedAt = Date.now();
      for (const waiter of waiters.splice(0)) waiter(null);
      r();
    }));
    socket.on('error', () => undefined);
    if (options.read !== false) {
      socket.on('data', (chunk: Buffer) => {
        let messages: unknown[] = [];
        try {
          messages = decoder.push(new Uint8Array(chunk));
        } catch {
          messages = [{ undecodable: true }];
        }
        for (const message of messages) {
          answers.push(message);
          waiters.shift()?.(message);
        }
      });
    } else {
      socket.pause();
    }
    let consumed = 0;
    const client: RawClient = {
      socket,
      answers,
      closed: closedPromise,
      isClosed: () => closed,
      closedAt: () => closedAt,
      write: (bytes) => {
        if (!socket.destroyed) socket.write(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
      },
      next: (ms) => {
        if (consumed < answers.length) return Promise.resolve(answers[consumed++]);
        if (closed) return Promise.resolve(null);
        return new Promise((r) => {
          const timer = setTimeout(() => {
            waiters.splice(waiters.indexOf(done), 1);
            r(null);
          }, ms);
          const done = (answer: unknown): void => {
            clearTimeout(timer);
            if (answer !== null) consumed++;
            r(answer);
          };
          waiters.push(done);
        });
      },
      destroy: () => socket.destroy(),
    };
    socket.once('connect', () => resolve(client));
    socket.once('error', reject);
  });
}

/** A well-formed request frame. */
export function requestFrame(id: number, tool: string, params: Record<string, unknown> = {}, timeoutMs = 5000, extra: Record<string, unknown> = {}): Uint8Array {
  return encodeFrame({ id, tool, params, timeoutMs, client: { version: VERSION, protocolVersion: PROTOCOL_VERSION }, ...extra }, MAX_SOCKET_FRAME_BYTES);
}

/** A frame around arbitrary body bytes, with the length the header declares (default: the true one). */
export function rawFrame(body: Uint8Array | string, declared?: number): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
  const header = Buffer.alloc(4);
  header.writeUInt32LE(declared ?? bytes.length);
  return Buffer.concat([header, bytes]);
}

/** Host process resident memory (VmRSS) in MB. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 'NaN');
    return Math.round(kb / 1024);
  } catch {
    return Number.NaN;
  }
}
