import { describe, expect, it } from 'vitest';
import { detectBrowser, launchedByRelay, linuxProc, userDataDir, type ProcReader } from './browserInfo.js';

interface FakeProcess {
  argv: string[];
  ppid: number;
  cwd: string;
}

function fakeProc(table: Record<number, FakeProcess>): ProcReader {
  return {
    cmdline: (pid) => table[pid]?.argv ?? null,
    parentOf: (pid) => table[pid]?.ppid ?? null,
    cwd: (pid) => table[pid]?.cwd ?? null,
  };
}

describe('detectBrowser', () => {
  it('reads the profile from the parent browser', () => {
    const proc = fakeProc({ 50: { argv: ['/usr/lib/chromium/chromium', '--no-sandbox', '--user-data-dir=/tmp/p1'], ppid: 1, cwd: '/' } });
    expect(detectBrowser(50, proc, '/host')).toEqual({ browserPid: 50, profile: '/tmp/p1' });
  });

  it('resolves a relative profile against the browser cwd', () => {
    const proc = fakeProc({ 50: { argv: ['chrome', '--user-data-dir=prof'], ppid: 1, cwd: '/work' } });
    expect(detectBrowser(50, proc, '/host')).toEqual({ browserPid: 50, profile: '/work/prof' });
  });

  it('looks through a shell parent to the browser', () => {
    const proc = fakeProc({
      60: { argv: ['/bin/sh', '-c', '/opt/host'], ppid: 50, cwd: '/' },
      50: { argv: ['chrome', '--user-data-dir=/p'], ppid: 1, cwd: '/' },
    });
    expect(detectBrowser(60, proc, '/host')).toEqual({ browserPid: 50, profile: '/p' });
  });

  it('reports null for the default profile or an unreadable parent', () => {
    expect(detectBrowser(50, fakeProc({ 50: { argv: ['chrome'], ppid: 1, cwd: '/' } }), '/')).toEqual({ browserPid: 50, profile: null });
    expect(detectBrowser(50, fakeProc({}), '/')).toEqual({ browserPid: 50, profile: null });
  });

  it('takes the last --user-data-dir, as Chrome does', () => {
    expect(userDataDir(['c', '--user-data-dir=/a', '--user-data-dir=/b'])).toBe('/b');
    expect(userDataDir(['c', '--user-data-dir', '/a'])).toBeNull();
  });

  it('reads real /proc entries for this process', () => {
    expect(linuxProc.parentOf(process.pid)).toBe(process.ppid);
    expect(linuxProc.cmdline(process.pid)?.[0]).toMatch(/node/);
    expect(linuxProc.cwd(process.pid)).toBe(process.cwd());
    expect(linuxProc.cmdline(2 ** 22 + 12345)).toBeNull();
  });
});

describe('launchedByRelay', () => {
  it('is true only for the profile launch handed to the browser', () => {
    expect(launchedByRelay({ CHROME_RELAY_LAUNCHED_PROFILE: '/tmp/p1' }, '/tmp/p1')).toBe(true);
    expect(launchedByRelay({ CHROME_RELAY_LAUNCHED_PROFILE: '/tmp/p1/' }, '/tmp/p1')).toBe(true);
    expect(launchedByRelay({ CHROME_RELAY_LAUNCHED_PROFILE: '/tmp/p1' }, '/tmp/p2')).toBe(false);
    expect(launchedByRelay({ CHROME_RELAY_LAUNCHED_PROFILE: 'p1' }, '/tmp/p1')).toBe(false);
    expect(launchedByRelay({}, '/tmp/p1')).toBe(false);
    expect(launchedByRelay({ CHROME_RELAY_LAUNCHED_PROFILE: '/tmp/p1' }, null)).toBe(false);
  });
});
