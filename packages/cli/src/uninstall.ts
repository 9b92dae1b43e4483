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
 * - With `browsers`, only those browsers' registrations go; the host files and the extension folder stay
 *   while another browser's registration still uses them (said in `kept`, with that reason).
 * - What install did not write stays, and is named in `kept` with why: the home's profiles (a launched
 *   browser's logins and history), logs, the setup page, records of running browsers. Nothing is left unsaid.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { currentPlatform } from '@chrome-relay/host-files';
import type { Registry } from '@chrome-relay/host-files';
import { HOST_NAME, RelayError } from '@chrome-relay/protocol';
import { installedExtensionRoot } from './extensionFolder.js';
import { readRecord, recordPath, removeRecord, writeRecord, type InstallRecord, type RecordRead } from './installRecord.js';
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

/** Why each entry of the home that install did not write is still there, by its name. */
const LEFT_IN_HOME: Readonly<Record<string, string>> = {
  profiles: "browser profiles `chrome-relay launch` made (their logins, cookies, history): yours to keep or delete by hand",
  logs: 'logs of the browsers launch started and of the hosts: delete by hand when no longer wanted',
  setup: 'the page of steps `chrome-relay setup` opened: delete by hand',
  launched: 'records of browsers `chrome-relay launch` started: `chrome-relay stop --all` ends them and removes these',
  run: 'descriptors of hosts a running browser started: each goes when its browser closes',
  cache: "the CLI's start-up code cache: delete by hand",
  secret: 'the secret local clients prove themselves with: delete by hand once no browser runs',
};

/** What is left in the home after the removal, each with why it is still there; then the home itself. */
function leftInHome(home: string, removed: readonly string[]): { path: string; reason: string }[] {
  if (!existsSync(home)) return [];
  let names: string[];
  try {
    names = readdirSync(home).sort();
  } catch {
    return [];
  }
  const kept = names.map((name) => ({ path: join(home, name), reason: LEFT_IN_HOME[name] ?? 'not written by install: left untouched' })).filter((entry) => !removed.includes(entry.path));
  return kept.length === 0 ? [] : [...kept, { path: home, reason: `chrome-relay's home: it still holds the ${kept.length} item(s) above (delete it by hand to remove everything)` }];
}

export interface UninstallOptions {
  registry?: Registry;
  /** Only these browsers' registrations (install's --browser names); the rest of the install stays. */
  browsers?: readonly string[];
}

export function uninstall(home: string, options: UninstallOptions = {}): UninstallResult {
  const absoluteHome = resolve(home);
  const read = readRecord(absoluteHome);
  const only = options.browsers !== undefined && options.browsers.length > 0 ? new Set(options.browsers) : undefined;
  const partial = only === undefined ? undefined : browsersOnly(read, only);
  const result = removeInstalled(absoluteHome, read, options.registry, partial);
  if (partial !== undefined && partial.others.length > 0) return result;
  return { ...result, kept: [...result.kept, ...leftInHome(absoluteHome, [...result.removed, ...result.kept.map((k) => k.path)])] };
}

/** Which manifests `--browser` takes, and which other browsers' stay (with them, the shared files). */
interface Partial {
  chosen: InstallRecord['manifests'];
  others: InstallRecord['manifests'];
}

function browsersOnly(read: RecordRead, only: ReadonlySet<string>): Partial | undefined {
  if (read.kind !== 'ok') return undefined;
  const record = read.record;
  const registered = [...new Set(record.manifests.map((m) => m.browser))];
  const unknown = [...only].filter((browser) => !registered.includes(browser));
  if (unknown.length > 0) {
    throw new RelayError('invalid_arguments', `browser: chrome-relay is not registered for ${unknown.join(', ')}; it is for: ${registered.join(', ') || 'none'}.`, {
      tool: 'uninstall',
      phase: 'cli',
      details: { field: 'browser', value: unknown, registered },
    });
  }
  return { chosen: record.manifests.filter((m) => only.has(m.browser)), others: record.manifests.filter((m) => !only.has(m.browser)) };
}

/**
 * Remove what the record lists (with `partial`, the chosen browsers' manifests only, while other browsers'
 * registrations keep the shared host files, directories and extension folder, said in `kept`).
 */
function removeInstalled(absoluteHome: string, read: RecordRead, registryGiven: Registry | undefined, partial: Partial | undefined): UninstallResult {
  let registry = registryGiven;
  const result: UninstallResult = { record: recordPath(absoluteHome), nothingInstalled: false, removed: [], kept: [], failed: [] };
  const sharing = partial !== undefined && partial.others.length > 0;
  const extension = installedExtensionRoot(absoluteHome);
  if (extension !== null && !sharing) {
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
  const stays = sharing ? partial.others : [];
  const remaining: InstallRecord = { ...record, manifests: [...stays], hostFiles: sharing ? record.hostFiles : [], createdDirs: sharing ? record.createdDirs : [] };

  for (const manifest of partial === undefined ? record.manifests : partial.chosen) {
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
  if (sharing) {
    const still = [...new Set(partial.others.map((m) => m.browser))].join(', ');
    const reason = `still used by ${still}, which stay${partial.others.length === 1 ? 's' : ''} registered (\`chrome-relay uninstall\` without --browser removes everything)`;
    for (const path of [...record.hostFiles, ...(extension === null ? [] : [extension])]) result.kept.push({ path, reason });
    writeRecord(absoluteHome, { ...remaining, updatedAt: new Date().toISOString() });
    return failedOrDone(result);
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
        // The home: what it holds is named below, each with its own reason.
        if (resolve(dir) !== absoluteHome) result.kept.push({ path: dir, reason: 'not empty: holds files chrome-relay did not write' });
        continue;
      }
      result.failed.push({ path: dir, error: (error as Error).message });
      remaining.createdDirs.push(dir);
    }
  }
  if (result.failed.length > 0) writeRecord(absoluteHome, { ...remaining, updatedAt: new Date().toISOString() });
  return failedOrDone(result);
}

/** Whatever could not be removed stays in the record (written by the caller): run uninstall again to finish. */
function failedOrDone(result: UninstallResult): UninstallResult {
  if (result.failed.length === 0) return result;
  const first = result.failed[0];
  throw new RelayError(
    'partial_success_disallowed',
    `Removed ${result.removed.length} item(s) but could not remove ${result.failed.length} (first: ${first?.path}: ${first?.error}). Fix the permissions and run \`chrome-relay uninstall\` again; the record keeps what is left.`,
    { tool: 'uninstall', phase: 'act', details: { applied: result.removed, failed: result.failed, kept: result.kept, record: result.record } },
  );
}
