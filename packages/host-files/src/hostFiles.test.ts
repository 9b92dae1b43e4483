import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isPidAlive, probeSocket, relayHome, runDir, sweepStaleHosts } from './index.js';

describe('the home', () => {
  it('is $CHROME_RELAY_HOME made absolute (CLI and host run in different directories), else ~/.chrome-relay', () => {
    expect(relayHome({ CHROME_RELAY_HOME: '/x/y' }, '/home/u')).toBe('/x/y');
    expect(relayHome({ CHROME_RELAY_HOME: 'rel' }, '/home/u')).toBe(join(process.cwd(), 'rel'));
    expect(relayHome({ CHROME_RELAY_HOME: '' }, '/home/u')).toBe('/home/u/.chrome-relay');
    expect(runDir('/h')).toBe('/h/run');
  });
});

describe('liveness', () => {
  it('a zombie (killed, not yet reaped) is dead although kill(0) succeeds', async () => {
    expect(isPidAlive(process.pid)).toBe(true);
    expect(isPidAlive(2 ** 22 + 12345)).toBe(false);
    if (process.platform !== 'linux') return;
    // A child of a parent that does not reap it: `sh` execs `sleep` after forking a child that exits at once.
    const parent = spawn('sh', ['-c', 'sleep 0 & exec sleep 30'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 300));
    const { execFileSync } = await import('node:child_process');
    const children = execFileSync('ps', ['-o', 'pid=,stat=', '--ppid', String(parent.pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
    const zombie = children.map((l) => l.trim().split(/\s+/)).find(([, stat]) => stat?.startsWith('Z'));
    try {
      expect(zombie?.[0], 'sleep 30 does not reap the finished sleep 0').toBeDefined();
      // kill(0) still succeeds on it; only /proc says it is dead.
      expect(() => process.kill(Number(zombie?.[0]), 0)).not.toThrow();
      expect(isPidAlive(Number(zombie?.[0]))).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('probes a socket: live while served, dead once nothing listens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cr-probe-'));
    const path = join(dir, 's.sock');
    expect(await probeSocket(path)).toBe('dead');
    const server = createServer();
    await new Promise<void>((r) => server.listen(path, r));
    expect(await probeSocket(path)).toBe('live');
    await new Promise<void>((r) => server.close(() => r()));
    expect(await probeSocket(path)).toBe('dead');
  });
});

describe('sweepStaleHosts', () => {
  it('removes a dead host\'s files, keeps a live one, never touches a plain file posing as a socket', async () => {
    const run = mkdtempSync(join(tmpdir(), 'cr-sweep-'));
    writeFileSync(join(run, 'host-200.json'), JSON.stringify({ socket: '/etc/hostname' }));
    writeFileSync(join(run, 'host-200.json.tmp'), '{');
    const server = createServer();
    await new Promise<void>((r) => server.listen(join(run, 'host-100.sock'), r));
    writeFileSync(join(run, 'host-100.json'), JSON.stringify({ socket: join(run, 'host-100.sock') }));
    try {
      const result = await sweepStaleHosts(run, { isAlive: (pid) => pid === 100 });
      expect(result.removed.sort()).toEqual([join(run, 'host-200.json'), join(run, 'host-200.json.tmp')]);
      expect(result.kept).toEqual([{ path: '/etc/hostname', reason: 'named as a host socket but is not a socket' }]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
