import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  encodeFrame,
  FrameDecoder,
  HostDescriptorSchema,
  MAX_SOCKET_FRAME_BYTES,
  MAX_SOCKET_REQUEST_BYTES,
  type ClientResponse,
} from '@chrome-relay/protocol';
import { descriptorPath, ensurePrivateDir, preferredSocketPath, runDir } from './paths.js';
import { removeDescriptorIfOurs, writeDescriptor } from './descriptor.js';
import type { ClientFault, ClientPort } from './relay.js';
import { listenSocket, probeSocket, SOCKET_LIMITS, type SocketHandlers, type SocketLimits } from './socketServer.js';

const uid = process.getuid?.() ?? 0;
let home = '';

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cr-sock-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

function response(id: number, result: unknown): ClientResponse {
  return { id, ok: true, result, versions: { host: { version: '0.1.0', protocolVersion: 1 }, extension: null } };
}

/** Echo handlers: answer every message with itself, record faults and closes. */
function echo() {
  const faults: ClientFault[] = [];
  let closes = 0;
  const handlers: SocketHandlers = {
    onMessage: (client, raw) => client.send(response(1, raw)),
    onFrameFault: (client: ClientPort, fault) => {
      faults.push(fault);
      client.send(response(0, 'fault'));
      client.close();
    },
    onClose: () => {
      closes++;
    },
  };
  return { handlers, faults, closes: () => closes };
}

function connect(path: string): Promise<{ socket: Socket; next: () => Promise<unknown>; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path });
    const decoder = new FrameDecoder(MAX_SOCKET_FRAME_BYTES);
    const queue: unknown[] = [];
    const waiters: ((m: unknown) => void)[] = [];
    socket.on('data', (chunk: Buffer) => {
      for (const m of decoder.push(new Uint8Array(chunk))) {
        const waiter = waiters.shift();
        if (waiter) waiter(m);
        else queue.push(m);
      }
    });
    const ended = new Promise<void>((r) => socket.once('close', () => r()));
    const next = () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise<unknown>((r) => waiters.push(r)));
    socket.once('connect', () => resolve({ socket, next, ended }));
    socket.once('error', reject);
  });
}

describe('listenSocket', () => {
  it('creates a 0600 socket in a 0700 run dir, serves clients, and cleans up on close', async () => {
    const run = runDir(home);
    ensurePrivateDir(run, uid);
    const path = preferredSocketPath(run, 777);
    const { handlers } = echo();
    const server = await listenSocket(path, handlers, () => {});
    const descriptor = descriptorPath(run, 777);
    writeDescriptor(descriptor, {
      pid: 777,
      socket: path,
      startedAt: new Date(0).toISOString(),
      browserPid: 1,
      profile: null,
      origin: 'chrome-extension://nplipfneioajmjoiadbinnjjicindjlf/',
      host: { version: '0.1.0', protocolVersion: 1 },
      extension: { id: 'nplipfneioajmjoiadbinnjjicindjlf', version: '0.1.0', protocolVersion: 1 },
    });

    expect(statSync(run).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(descriptor).mode & 0o777).toBe(0o600);
    expect(HostDescriptorSchema().parse(JSON.parse(readFileSync(descriptor, 'utf8'))).socket).toBe(path);

    const a = await connect(path);
    const b = await connect(path);
    // Two frames in one write, and one frame split across writes.
    a.socket.write(Buffer.concat([encodeFrame({ n: 1 }, 100), encodeFrame({ n: 2 }, 100)]));
    const split = encodeFrame({ n: 3 }, 100);
    b.socket.write(split.subarray(0, 3));
    b.socket.write(split.subarray(3));
    expect(await a.next()).toMatchObject({ result: { n: 1 } });
    expect(await a.next()).toMatchObject({ result: { n: 2 } });
    expect(await b.next()).toMatchObject({ result: { n: 3 } });
    expect(server.clientCount).toBe(2);

    await server.close();
    await Promise.all([a.ended, b.ended]);
    expect(removeDescriptorIfOurs(descriptor, 777)).toBe(true);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(descriptor)).toBe(false);
  });

  it('reports an oversize frame to the handler, which answers and closes only that client', async () => {
    const run = runDir(home);
    ensurePrivateDir(run, uid);
    const { handlers, faults } = echo();
    const server = await listenSocket(preferredSocketPath(run, 1), handlers, () => {});
    const bad = await connect(server.path);
    const good = await connect(server.path);
    const header = Buffer.alloc(4);
    header.writeUInt32LE(MAX_SOCKET_REQUEST_BYTES + 1);
    bad.socket.write(header);
    expect(await bad.next()).toMatchObject({ id: 0, result: 'fault' });
    await bad.ended;
    expect(faults).toEqual([{ kind: 'oversize', bytes: MAX_SOCKET_REQUEST_BYTES + 1, limit: MAX_SOCKET_REQUEST_BYTES }]);
    good.socket.write(encodeFrame({ still: 'here' }, 100));
    expect(await good.next()).toMatchObject({ result: { still: 'here' } });
    await server.close();
  });

  it('replaces a dead socket file but refuses a live one or a non-socket', async () => {
    const run = runDir(home);
    ensurePrivateDir(run, uid);
    const path = preferredSocketPath(run, 2);
    const { handlers } = echo();

    // A live listener at the path must survive.
    const other = createServer();
    await new Promise<void>((r) => other.listen(path, r));
    await expect(listenSocket(path, handlers, () => {})).rejects.toThrow(/live socket/);
    expect(await probeSocket(path)).toBe('live');

    // A crashed host leaves a socket file nobody listens on. libuv unlinks the path on close, so
    // move the file aside while closing and put it back.
    await new Promise<void>((r) => other.close(() => r()));
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(path, r));
    renameSync(path, `${path}.aside`);
    await new Promise<void>((r) => dead.close(() => r()));
    renameSync(`${path}.aside`, path);
    expect(await probeSocket(path)).toBe('dead');
    const server = await listenSocket(path, handlers, () => {});
    expect(await probeSocket(path)).toBe('live');
    await server.close();

    writeFileSync(path, 'not a socket');
    await expect(listenSocket(path, handlers, () => {})).rejects.toThrow(/not a socket/);
  });

  it('does not unlink the path on close when another file replaced our socket', async () => {
    const run = runDir(home);
    ensurePrivateDir(run, uid);
    const path = preferredSocketPath(run, 3);
    const logs: string[] = [];
    const server = await listenSocket(path, echo().handlers, (l) => logs.push(l));
    rmSync(path);
    writeFileSync(path, 'successor');
    await server.close();
    expect(readFileSync(path, 'utf8')).toBe('successor');
    expect(logs.join()).toMatch(/replaced/);
  });
});

