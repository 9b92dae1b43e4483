/**
 * Descriptors are how the CLI finds a host: `<run>/host-<pid>.json` exists exactly while a host with
 * a connected extension is listening on the socket it names. So they are written atomically (a reader
 * never sees half a file), removed only by their own host, and swept at startup when their host died
 * without cleaning up (killed, crashed, machine slept through a browser crash).
 */
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { sweepStaleHosts as sweepFiles } from '@chrome-relay/host-files';
import { HostDescriptorSchema, type HostDescriptor } from '@chrome-relay/protocol';
import type { Log } from './log.js';
import { preferredSocketPath, removeOwnSocketDir } from './paths.js';

export function writeDescriptor(path: string, descriptor: HostDescriptor): void {
  // The .tmp name does not match the CLI's host-*.json pattern, so readers only ever see whole files.
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(descriptor, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

export function readDescriptor(path: string): HostDescriptor | null {
  try {
    const parsed = HostDescriptorSchema().safeParse(JSON.parse(readFileSync(path, 'utf8')));
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

export { isPidAlive as isProcessAlive } from '@chrome-relay/host-files';

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
 * Remove the descriptors, temp files and sockets of dead hosts (the rules are shared with the CLI's
 * doctor: @chrome-relay/host-files). Returns the paths removed.
 */
export async function sweepStaleHosts(run: string, options: SweepOptions): Promise<string[]> {
  const result = await sweepFiles(run, { selfPid: options.selfPid, isAlive: options.isAlive, probe: options.probe, socketsOf: (pid) => [preferredSocketPath(run, pid)] });
  const removed = [...result.removed];
  // A socket in a directory made for that host alone (a long home, see paths.ts): the directory goes too.
  for (const path of result.removed) {
    const dir = dirname(path);
    if (dir !== run && removeOwnSocketDir(dir, options.uid, options.shortRoot)) removed.push(dir);
  }
  for (const kept of result.kept) options.log(`keeping ${kept.path}: ${kept.reason}`);
  if (removed.length > 0) options.log(`removed stale host files: ${removed.join(', ')}`);
  return removed;
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
