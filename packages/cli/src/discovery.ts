/**
 * Finding the host of a running browser profile: every host writes `<home>/run/host-<pid>.json`.
 * A descriptor whose pid is dead is stale (the host crashed or was killed) and is ignored here;
 * the host cleans such files at its own start and `doctor` reports them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HostDescriptorSchema, type HostDescriptor } from '@chrome-relay/protocol';
import { runDir } from './paths.js';

export interface FoundDescriptor {
  file: string;
  descriptor: HostDescriptor;
  alive: boolean;
}

/** A killed host stays a zombie until its parent (the browser) reaps it: it answers kill(0) but is dead. */
export function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may contain spaces or ')'; the state letter follows the last ')'.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM means it exists but belongs to someone else: alive, not ours to talk to, but alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

export function listDescriptors(home: string): FoundDescriptor[] {
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
      const parsed = HostDescriptorSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (!parsed.success) continue;
      found.push({ file, descriptor: parsed.data, alive: isPidAlive(parsed.data.pid) });
    } catch {
      // Half-written or unreadable: the host writes atomically, so this is a foreign file; skip it.
    }
  }
  // Newest first, so a choice among several is deterministic.
  return found.sort((a, b) => b.descriptor.startedAt.localeCompare(a.descriptor.startedAt));
}
