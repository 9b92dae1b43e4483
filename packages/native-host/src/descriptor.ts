/**
 * Descriptors are how the CLI finds a host: `<run>/host-<pid>.json` exists exactly while a host with
 * a connected extension is listening on the socket it names. So they are written atomically (a reader
 * never sees half a file), removed only by their own host, and swept at startup when their host died
 * without cleaning up (killed, crashed, machine slept through a browser crash).
 */
import { lstatSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HostDescriptorSchema, type HostDescriptor } from '@chrome-relay/protocol';
import type { Log } from './log.js';
import { preferredSocketPath, removeOwnSocketDir } from './paths.js';

const HOST_FILE = /^host-(\d+)\.(json|json\.tmp|sock)$/;

export function writeDescriptor(path: string, descriptor: HostDescriptor): void {
  // The .tmp name does not match the CLI's host-*.json pattern, so readers only ever see whole files.
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(descriptor, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

export function readDescriptor(path: string): HostDescriptor | null {
  try {
    const parsed = HostDescriptorSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Remove the descriptor only while it still names us (never a successor's file). */
export function removeDescriptorIfOurs(path: string, pid: number): boolean {
  const current = readDescriptor(path);
  if (current === null || current.pid !== pid) return false;
  unlinkQuietly(path);
  return true;
}

/** process.kill(pid, 0): ESRCH means gone; EPERM means alive but someone else's. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

export interface SweepOptions {
  uid: number;
  /** Where prepareSocketPath makes per-host directories (default /tmp). */
  shortRoot?: string;
  selfPid: number;
  isAlive(pid: number): boolean;
  probe(path: string): Promise<'live' | 'dead'>;
  log: Log;
}

/**
 * Remove the descriptors, temp files and sockets of hosts whose process is gone. A socket is removed
 * only when it is a socket and a probe proves nobody listens on it. Returns the paths removed.
 */
export async function sweepStaleHosts(run: string, options: SweepOptions): Promise<string[]> {
  const deadPids = new Set<number>();
  for (const name of safeReaddir(run)) {
    const match = HOST_FILE.exec(name);
    if (!match?.[1]) continue;
    const pid = Number(match[1]);
    if (pid !== options.selfPid && !options.isAlive(pid)) deadPids.add(pid);
  }

  const removed: string[] = [];
  for (const pid of deadPids) {
    const json = join(run, `host-${pid}.json`);
    const sockets = new Set([preferredSocketPath(run, pid)]);
    const recorded = readDescriptor(json);
    if (recorded !== null && recorded.pid === pid) sockets.add(recorded.socket);

    for (const sock of sockets) {
      if (!isSocket(sock)) continue;
      if ((await options.probe(sock)) === 'live') {
        options.log(`keeping ${sock}: its host pid ${pid} is gone but something still listens on it`);
        continue;
      }
      if (unlinkQuietly(sock)) removed.push(sock);
      // A socket in a directory made for that host alone (a long home): the directory goes too.
      if (removeOwnSocketDir(dirname(sock), options.uid, options.shortRoot)) removed.push(dirname(sock));
    }
    for (const file of [json, `${json}.tmp`]) {
      if (unlinkQuietly(file)) removed.push(file);
    }
  }
  if (removed.length > 0) options.log(`removed stale host files: ${removed.join(', ')}`);
  return removed;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isSocket(path: string): boolean {
  try {
    return lstatSync(path).isSocket();
  } catch {
    return false;
  }
}

function unlinkQuietly(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
