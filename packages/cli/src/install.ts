/**
 * Registering the native host with browsers: a launcher script (absolute node + host bundle, with our home
 * and extension ids baked in) and one manifest per browser or profile directory. Chrome only starts hosts
 * named by a manifest whose allowed_origins lists the extension, so manifests name exactly our id(s).
 *
 * Everything written is merged into the install record (installRecord.ts) as it is written, including
 * after a partial failure, so `uninstall` can always remove exactly what exists.
 */
import { chmodSync, copyFileSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEV_EXTENSION_ID, HOME_ENV, HOST_NAME, RelayError, VERSION } from '@chrome-relay/protocol';
import { browserTarget, browserTargets, type BrowserEnv } from './browsers.js';
import { mergeRecords, readRecord, recordPath, writeRecord, type InstallRecord } from './installRecord.js';
import { makeDirs, makePrivateDirsFor } from './outputFiles.js';
import { bundledHostFile, installedHostDir } from './paths.js';

export interface InstallTarget {
  /** A browser name from browsers.ts, or 'profile' for a --user-data-dir. */
  browser: string;
  /** The NativeMessagingHosts directory the manifest goes into. */
  dir: string;
}

export interface InstallResult {
  launcher: string;
  hostFile: string;
  extensionIds: string[];
  written: { browser: string; manifest: string }[];
  failed: { browser: string; manifest: string; error: string }[];
  /** The install record `uninstall` reads. */
  record: string;
}

export interface InstallOptions {
  /** The host bundle to copy (default: the one shipped next to this CLI). */
  hostSource?: string;
}

/** Variable the host reads for extension ids beyond the dev id (see native-host/src/origin.ts). */
const EXTENSION_IDS_ENV = 'CHROME_RELAY_EXTENSION_IDS';
const EXTENSION_ID = /^[a-p]{32}$/;

export function profileTarget(userDataDir: string): InstallTarget {
  return { browser: 'profile', dir: join(resolve(userDataDir), 'NativeMessagingHosts') };
}

export const manifestPath = (target: InstallTarget): string => join(target.dir, `${HOST_NAME}.json`);

export function parseExtensionId(raw: string): string {
  if (EXTENSION_ID.test(raw)) return raw;
  throw new RelayError('invalid_arguments', `extension-id: must be 32 letters a–p (as shown in chrome://extensions), got "${raw}".`, {
    tool: 'install',
    phase: 'cli',
    details: { field: 'extension-id', value: raw },
  });
}

