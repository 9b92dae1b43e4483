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
  type ClientResponse,
  type FrameError,
} from '@chrome-relay/protocol';
import { descriptorPath, ensurePrivateDir, runDir, socketPath } from './paths.js';
import { removeDescriptorIfOurs, writeDescriptor } from './descriptor.js';
import type { ClientPort } from './relay.js';
import { listenSocket, probeSocket, type SocketHandlers } from './socketServer.js';

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
  const faults: FrameError[] = [];
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
    const path = socketPath(run, 777, uid);
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
    const server = await listenSocket(socketPath(run, 1, uid), handlers, () => {});
    const bad = await connect(server.path);
    const good = await connect(server.path);
    const header = Buffer.alloc(4);
    header.writeUInt32LE(MAX_SOCKET_FRAME_BYTES + 1);
    bad.socket.write(header);
    expect(await bad.next()).toMatchObject({ id: 0, result: 'fault' });
    await bad.ended;
    expect(faults).toEqual([{ kind: 'oversize', bytes: MAX_SOCKET_FRAME_BYTES + 1, limit: MAX_SOCKET_FRAME_BYTES }]);
    good.socket.write(encodeFrame({ still: 'here' }, 100));
    expect(await good.next()).toMatchObject({ result: { still: 'here' } });
    await server.close();
  });

  it('replaces a dead socket file but refuses a live one or a non-socket', async () => {
    const run = runDir(home);
    ensurePrivateDir(run, uid);
    const path = socketPath(run, 2, uid);
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
    const path = socketPath(run, 3, uid);
    const logs: string[] = [];
    const server = await listenSocket(path, echo().handlers, (l) => logs.push(l));
    rmSync(path);
    writeFileSync(path, 'successor');
    await server.close();
    expect(readFileSync(path, 'utf8')).toBe('successor');
    expect(logs.join()).toMatch(/replaced/);
  });
});
