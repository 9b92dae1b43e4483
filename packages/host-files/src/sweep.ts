/**
 * Cleaning up after hosts that died without cleaning up (killed, crashed): their descriptor, its temp
 * file and their socket. A host is dead when its pid is gone, is a zombie, or when its descriptor
 * names a socket nobody listens on — a host writes its descriptor only after listening, so such a
 * descriptor can only mislead clients. A socket is removed only when it is a socket and nothing
 * listens on it (another live host might own the path); a plain file is removed only when it is a
 * descriptor or its temp file, so a corrupt descriptor naming some other file can never make us delete it.
 * A named pipe (Windows) leaves nothing to remove: it goes with its host.
 */
import { lstatSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isNamedPipe } from './endpoint.js';
import { isPidAlive, probeSocket } from './liveness.js';

const HOST_FILE = /^host-(\d+)\.(json|json\.tmp|sock)$/;

export interface SweepOptions {
  /** Never sweep this pid's files (the host sweeping at its own start). */
  selfPid?: number;
  isAlive?: (pid: number) => boolean;
  probe?: (path: string) => Promise<'live' | 'dead'>;
  /** More socket paths a dead host may have used (the host's short /tmp fallback path). */
  socketsOf?: (pid: number) => readonly string[];
}

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

export async function sweepStaleHosts(run: string, options: SweepOptions = {}): Promise<SweepResult> {
  const isAlive = options.isAlive ?? isPidAlive;
  const probe = options.probe ?? ((path: string) => probeSocket(path));
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
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === options.selfPid) continue;
    filesOf.set(pid, [...(filesOf.get(pid) ?? []), join(run, name)]);
  }
  const dead: string[][] = [];
  for (const [pid, files] of filesOf) {
    if (!isAlive(pid)) {
      dead.push([...files, ...(options.socketsOf?.(pid) ?? [])]);
      continue;
    }
    const descriptor = files.find((f) => f.endsWith('.json'));
    const socket = descriptor ? recordedSocket(descriptor) : null;
    if (socket && (await probe(socket)) === 'dead') dead.push(files);
  }
  for (const files of dead) {
    const paths = new Set(files);
    // The socket may live outside the run dir (a short /tmp path when the home path is long).
    for (const file of files) {
      const socket = file.endsWith('.json') ? recordedSocket(file) : null;
      if (socket) paths.add(socket);
    }
    for (const path of paths) {
      if (isNamedPipe(path)) continue;
      const socket = isSocket(path);
      if (socket === null) continue; // already gone
      const plainFileOk = files.includes(path) && (path.endsWith('.json') || path.endsWith('.json.tmp'));
      if (!socket && !plainFileOk) {
        result.kept.push({ path, reason: 'named as a host socket but is not a socket' });
        continue;
      }
      if (socket && (await probe(path)) === 'live') {
        result.kept.push({ path, reason: 'its host is gone but something still listens on it' });
        continue;
      }
      try {
        unlinkSync(path);
        result.removed.push(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') result.kept.push({ path, reason: (error as Error).message });
      }
    }
  }
  return result;
}
