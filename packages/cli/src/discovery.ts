/**
 * Finding the host of a running browser profile: every host writes `<home>/run/host-<pid>.json`.
 * A descriptor whose pid is dead is stale (the host crashed or was killed) and is ignored here;
 * the host cleans such files at its own start and `doctor` reports them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPidAlive } from '@chrome-relay/host-files';
import { HostDescriptorSchema, type HostDescriptor } from '@chrome-relay/protocol';
import { runDir } from './paths.js';

export interface FoundDescriptor {
  file: string;
  descriptor: HostDescriptor;
  alive: boolean;
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
