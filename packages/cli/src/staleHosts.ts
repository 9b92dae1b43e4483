/**
 * Cleaning up after hosts that died without cleaning up (killed, crashed): their descriptor, its temp file
 * and their socket. A host is dead when its pid is gone, is a zombie (killed, not yet reaped: kill(pid, 0)
 * still succeeds), or when its descriptor names a socket nobody listens on — a host writes its descriptor
 * only after listening, so such a descriptor can only mislead clients (even into target_conflict). A socket
 * is removed only when it is a socket and nothing listens on it (another live host might own the path).
 */
import { lstatSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isPidAlive } from './discovery.js';
import { runDir } from './paths.js';
import { probeSocket } from './socketCall.js';

const HOST_FILE = /^host-(\d+)\.(json|json\.tmp|sock)$/;

export interface SweepResult {
  removed: string[];
  kept: { path: string; reason: string }[];
}

function recordedSocket(descriptorFile: string): string | null {
  try {
    const value: unknown = JSON.parse(readFileSync(descriptorFile, 'utf8'));
    if (typeof value === 'object' && value !== null && 'socket' in value && typeof value.socket === 'string') return value.socket;
  } catch {
    /* half-written or foreign: no socket to follow */
  }
  return null;
}

function isSocket(path: string): boolean | null {
  try {
    return lstatSync(path).isSocket();
  } catch {
    return null;
  }
}

/** Linux: state Z (zombie) or X (dead) in /proc/<pid>/stat; elsewhere unknown, so false. */
const defaultIsAlive = isPidAlive;

export async function sweepStaleHosts(home: string, isAlive: (pid: number) => boolean = defaultIsAlive): Promise<SweepResult> {
  const run = runDir(home);
  const result: SweepResult = { removed: [], kept: [] };
  let names: string[];
  try {
    names = readdirSync(run);
  } catch {
    return result;
  }
  const filesOf = new Map<number, string[]>();
  for (const name of names) {
    const pid = Number(HOST_FILE.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    filesOf.set(pid, [...(filesOf.get(pid) ?? []), join(run, name)]);
  }
  const byPid = new Map<number, string[]>();
  for (const [pid, files] of filesOf) {
    if (!isAlive(pid)) {
      byPid.set(pid, files);
      continue;
    }
    const descriptor = files.find((f) => f.endsWith('.json'));
    const socket = descriptor ? recordedSocket(descriptor) : null;
    if (socket && (await probeSocket(socket)) === 'dead') byPid.set(pid, files);
  }
  for (const files of byPid.values()) {
    const paths = new Set(files);
    // The socket may live outside the run dir (a short /tmp path when the home path is long).
    for (const file of files) {
      if (!file.endsWith('.json')) continue;
      const socket = recordedSocket(file);
      if (socket) paths.add(socket);
    }
    for (const path of paths) {
      const socket = isSocket(path);
      if (socket === null) continue; // already gone
      // Only descriptors and their temp files are removed as plain files; anything else must be a socket,
      // so a corrupt descriptor naming some other file can never make us delete it.
      const plainFileOk = files.includes(path) && !path.endsWith('.sock');
      if (!socket && !plainFileOk) {
        result.kept.push({ path, reason: 'named as a host socket but is not a socket' });
        continue;
      }
      if (socket && (await probeSocket(path)) === 'live') {
        result.kept.push({ path, reason: 'its host is gone but something still listens on it' });
        continue;
      }
      try {
        unlinkSync(path);
        result.removed.push(path);
      } catch (error) {
        result.kept.push({ path, reason: (error as Error).message });
      }
    }
  }
  return result;
}
