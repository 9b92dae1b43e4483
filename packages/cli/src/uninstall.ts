/**
 * `chrome-relay uninstall`: remove exactly what the install record lists, nothing else.
 * - A manifest is removed only while it is still ours (names our host and our launcher); one rewritten
 *   since by someone else is kept and reported. On Windows the registry key that names it goes first,
 *   and only while it still names our manifest.
 * - Directories install created are removed only when empty: anything inside them that install did not
 *   write (a browser's other manifests) keeps them.
 * - Whatever could not be removed stays in the record, so running uninstall again finishes the job.
 * - The extension folder in the home (extensionFolder.ts) goes too, whole: every file in it is a copy
 *   chrome-relay made. A browser that still has it loaded shows the extension as missing.
 */
import { readFileSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { currentPlatform } from '@chrome-relay/host-files';
import type { Registry } from '@chrome-relay/host-files';
import { HOST_NAME, RelayError } from '@chrome-relay/protocol';
import { installedExtensionRoot } from './extensionFolder.js';
import { readRecord, recordPath, removeRecord, writeRecord, type InstallRecord } from './installRecord.js';
import { systemRegistry } from './systemRegistry.js';

export interface UninstallResult {
  record: string;
  /** True when there was no install record: nothing was touched. */
  nothingInstalled: boolean;
  removed: string[];
  /** Left in place on purpose, with the reason. */
  kept: { path: string; reason: string }[];
  failed: { path: string; error: string }[];
}

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** 'ours' | 'missing' | a reason to keep it. */
function manifestOwnership(path: string, launcher: string): 'ours' | 'missing' | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (code(error) === 'ENOENT') return 'missing';
    return `unreadable (${(error as Error).message}); remove it by hand if it is chrome-relay's`;
  }
  try {
    const manifest = JSON.parse(text) as { name?: unknown; path?: unknown };
    if (manifest.name === HOST_NAME && manifest.path === launcher) return 'ours';
  } catch {
    /* not JSON: not ours */
  }
  return 'changed since install (it no longer points at our launcher); left untouched';
}

/** Remove the key naming `manifest` while it still does: 'removed', 'gone', or why it stays. */
function removeKey(registry: Registry, key: string, manifest: string): 'removed' | 'gone' | { kept: string } {
  const value = registry.readDefault(key);
  if (value === null) return 'gone';
  // A value that differs from the record in case only still names our manifest on Windows.
  if (!currentPlatform().samePath(value, manifest)) return { kept: `names ${value}, not chrome-relay's manifest ${manifest}; left untouched` };
  registry.deleteKey(key);
  return 'removed';
}

export function uninstall(home: string, options: { registry?: Registry } = {}): UninstallResult {
  let registry = options.registry;
  const absoluteHome = resolve(home);
  const result: UninstallResult = { record: recordPath(absoluteHome), nothingInstalled: false, removed: [], kept: [], failed: [] };
  const read = readRecord(absoluteHome);
  const extension = installedExtensionRoot(absoluteHome);
  if (extension !== null) {
    try {
      rmSync(extension, { recursive: true, force: true });
      result.removed.push(extension);
    } catch (error) {
      result.failed.push({ path: extension, error: (error as Error).message });
    }
  }
  if (read.kind === 'absent') return { ...result, nothingInstalled: extension === null };
  if (read.kind === 'corrupt') {
    throw new RelayError('invalid_arguments', `The install record ${result.record} is unreadable (${read.problem}); fix or delete it, then run \`chrome-relay install\` and uninstall again.`, {
      tool: 'uninstall',
      phase: 'act',
      details: { field: 'installed.json', record: result.record },
    });
  }
  const record = read.record;
  const remaining: InstallRecord = { ...record, manifests: [], hostFiles: [], createdDirs: [] };

  for (const manifest of record.manifests) {
    if (manifest.registryKey !== undefined) {
      try {
        const key = removeKey((registry ??= systemRegistry()), manifest.registryKey, manifest.path);
        if (key === 'removed') result.removed.push(manifest.registryKey);
        else if (key !== 'gone') result.kept.push({ path: manifest.registryKey, reason: key.kept });
      } catch (error) {
        result.failed.push({ path: manifest.registryKey, error: (error as Error).message });
        remaining.manifests.push(manifest);
        continue;
      }
    }
    const ownership = manifestOwnership(manifest.path, record.launcher);
    if (ownership === 'missing') continue;
    if (ownership !== 'ours') {
      result.kept.push({ path: manifest.path, reason: ownership });
      continue;
    }
    try {
      unlinkSync(manifest.path);
      result.removed.push(manifest.path);
    } catch (error) {
      if (code(error) === 'ENOENT') continue;
      result.failed.push({ path: manifest.path, error: (error as Error).message });
      remaining.manifests.push(manifest);
    }
  }
  for (const file of record.hostFiles) {
    try {
      unlinkSync(file);
      result.removed.push(file);
    } catch (error) {
      if (code(error) === 'ENOENT') continue;
      result.failed.push({ path: file, error: (error as Error).message });
      remaining.hostFiles.push(file);
    }
  }

  // Deepest first, so a parent is empty by the time we reach it. The record itself sits in the home,
  // which install may have created: drop the record before the directories.
  const dirs = [...record.createdDirs].sort((a, b) => b.length - a.length);
  if (result.failed.length === 0) removeRecord(absoluteHome);
  for (const dir of dirs) {
    try {
      rmdirSync(dir);
      result.removed.push(dir);
    } catch (error) {
      const c = code(error);
      if (c === 'ENOENT') continue;
      if (c === 'ENOTEMPTY' || c === 'EEXIST') {
        result.kept.push({ path: dir, reason: 'not empty: holds files chrome-relay did not write' });
        continue;
      }
      result.failed.push({ path: dir, error: (error as Error).message });
      remaining.createdDirs.push(dir);
    }
  }

  if (result.failed.length > 0) {
    writeRecord(absoluteHome, { ...remaining, updatedAt: new Date().toISOString() });
    const first = result.failed[0];
    throw new RelayError(
      'partial_success_disallowed',
      `Removed ${result.removed.length} item(s) but could not remove ${result.failed.length} (first: ${first?.path}: ${first?.error}). Fix the permissions and run \`chrome-relay uninstall\` again; the record keeps what is left.`,
      { tool: 'uninstall', phase: 'act', details: { applied: result.removed, failed: result.failed, kept: result.kept, record: result.record } },
    );
  }
  return result;
}
