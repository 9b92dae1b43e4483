/**
 * What `launch` started, so `stop` can end exactly that and `status` can show it: one record per profile in
 * `<home>/launched/`, written once the browser connected, removed by stop.
 *
 * A pid is only signalled while it still runs what launch started: pids are reused, and a stale record must
 * never end someone else's process. Where the platform reads command lines (Linux, macOS) the browser's must
 * name the profile (`--user-data-dir=<profile>`) and Xvfb's its cookie file; on Windows the browser must be
 * the one a live host of that profile reports, and an unconfirmed pid is left alone and reported.
 *
 * Stopping the browser ends its host too (Chrome closes the host's stdin, and the host exits); a host still
 * running a few seconds later is ended as well.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Platform } from '@chrome-relay/host-files';
import { listDescriptors } from './discovery.js';
import { makePrivateDirsFor } from './outputFiles.js';
import { HOME_ENV } from '@chrome-relay/protocol';

export interface LaunchRecord {
  profile: string;
  /** The browser program launch ran. */
  browser: string;
  browserPid: number;
  /** The display launch started for it (ownDisplay.ts), or null. */
  xvfb: { pid: number; display: string; authFile: string } | null;
  log: string;
  startedAt: string;
  /** Started without a window (absent in records of older builds). */
  headless?: boolean;
}

const launchedDir = (home: string): string => join(home, 'launched');
const recordFile = (home: string, profile: string): string => join(launchedDir(home), `${createHash('sha256').update(profile).digest('hex').slice(0, 16)}.json`);

function isRecord(value: unknown): value is LaunchRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const xvfb = r.xvfb as Record<string, unknown> | null | undefined;
  const xvfbOk = xvfb === null || (typeof xvfb === 'object' && typeof xvfb.pid === 'number' && typeof xvfb.display === 'string' && typeof xvfb.authFile === 'string');
  const headlessOk = r.headless === undefined || typeof r.headless === 'boolean';
  return typeof r.profile === 'string' && typeof r.browser === 'string' && typeof r.browserPid === 'number' && typeof r.log === 'string' && typeof r.startedAt === 'string' && xvfbOk && headlessOk;
}

export function writeLaunchRecord(home: string, record: LaunchRecord): void {
  makePrivateDirsFor(HOME_ENV, [launchedDir(home)]);
  const file = recordFile(home, record.profile);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

export function readLaunchRecords(home: string): LaunchRecord[] {
  let names: string[];
  try {
    names = readdirSync(launchedDir(home));
  } catch {
    return [];
  }
  const records: LaunchRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    try {
      const value: unknown = JSON.parse(readFileSync(join(launchedDir(home), name), 'utf8'));
      if (isRecord(value)) records.push(value);
    } catch {
      // Unreadable: nothing to act on.
    }
  }
  return records;
}

export function launchRecordOf(home: string, profile: string): LaunchRecord | null {
  return readLaunchRecords(home).find((r) => r.profile === profile) ?? null;
}

function removeLaunchRecord(home: string, profile: string): void {
  rmSync(recordFile(home, profile), { force: true });
}

/** Does `pid` still run what the record says it does? 'yes', 'gone', or 'other' (reused, or cannot be told). */
function processMatches(platform: Platform, pid: number, mark: string, confirmedElsewhere: boolean): 'yes' | 'gone' | 'other' {
  if (pid <= 0 || !platform.isPidAlive(pid)) return 'gone';
  const line = platform.commandLineOf(pid);
  if (line === null) return confirmedElsewhere ? 'yes' : 'other';
  return line.includes(mark) ? 'yes' : 'other';
}

/** What `status` shows of a record: what runs now. */
export interface LaunchedState {
  profile: string;
  browserPid: number;
  browserRunning: boolean;
  xvfb: { pid: number; display: string; running: boolean } | null;
  startedAt: string;
  log: string;
}

function hostBrowserPids(home: string, profile: string): Set<number> {
  return new Set(listDescriptors(home).filter((d) => d.alive && d.descriptor.profile === profile && d.descriptor.browserPid !== null).map((d) => d.descriptor.browserPid ?? 0));
}