describe('listenSocket with a gate (a named pipe wants a proof of the user\'s secret)', () => {
  it('reads nothing of a request without the proof: the connection is refused and closed, others go on', async () => {
    const run = runDir(home);
    ensurePrivateDir(run, uid);
    const seen: unknown[] = [];
    const { handlers, faults } = echo();
    const logs: string[] = [];
    const gated: SocketHandlers = { ...handlers, onMessage: (client, raw) => (seen.push(raw), handlers.onMessage(client, raw)) };
    const server = await listenSocket(preferredSocketPath(run, 4), gated, (l) => logs.push(l), SOCKET_LIMITS, (raw) => (raw as { auth?: unknown }).auth === 'proof');
    const stranger = await connect(server.path);
    const friend = await connect(server.path);
    stranger.socket.write(Buffer.concat([encodeFrame({ tool: 'status', auth: 'guess' }, 200), encodeFrame({ tool: 'status', auth: 'proof' }, 200)]));
    expect(await stranger.next()).toMatchObject({ id: 0, result: 'fault' });
    await stranger.ended;
    expect(faults).toEqual([{ kind: 'refused' }]);
    expect(logs.join()).toMatch(/refused a client/);
    friend.socket.write(encodeFrame({ tool: 'status', auth: 'proof' }, 200));
    expect(await friend.next()).toMatchObject({ result: { tool: 'status', auth: 'proof' } });
    // Not even the proven request that followed the stranger's first one on its connection was read.
    expect(seen).toEqual([{ tool: 'status', auth: 'proof' }]);
    await server.close();
  });
});

