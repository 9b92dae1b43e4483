import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { platformOf, type Platform } from '@chrome-relay/host-files';
import { readLaunchRecords, stopLaunched, writeLaunchRecord, type LaunchRecord } from './launched.js';

let home = '';
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cr-launched-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** A machine as data: which pids run which command line; a kill ends a process (unless it is stubborn). */
function machine(processes: Record<number, string>, stubborn: readonly number[] = []) {
  const running = new Map(Object.entries(processes).map(([pid, line]) => [Number(pid), line]));
  const signals: string[] = [];
  const platform: Platform = {
    ...platformOf('linux'),
    isPidAlive: (pid) => running.has(pid),
    commandLineOf: (pid) => running.get(pid) ?? null,
  };
  return {
    running,
    signals,
    deps: {
      platform,
      kill(pid: number, signal: NodeJS.Signals) {
        signals.push(`${signal} ${pid}`);
        if (!stubborn.includes(Math.abs(pid))) running.delete(Math.abs(pid));
      },
      sleep: () => Promise.resolve(),
    },
  };
}

const record = (overrides: Partial<LaunchRecord> = {}): LaunchRecord => ({
  profile: '/p/default',
  browser: '/usr/lib/chromium/chromium',
  browserPid: 100,
  xvfb: { pid: 50, display: ':7', authFile: join(home, 'run-xauth') },
  log: join(home, 'browser.log'),
  startedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('stop', () => {
  it('ends the browser launch started, then its Xvfb, removes the cookie file and forgets the record', async () => {
    const r = record();
    writeFileSync(r.xvfb?.authFile ?? '', 'cookie');
    writeLaunchRecord(home, r);
    const m = machine({ 100: '/usr/lib/chromium/chromium --user-data-dir=/p/default about:blank', 50: `/usr/bin/Xvfb -displayfd 3 -auth ${r.xvfb?.authFile}`, 7: 'bash' });
    const stopped = await stopLaunched(home, r, m.deps);
    expect(stopped).toMatchObject({ browser: 'stopped', xvfb: { pid: 50, outcome: 'stopped' } });
    expect(m.signals).toEqual(['SIGTERM 100', 'SIGTERM 50']);
    expect([...m.running.keys()]).toEqual([7]);
    expect(existsSync(r.xvfb?.authFile ?? '')).toBe(false);
    expect(readLaunchRecords(home)).toEqual([]);
  });

  it('never signals a pid that now runs another program (reused), and says so', async () => {
    const r = record();
    writeLaunchRecord(home, r);
    const m = machine({ 100: '/usr/bin/vim notes.txt', 50: '/usr/bin/Xvfb :3' });
    const stopped = await stopLaunched(home, r, m.deps);
    expect(stopped).toMatchObject({ browser: 'left alone: the pid now runs another program', xvfb: { outcome: 'left alone: the pid now runs another program' } });
    expect(m.signals).toEqual([]);
  });

  it('a browser that already died (its display gone with it) is reported not running; one that ignores SIGTERM is killed with its group', async () => {
    const dead = record();
    expect(await stopLaunched(home, dead, machine({}).deps)).toMatchObject({ browser: 'not running', xvfb: { outcome: 'not running' } });
    const m = machine({ 100: '/usr/lib/chromium/chromium --user-data-dir=/p/default' }, [100]);
    const stubborn = await stopLaunched(home, record({ xvfb: null }), m.deps);
    expect(m.signals).toEqual(['SIGTERM 100', 'SIGKILL -100', 'SIGKILL 100']);
    // Still alive after SIGKILL: reported, and the record stays for another try.
    expect(stubborn.browser).toBe('still running');
  });
});