/** The dev id, then ids from CHROME_RELAY_EXTENSION_IDS and `extra`, without duplicates. */
export function allowedExtensionIds(env: NodeJS.ProcessEnv = process.env, extra: readonly string[] = []): string[] {
  const fromEnv = (env[EXTENSION_IDS_ENV] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return [...new Set([DEV_EXTENSION_ID, ...fromEnv, ...extra])];
}

/**
 * Which manifest directories an install request means. No --browser and no --user-data-dir: every
 * detected browser. A named browser is written even when not detected (the user asked for it).
 */
export function resolveInstallTargets(request: { browsers: readonly string[]; userDataDir?: string | undefined }, env: BrowserEnv): InstallTarget[] {
  const named: InstallTarget[] = request.browsers.map((name) => browserTarget(name, env));
  if (request.userDataDir) named.push(profileTarget(request.userDataDir));
  if (named.length > 0) return [...new Map(named.map((t) => [t.dir, t])).values()];
  const detected = browserTargets(env).filter((t) => t.detected);
  if (detected.length === 0) {
    const looked = browserTargets(env).map((t) => t.userDataDir);
    throw new RelayError(
      'external_dependency_missing',
      'No Chromium-family browser has run for this user (none of their profile directories exist). Start your browser once, or pass --browser NAME or --user-data-dir DIR.',
      { tool: 'install', phase: 'cli', details: { dependency: 'a Chromium-family browser', looked } },
    );
  }
  return detected.map((t) => ({ browser: t.browser, dir: t.dir }));
}


/** Write via a temp file and rename: Chrome (or a starting host) must never read half a file. */
function writeAtomic(file: string, content: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, content, { mode });
    chmodSync(tmp, mode);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const shellDefault = (s: string): string => s.replace(/(["\\$`])/g, '\\$1');

export function launcherScript(home: string, hostFile: string, extensionIds: readonly string[], node: string = process.execPath): string {
  const extra = extensionIds.filter((id) => id !== DEV_EXTENSION_ID);
  return [
    '#!/bin/sh',
    '# chrome-relay native host launcher, written by `chrome-relay install`. Chrome runs it with the',
    "# browser's environment; home and extension ids are baked in so the host agrees with the CLI.",
    `${HOME_ENV}="\${${HOME_ENV}:-${shellDefault(home)}}"`,
    `export ${HOME_ENV}`,
    ...(extra.length > 0 ? [`${EXTENSION_IDS_ENV}="\${${EXTENSION_IDS_ENV}:-${shellDefault(extra.join(','))}}"`, `export ${EXTENSION_IDS_ENV}`] : []),
    `exec ${shellQuote(node)} ${shellQuote(hostFile)} "$@"`,
    '',
  ].join('\n');
}

/** Parse the node and host paths back out of a launcher (doctor checks both still exist). */
export function launcherTargets(script: string): { node: string; hostFile: string } | null {
  const match = /^exec '((?:[^']|'\\'')*)' '((?:[^']|'\\'')*)' "\$@"$/m.exec(script);
  if (!match?.[1] || !match[2]) return null;
  const unquote = (s: string): string => s.replace(/'\\''/g, "'");
  return { node: unquote(match[1]), hostFile: unquote(match[2]) };
}

function homeUnwritable(home: string, error: unknown): RelayError {
  return new RelayError('invalid_arguments', `Cannot write the native host into ${installedHostDir(home)}: ${(error as Error).message}. Point ${HOME_ENV} at a writable directory.`, {
    tool: 'install',
    phase: 'act',
    details: { field: HOME_ENV, home },
  });
}

/** Copy the host bundle into <home>/host and write its launcher; records both. */
function installHostFiles(home: string, extensionIds: readonly string[], options: InstallOptions = {}): { launcher: string; hostFile: string; createdDirs: string[] } {
  const source = options.hostSource ?? bundledHostFile();
  if (!existsSync(source)) {
    throw new RelayError('internal_error', `The CLI package is incomplete: ${source} is missing. Reinstall chrome-relay (or run \`node scripts/build.mjs\` in a checkout).`, {
      tool: 'install',
      phase: 'act',
      details: { missing: source },
    });
  }
  const dir = installedHostDir(home);
  const hostFile = join(dir, 'host.mjs');
  const launcher = join(dir, 'chrome-relay-host');
  try {
    // makeDirs reports which directories it created, so uninstall removes exactly those.
    const createdDirs = makeDirs(dir, 0o700);
    // A home an older version made 0755 is tightened: it names sockets and profiles.
    makePrivateDirsFor(HOME_ENV, [home, dir]);
    const tmp = `${hostFile}.${process.pid}.tmp`;
    copyFileSync(source, tmp);
    renameSync(tmp, hostFile);
    writeAtomic(launcher, launcherScript(home, hostFile, extensionIds), 0o755);
    return { launcher, hostFile, createdDirs };
  } catch (error) {
    throw homeUnwritable(home, error);
  }
}

function writeManifest(target: InstallTarget, launcher: string, extensionIds: readonly string[]): { file: string; createdDirs: string[] } {
  const file = manifestPath(target);
  const createdDirs = makeDirs(target.dir);
  const manifest = {
    name: HOST_NAME,
    description: 'chrome-relay native host: lets the chrome-relay CLI reach the chrome-relay extension.',
    path: launcher,
    type: 'stdio',
    allowed_origins: extensionIds.map((id) => `chrome-extension://${id}/`),
  };
  try {
    writeAtomic(file, `${JSON.stringify(manifest, null, 2)}\n`, 0o644);
  } catch (error) {
    // The directories we made are still ours to clean up: attach them to the failure.
    throw Object.assign(error as Error, { createdDirs });
  }
  return { file, createdDirs };
}

function previousRecord(home: string): InstallRecord | null {
  const read = readRecord(home);
  // A corrupt record is left for the user to inspect: install overwrites it with what it knows now.
  return read.kind === 'ok' ? read.record : null;
}

/** Install the host files and one manifest per target. Never throws for a manifest: failures are listed. */
export function install(home: string, targets: readonly InstallTarget[], extensionIds: readonly string[], options: InstallOptions = {}): InstallResult {
  const absoluteHome = resolve(home);
  const previous = previousRecord(absoluteHome);
  // Ids accumulate: a later `launch` (dev id only) must not drop a store id an earlier install allowed.
  const ids = [...new Set([...(previous?.extensionIds ?? []), ...extensionIds])];
  const host = installHostFiles(absoluteHome, ids, options);
  const result: InstallResult = { launcher: host.launcher, hostFile: host.hostFile, extensionIds: ids, written: [], failed: [], record: recordPath(absoluteHome) };
  const createdDirs = [...host.createdDirs];
  for (const target of targets) {
    const manifest = manifestPath(target);
    try {
      const written = writeManifest(target, host.launcher, ids);
      createdDirs.push(...written.createdDirs);
      result.written.push({ browser: target.browser, manifest });
    } catch (error) {
      const dirs = (error as { createdDirs?: unknown }).createdDirs;
      if (Array.isArray(dirs)) createdDirs.push(...dirs.filter((d): d is string => typeof d === 'string'));
      result.failed.push({ browser: target.browser, manifest, error: (error as Error).message });
    }
  }
  writeRecord(
    absoluteHome,
    mergeRecords(previous, {
      cliVersion: VERSION,
      updatedAt: new Date().toISOString(),
      launcher: host.launcher,
      hostFiles: [host.launcher, host.hostFile],
      extensionIds: ids,
      manifests: result.written.map((w) => ({ browser: w.browser, path: w.manifest })),
      createdDirs,
    }),
  );
  return result;
}

/** install() that refuses partial success: any manifest not written fails the whole command. */
export function installOrThrow(home: string, targets: readonly InstallTarget[], extensionIds: readonly string[], options: InstallOptions = {}): InstallResult {
  const result = install(home, targets, extensionIds, options);
  if (result.failed.length === 0) return result;
  const first = result.failed[0];
  throw new RelayError(
    'partial_success_disallowed',
    `Wrote ${result.written.length} of ${targets.length} host manifest(s); could not write ${first?.manifest} (${first?.error}). Fix that directory's permissions and run install again; \`chrome-relay uninstall\` removes what was written.`,
    { tool: 'install', phase: 'act', details: { applied: result.written, failed: result.failed, launcher: result.launcher, record: result.record } },
  );
}