describe('listenSocket limits', () => {
  const limits = (overrides: Partial<SocketLimits>): SocketLimits => ({ ...SOCKET_LIMITS, ...overrides });
  const until = async (check: () => boolean, what: string): Promise<void> => {
    const deadline = Date.now() + 3000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const partialFrame = (declared: number, sent: number): Buffer => {
    const header = Buffer.alloc(4);
    header.writeUInt32LE(declared);
    return Buffer.concat([header, Buffer.alloc(sent, 0x20)]);
  };

  async function serve(overrides: Partial<SocketLimits>, handlers = echo().handlers) {
    const run = runDir(home);
    ensurePrivateDir(run, uid);
    return listenSocket(preferredSocketPath(run, 9), handlers, () => {}, limits(overrides));
  }

  it('caps the bytes of unfinished frames across connections: the one going over is answered and let go', async () => {
    const { handlers, faults } = echo();
    const server = await serve({ maxPendingBytes: 100_000 }, handlers);
    const a = await connect(server.path);
    const b = await connect(server.path);
    a.socket.write(partialFrame(200_000, 60_000));
    await new Promise((r) => setTimeout(r, 50));
    b.socket.write(partialFrame(200_000, 60_000));
    expect(await b.next()).toMatchObject({ id: 0, result: 'fault' });
    await b.ended;
    expect(faults).toEqual([{ kind: 'overloaded', pendingBytes: expect.any(Number), limit: 100_000 }]);
    // b's bytes were released: a third connection fits, and a finishes its frame.
    const c = await connect(server.path);
    c.socket.write(encodeFrame({ c: 1 }, 100));
    expect(await c.next()).toMatchObject({ result: { c: 1 } });
    await server.close();
  });

  it('stops reading a connection with too many calls in flight, and reads on as they are answered', async () => {
    const parked: ClientPort[] = [];
    let seen = 0;
    const handlers: SocketHandlers = {
      onMessage: (client) => {
        seen++;
        parked.push(client);
      },
      onFrameFault: () => undefined,
      onClose: () => undefined,
    };
    const server = await serve({ maxInFlight: 3 }, handlers);
    const client = await connect(server.path);
    client.socket.write(Buffer.concat(Array.from({ length: 10 }, (_, i) => encodeFrame({ i }, 100))));
    await until(() => seen === 3, '3 dispatched');
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toBe(3);
    parked.shift()?.send(response(1, 'done'));
    await until(() => seen === 4, 'a 4th dispatched after one answer');
    await server.close();
  });

  it('stops reading a connection whose answers are not being read (backpressure)', async () => {
    let seen = 0;
    const big = 'x'.repeat(256 * 1024);
    const handlers: SocketHandlers = {
      onMessage: (client) => {
        seen++;
        client.send(response(1, big));
      },
      onFrameFault: () => undefined,
      onClose: () => undefined,
    };
    const server = await serve({ writeHighWaterBytes: 512 * 1024 }, handlers);
    const client = await connect(server.path);
    client.socket.pause(); // never reads
    const frame = encodeFrame({ tool: 'tabs' }, 100);
    for (let i = 0; i < 2000; i++) client.socket.write(frame);
    await new Promise((r) => setTimeout(r, 300));
    // Without backpressure all 2,000 answers (500 MB) would be queued; with it, a handful.
    expect(seen).toBeLessThan(100);
    client.socket.destroy();
    await server.close();
  });

  it('lets go of a client that leaves its answers unread for idleMs', async () => {
    const big = 'x'.repeat(256 * 1024);
    const handlers: SocketHandlers = { onMessage: (client) => client.send(response(1, big)), onFrameFault: () => undefined, onClose: () => undefined };
    const logs: string[] = [];
    const run = runDir(home);
    ensurePrivateDir(run, uid);
    const server = await listenSocket(preferredSocketPath(run, 9), handlers, (l) => logs.push(l), limits({ writeHighWaterBytes: 512 * 1024, idleMs: 150 }));
    const client = await connect(server.path);
    client.socket.pause();
    const frame = encodeFrame({ tool: 'tabs' }, 100);
    for (let i = 0; i < 100; i++) client.socket.write(frame);
    await until(() => server.clientCount === 0, 'the stalled client gone');
    expect(logs.join()).toMatch(/unread for 150 ms/);
    client.socket.destroy();
    await server.close();
  });

  it('closes a connection idle without a frame, and answers one left half-sent', async () => {
    const { handlers, faults } = echo();
    const server = await serve({ idleMs: 100 }, handlers);
    const silent = await connect(server.path);
    const trickle = await connect(server.path);
    const busy = await connect(server.path);
    trickle.socket.write(partialFrame(50, 10));
    busy.socket.write(encodeFrame({ n: 1 }, 100));
    expect(await busy.next()).toMatchObject({ result: { n: 1 } });
    await silent.ended;
    expect(await trickle.next()).toMatchObject({ id: 0, result: 'fault' });
    await trickle.ended;
    expect(faults).toEqual([{ kind: 'idle', idleMs: 100, pendingBytes: 14 }]); // header included
    await busy.ended;
    await until(() => server.clientCount === 0, 'every idle connection gone');
    await server.close();
  });

  it('never closes a connection with a call in flight, however long it takes', async () => {
    let parked: ClientPort | undefined;
    const handlers: SocketHandlers = { onMessage: (client) => void (parked = client), onFrameFault: () => undefined, onClose: () => undefined };
    const server = await serve({ idleMs: 50 }, handlers);
    const client = await connect(server.path);
    client.socket.write(encodeFrame({ slow: true }, 100));
    await new Promise((r) => setTimeout(r, 250));
    expect(server.clientCount).toBe(1);
    parked?.send(response(7, 'late'));
    expect(await client.next()).toMatchObject({ id: 7 });
    await client.ended;
    await server.close();
  });

  it('answers a request nested too deep and closes that connection only', async () => {
    const { handlers, faults } = echo();
    const server = await serve({}, handlers);
    const client = await connect(server.path);
    const body = Buffer.from(`{"params":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    const header = Buffer.alloc(4);
    header.writeUInt32LE(body.length);
    client.socket.write(Buffer.concat([header, body]));
    expect(await client.next()).toMatchObject({ id: 0, result: 'fault' });
    expect(faults).toEqual([{ kind: 'too_deep', limit: SOCKET_LIMITS.maxRequestDepth }]);
    await server.close();
  });
});
