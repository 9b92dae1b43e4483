/**
 * `<home>/installed.json`: everything `install` (and `launch`, `update`, which install through it) has
 * written, so `uninstall` removes exactly that and nothing else, and `doctor` knows which manifests
 * must exist. It only ever grows by merging; uninstall shrinks it to what it could not remove.
 * This file is private to the CLI (no other process reads it), so its schema lives here, not in protocol.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface InstallRecord {
  /** CLI version that last wrote the record. */
  cliVersion: string;
  updatedAt: string;
  /** The launcher every manifest points at. */
  launcher: string;
  /** Files under <home>/host written by install (launcher, host bundle). */
  hostFiles: string[];
  /** Extension ids the manifests and the launcher allow. */
  extensionIds: string[];
  /** Each manifest, and on Windows the registry key that names it. */
  manifests: { browser: string; path: string; registryKey?: string }[];
  /** Directories that did not exist before install created them (removed by uninstall when empty). */
  createdDirs: string[];
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** Hand-checked (the CLI has no zod of its own); returns the first problem, or null when the shape is right. */
function recordProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const r = value as Record<string, unknown>;
  for (const key of ['cliVersion', 'updatedAt', 'launcher'] as const) if (typeof r[key] !== 'string') return `${key} must be a string`;
  for (const key of ['hostFiles', 'extensionIds', 'createdDirs'] as const) if (!isStringArray(r[key])) return `${key} must be a list of strings`;
  const manifests = r.manifests;
  if (!Array.isArray(manifests)) return 'manifests must be a list';
  for (const m of manifests) {
    if (typeof m !== 'object' || m === null) return 'manifests[] must be objects';
    const entry = m as Record<string, unknown>;
    if (typeof entry.browser !== 'string' || typeof entry.path !== 'string') return 'manifests[] need browser and path strings';
    if (entry.registryKey !== undefined && typeof entry.registryKey !== 'string') return 'manifests[].registryKey must be a string';
  }
  return null;
}

export const recordPath = (home: string): string => join(home, 'installed.json');

export type RecordRead = { kind: 'absent' } | { kind: 'ok'; record: InstallRecord } | { kind: 'corrupt'; problem: string };

export function readRecord(home: string): RecordRead {
  const file = recordPath(home);
  if (!existsSync(file)) return { kind: 'absent' };
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const problem = recordProblem(value);
    return problem === null ? { kind: 'ok', record: value as InstallRecord } : { kind: 'corrupt', problem };
  } catch (error) {
    return { kind: 'corrupt', problem: (error as Error).message };
  }
}

export function writeRecord(home: string, record: InstallRecord): void {
  const file = recordPath(home);
  // Atomic: a crash mid-write must not lose the list of what to uninstall.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

export function removeRecord(home: string): void {
  rmSync(recordPath(home), { force: true });
}

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

/** Merge what one install run wrote into what earlier runs wrote. */
export function mergeRecords(previous: InstallRecord | null, next: InstallRecord): InstallRecord {
  if (!previous) return next;
  const manifests = new Map(previous.manifests.map((m) => [m.path, m]));
  for (const m of next.manifests) manifests.set(m.path, m);
  return {
    ...next,
    hostFiles: union(previous.hostFiles, next.hostFiles),
    extensionIds: union(previous.extensionIds, next.extensionIds),
    manifests: [...manifests.values()],
    createdDirs: union(previous.createdDirs, next.createdDirs),
  };
}
