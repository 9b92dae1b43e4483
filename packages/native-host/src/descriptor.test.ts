import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostDescriptor } from '@chrome-relay/protocol';
import { isProcessAlive, readDescriptor, removeDescriptorIfOurs, sweepStaleHosts, writeDescriptor } from './descriptor.js';
import { probeSocket } from './socketServer.js';

let run = '';
beforeEach(() => {
  run = mkdtempSync(join(tmpdir(), 'cr-desc-'));
});
afterEach(() => {
  rmSync(run, { recursive: true, force: true });
});

function descriptor(pid: number, socket = join(run, `host-${pid}.sock`)): HostDescriptor {
  return {
    pid,
    socket,
    startedAt: '2026-01-01T00:00:00.000Z',
    browserPid: null,
    profile: null,
    origin: 'chrome-extension://nplipfneioajmjoiadbinnjjicindjlf/',
    host: { version: '0.1.0', protocolVersion: 1 },
    extension: null,
  };
}

describe('descriptor files', () => {
  it('writes atomically with mode 0600 and leaves no temp file', () => {
    const path = join(run, 'host-5.json');
    writeDescriptor(path, descriptor(5));
    writeDescriptor(path, { ...descriptor(5), profile: '/p' });
    expect(readdirSync(run)).toEqual(['host-5.json']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readDescriptor(path)?.profile).toBe('/p');
  });

  it('removes a descriptor only while it names us', () => {
    const path = join(run, 'host-5.json');
    writeDescriptor(path, descriptor(6));
    expect(removeDescriptorIfOurs(path, 5)).toBe(false);
    expect(existsSync(path)).toBe(true);
    expect(removeDescriptorIfOurs(path, 6)).toBe(true);
    expect(existsSync(path)).toBe(false);
    expect(removeDescriptorIfOurs(path, 6)).toBe(false);
  });

  it('knows our own process is alive and a reaped one is not', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(2 ** 22 + 12345)).toBe(false); // above Linux's pid_max ceiling
  });
});

describe('sweepStaleHosts', () => {
  it('removes the files of dead hosts and keeps live ones, ours, and live sockets', async () => {
    const alive = new Set([100, 300]);
    // Dead host 200 left a descriptor, a temp file and a dead socket (a plain file stands in for one
    // that fails the socket check — it must be kept, not unlinked).
    writeDescriptor(join(run, 'host-200.json'), descriptor(200));
    writeFileSync(join(run, 'host-200.json.tmp'), '{');
    writeFileSync(join(run, 'host-200.sock'), 'not a socket');
    // Live host 100 (listening) and our own pid 300 are untouched.
    const live100 = createServer();
    await new Promise<void>((r) => live100.listen(join(run, 'host-100.sock'), r));
    writeDescriptor(join(run, 'host-100.json'), descriptor(100));
    writeDescriptor(join(run, 'host-300.json'), descriptor(300));
    // Dead host 400 whose socket is, surprisingly, still served: keep the socket, drop the descriptor.
    const liveSock = join(run, 'host-400.sock');
    const server = createServer();
    await new Promise<void>((r) => server.listen(liveSock, r));
    writeDescriptor(join(run, 'host-400.json'), descriptor(400, liveSock));
    // Dead host 500 with an unreadable descriptor and a dead socket recorded nowhere else.
    writeFileSync(join(run, 'host-500.json'), 'garbage');
    const logs: string[] = [];

    try {
      const removed = await sweepStaleHosts(run, {
        uid: 0,
        selfPid: 300,
        isAlive: (pid) => alive.has(pid),
        probe: (path) => probeSocket(path),
        log: (l) => logs.push(l),
      });
      expect(removed.sort()).toEqual(
        [join(run, 'host-200.json'), join(run, 'host-200.json.tmp'), join(run, 'host-400.json'), join(run, 'host-500.json')].sort(),
      );
      expect(readdirSync(run).sort()).toEqual(['host-100.json', 'host-100.sock', 'host-200.sock', 'host-300.json', 'host-400.sock']);
      expect(readFileSync(join(run, 'host-200.sock'), 'utf8')).toBe('not a socket');
      expect(logs.join('\n')).toMatch(/keeping .*host-400\.sock/);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await new Promise<void>((r) => live100.close(() => r()));
    }
  });

  it('a live pid whose descriptor names a socket nobody listens on is stale too (it can only mislead clients)', async () => {
    writeDescriptor(join(run, 'host-800.json'), descriptor(800));
    const removed = await sweepStaleHosts(run, { uid: 0, selfPid: 1, isAlive: () => true, probe: (p) => probeSocket(p), log: () => {} });
    expect(removed).toEqual([join(run, 'host-800.json')]);
  });

  it('unlinks a dead socket of a dead host', async () => {
    const sock = join(run, 'host-700.sock');
    const server = createServer();
    await new Promise<void>((r) => server.listen(sock, r));
    // Keep the file but stop listening (libuv unlinks by name on close, so move it aside meanwhile).
    renameSync(sock, `${sock}.aside`);
    await new Promise<void>((r) => server.close(() => r()));
    renameSync(`${sock}.aside`, sock);
    writeDescriptor(join(run, 'host-700.json'), descriptor(700, sock));

    const removed = await sweepStaleHosts(run, { uid: 0, selfPid: 1, isAlive: () => false, probe: (p) => probeSocket(p), log: () => {} });
    expect(removed.sort()).toEqual([join(run, 'host-700.json'), sock].sort());
    expect(readdirSync(run)).toEqual([]);
  });

  it('removes the private directory a dead host with a long home made for its socket', async () => {
    const uid = process.getuid?.() ?? 0;
    const own = mkdtempSync(join(run, `chrome-relay-${uid}-`));
    const sock = join(own, 'abc.sock');
    const server = createServer();
    await new Promise<void>((r) => server.listen(sock, r));
    renameSync(sock, `${sock}.aside`);
    await new Promise<void>((r) => server.close(() => r()));
    renameSync(`${sock}.aside`, sock);
    writeDescriptor(join(run, 'host-701.json'), descriptor(701, sock));

    const removed = await sweepStaleHosts(run, { uid, shortRoot: run, selfPid: 1, isAlive: () => false, probe: (p) => probeSocket(p), log: () => {} });
    expect(removed.sort()).toEqual([join(run, 'host-701.json'), own, sock].sort());
    expect(existsSync(own)).toBe(false);
  });
});