export function launchedStates(home: string, platform: Platform): LaunchedState[] {
  return readLaunchRecords(home).map((record) => ({
    profile: record.profile,
    browserPid: record.browserPid,
    browserRunning: processMatches(platform, record.browserPid, `--user-data-dir=${record.profile}`, hostBrowserPids(home, record.profile).has(record.browserPid)) === 'yes',
    xvfb: record.xvfb === null ? null : { pid: record.xvfb.pid, display: record.xvfb.display, running: processMatches(platform, record.xvfb.pid, record.xvfb.authFile, false) === 'yes' },
    startedAt: record.startedAt,
    log: record.log,
  }));
}

export type Outcome = 'stopped' | 'not running' | 'left alone: the pid now runs another program' | 'still running';

export interface StoppedBrowser {
  profile: string;
  browserPid: number;
  browser: Outcome;
  hostPids: number[];
  xvfb: { pid: number; display: string; outcome: Outcome } | null;
}

export interface StopDeps {
  platform: Platform;
  /** Send a signal (POSIX names; Windows terminates whatever the name). */
  kill(pid: number, signal: NodeJS.Signals): void;
  sleep(ms: number): Promise<void>;
}

/** Ask `pid` to exit, wait up to `graceMs`, then kill it (and, on POSIX, its process group: launch made it a leader). */
async function end(pid: number, graceMs: number, deps: StopDeps, group: boolean): Promise<void> {
  const signal = (which: NodeJS.Signals, target: number): void => {
    try {
      deps.kill(target, which);
    } catch {
      // Already gone, or a group that no longer exists.
    }
  };
  signal('SIGTERM', pid);
  for (let waited = 0; waited < graceMs; waited += 100) {
    if (!deps.platform.isPidAlive(pid)) return;
    await deps.sleep(100);
  }
  if (group && deps.platform.os !== 'win32') signal('SIGKILL', -pid);
  signal('SIGKILL', pid);
  for (let waited = 0; waited < 2000 && deps.platform.isPidAlive(pid); waited += 100) await deps.sleep(100);
}

const BROWSER_GRACE_MS = 8000;
const HOST_GRACE_MS = 3000;
const XVFB_GRACE_MS = 3000;

/** End what launch started for `record`: the browser (and so its host), then its Xvfb; then forget it. */
export async function stopLaunched(home: string, record: LaunchRecord, deps: StopDeps): Promise<StoppedBrowser> {
  const hosts = listDescriptors(home).filter((d) => d.alive && d.descriptor.profile === record.profile);
  const confirmed = hosts.some((d) => d.descriptor.browserPid === record.browserPid);
  const browser = processMatches(deps.platform, record.browserPid, `--user-data-dir=${record.profile}`, confirmed);
  const browserOutcome: Outcome = browser === 'gone' ? 'not running' : browser === 'yes' ? 'stopped' : 'left alone: the pid now runs another program';
  if (browser === 'yes') await end(record.browserPid, BROWSER_GRACE_MS, deps, true);
  // The host exits once the browser closes its stdin; one that outlived the browser is ended too.
  const hostPids = hosts.map((d) => d.descriptor.pid);
  if (browser !== 'other') {
    for (const pid of hostPids) {
      for (let waited = 0; waited < HOST_GRACE_MS && deps.platform.isPidAlive(pid); waited += 100) await deps.sleep(100);
      if (deps.platform.isPidAlive(pid)) await end(pid, HOST_GRACE_MS, deps, false);
    }
  }
  let xvfb: StoppedBrowser['xvfb'] = null;
  if (record.xvfb !== null) {
    const own = processMatches(deps.platform, record.xvfb.pid, record.xvfb.authFile, false);
    if (own === 'yes') await end(record.xvfb.pid, XVFB_GRACE_MS, deps, false);
    xvfb = { pid: record.xvfb.pid, display: record.xvfb.display, outcome: own === 'gone' ? 'not running' : own === 'yes' ? 'stopped' : 'left alone: the pid now runs another program' };
    if (own !== 'other') rmSync(record.xvfb.authFile, { force: true });
  }
  const survived = (outcome: Outcome, pid: number): Outcome => (outcome === 'stopped' && deps.platform.isPidAlive(pid) ? 'still running' : outcome);
  const result: StoppedBrowser = { profile: record.profile, browserPid: record.browserPid, browser: survived(browserOutcome, record.browserPid), hostPids, xvfb: xvfb && { ...xvfb, outcome: survived(xvfb.outcome, xvfb.pid) } };
  // A process that outlived SIGKILL keeps its record: stop can be run again.
  if (result.browser !== 'still running' && result.xvfb?.outcome !== 'still running') removeLaunchRecord(home, record.profile);
  return result;
}
