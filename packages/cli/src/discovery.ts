/**
 * Finding the host of a running browser profile: every host writes `<home>/run/host-<pid>.json`.
 * A descriptor whose pid is dead is stale (the host crashed or was killed) and is ignored here;
 * the host cleans such files at its own start and `doctor` reports them.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isNamedPipe, isPidAlive } from '@chrome-relay/host-files';
import { HostDescriptorSchema, type HostDescriptor } from '@chrome-relay/protocol';
import { assertTrustedHome } from './homeTrust.js';
import { runDir } from './paths.js';
import { isRecord, isSameBuild } from './sameBuild.js';

export interface FoundDescriptor {
  file: string;
  descriptor: HostDescriptor;
  alive: boolean;
}

/** A descriptor: as is from a host of this build, else checked by the schema (sameBuild.ts). */
function readDescriptor(raw: unknown): HostDescriptor | undefined {
  if (isRecord(raw) && isSameBuild(raw.host) && typeof raw.pid === 'number' && typeof raw.socket === 'string' && typeof raw.startedAt === 'string') return raw as HostDescriptor;
  const parsed = HostDescriptorSchema().safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The descriptors of a home this user may trust (homeTrust.ts; else its refusal is thrown, and nothing in the home is
 * read), written by this user (a file of another's names that user's socket) and naming a socket of this user's.
 */
/**
 * Whether this user owns the file (POSIX), or it does not exist yet (a socket still being made; a dead host's).
 * A named pipe (Windows) has no file: its host's proof of the user's secret guards it instead.
 */
function ownedByMe(path: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined || isNamedPipe(path)) return true;
  try {
    return lstatSync(path).uid === uid;
  } catch {
    return true;
  }
}

export function listDescriptors(home: string): FoundDescriptor[] {
  assertTrustedHome(home);
  const dir = runDir(home);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const found: FoundDescriptor[] = [];
  for (const name of names) {
    if (!/^host-\d+\.json$/.test(name)) continue;
    const file = join(dir, name);
    try {
      if (!ownedByMe(file)) continue;
      const descriptor = readDescriptor(JSON.parse(readFileSync(file, 'utf8')));
      if (descriptor === undefined || !ownedByMe(descriptor.socket)) continue;
      found.push({ file, descriptor, alive: isPidAlive(descriptor.pid) });
    } catch {
      // Half-written or unreadable: the host writes atomically, so this is a foreign file; skip it.
    }
  }
  // Newest first, so a choice among several is deterministic.
  return found.sort((a, b) => b.descriptor.startedAt.localeCompare(a.descriptor.startedAt));
}
