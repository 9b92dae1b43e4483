/**
 * Registering the native host with browsers: a launcher (absolute node + host bundle, with our home and
 * extension ids baked in; a shell script, or a .cmd file on Windows) and one manifest per browser or
 * profile directory. Chrome only starts hosts named by a manifest whose allowed_origins lists the
 * extension, so manifests name exactly our id(s). Where Chrome looks for the manifest is the platform's
 * (host-files platform/): a NativeMessagingHosts directory on Linux and macOS; on Windows a registry key
 * per browser whose default value names the manifest, which lives in <home>\host\manifests.
 *
 * Everything written is merged into the install record (installRecord.ts) as it is written, including
 * after a partial failure, so `uninstall` can always remove exactly what exists.
 */
import { chmodSync, copyFileSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { currentPlatform } from '@chrome-relay/host-files';
import type { Platform, Registry } from '@chrome-relay/host-files';
import { DEV_EXTENSION_ID, HOME_ENV, HOST_NAME, RelayError, VERSION } from '@chrome-relay/protocol';
import { browserTarget, browserTargets, platformOfEnv, type BrowserEnv, type BrowserTarget } from './browsers.js';
import { mergeRecords, readRecord, recordPath, writeRecord, type InstallRecord } from './installRecord.js';
import { makeDirs, makePrivateDirsFor } from './outputFiles.js';
import { bundledHostFile, installedHostDir } from './paths.js';
import { systemRegistry } from './systemRegistry.js';

export interface InstallTarget {
  /** A browser name from browsers.ts, or 'profile' for a --user-data-dir. */
  browser: string;
  /** The manifest file. */
  manifest: string;
  /** Windows: the registry key that must name the manifest for the browser to find it. */
  registryKey: string | null;
}

export interface InstallResult {
  launcher: string;
  hostFile: string;
  extensionIds: string[];
  written: { browser: string; manifest: string; registryKey?: string }[];
  failed: { browser: string; manifest: string; error: string }[];
  /** The install record `uninstall` reads. */
  record: string;
}

export interface InstallOptions {
  /** The host bundle to copy (default: the one shipped next to this CLI). */
  hostSource?: string;
  /** Whose launcher format and registry (default: this machine's). */
  platform?: Platform;
  registry?: Registry;
}

/** Variable the host reads for extension ids beyond the dev id (see native-host/src/origin.ts). */
const EXTENSION_IDS_ENV = 'CHROME_RELAY_EXTENSION_IDS';
const EXTENSION_ID = /^[a-p]{32}$/;

/** A browser started with --user-data-dir reads manifests from that profile's NativeMessagingHosts (not on Windows). */
export function profileTarget(userDataDir: string): InstallTarget {
  return { browser: 'profile', manifest: join(resolve(userDataDir), 'NativeMessagingHosts', `${HOST_NAME}.json`), registryKey: null };
}

/** Where a browser's manifest goes: its manifest directory, or (Windows) <home>/host/manifests, named by its registry key. */
export function installTargetOf(target: BrowserTarget, home: string): InstallTarget {
  if (target.dir !== null) return { browser: target.browser, manifest: join(target.dir, `${HOST_NAME}.json`), registryKey: null };
  return { browser: target.browser, manifest: join(installedHostDir(resolve(home)), 'manifests', `${target.browser}.json`), registryKey: target.registryKey };
}

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
 * Which manifests an install request means. No --browser and no --user-data-dir: every detected
 * browser. A named browser is written even when not detected (the user asked for it).
 */
export function resolveInstallTargets(request: { browsers: readonly string[]; userDataDir?: string | undefined }, env: BrowserEnv, home: string): InstallTarget[] {
  const named: InstallTarget[] = request.browsers.map((name) => installTargetOf(browserTarget(name, env), home));
  if (request.userDataDir) {
    if (!platformOfEnv(env).profileManifests) {
      throw new RelayError(
        'invalid_arguments',
        'user-data-dir: on Windows Chrome finds native hosts only through the registry, per browser (never in a profile directory); pass --browser NAME for the browser that profile belongs to.',
        { tool: 'install', phase: 'cli', details: { field: 'user-data-dir', value: request.userDataDir } },
      );
    }
    named.push(profileTarget(request.userDataDir));
  }
  if (named.length > 0) return [...new Map(named.map((t) => [t.manifest, t])).values()];
  const detected = browserTargets(env).filter((t) => t.detected);
  if (detected.length === 0) {
    const looked = browserTargets(env).map((t) => t.userDataDir);
    throw new RelayError(
      'external_dependency_missing',
      'No Chromium-family browser has run for this user (none of their profile directories exist). Start your browser once, or pass --browser NAME or --user-data-dir DIR.',
      { tool: 'install', phase: 'cli', details: { dependency: 'a Chromium-family browser', looked } },
    );
  }
  return detected.map((t) => installTargetOf(t, home));
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

/** The launcher's text for this platform: node runs the host with our home and extra extension ids as defaults. */
export function launcherScript(home: string, hostFile: string, extensionIds: readonly string[], node: string = process.execPath, platform: Platform = currentPlatform()): string {
  const extra = extensionIds.filter((id) => id !== DEV_EXTENSION_ID);
  return platform.launcher.script({
    file: join(dirname(hostFile), platform.launcher.fileName),
    node,
    hostFile,
    defaults: [{ name: HOME_ENV, value: home, path: true }, ...(extra.length > 0 ? [{ name: EXTENSION_IDS_ENV, value: extra.join(',') }] : [])],
    env: process.env,
  });
}

/** Parse the node and host paths back out of a launcher (doctor checks both still exist). */
export function launcherTargets(script: string, file: string, platform: Platform = currentPlatform(), env: NodeJS.ProcessEnv = process.env): { node: string; hostFile: string } | null {
  return platform.launcher.targets(script, file, env);
}

function homeUnwritable(home: string, error: unknown): RelayError {
  return new RelayError('invalid_arguments', `Cannot write the native host into ${installedHostDir(home)}: ${(error as Error).message}. Point ${HOME_ENV} at a writable directory.`, {
    tool: 'install',
    phase: 'act',
    details: { field: HOME_ENV, home },
  });
}

/** Copy the host bundle into <home>/host and write its launcher; records both. */
function installHostFiles(home: string, extensionIds: readonly string[], platform: Platform, options: InstallOptions = {}): { launcher: string; hostFile: string; createdDirs: string[] } {
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
  const launcher = join(dir, platform.launcher.fileName);
  try {
    // makeDirs reports which directories it created, so uninstall removes exactly those.
    const createdDirs = makeDirs(dir, 0o700);
    // A home an older version made 0755 is tightened: it names sockets and profiles.
    makePrivateDirsFor(HOME_ENV, [home, dir]);
    const tmp = `${hostFile}.${process.pid}.tmp`;
    copyFileSync(source, tmp);
    renameSync(tmp, hostFile);
    writeAtomic(launcher, launcherScript(home, hostFile, extensionIds, process.execPath, platform), 0o755);
    return { launcher, hostFile, createdDirs };
  } catch (error) {
    throw homeUnwritable(home, error);
  }
}

function writeManifest(target: InstallTarget, launcher: string, extensionIds: readonly string[], registry: () => Registry): { file: string; createdDirs: string[] } {
  const file = target.manifest;
  const createdDirs = makeDirs(dirname(file));
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
  if (target.registryKey !== null) {
    try {
      registry().writeDefault(target.registryKey, file);
    } catch (error) {
      // A manifest no key names is litter: take it back, and report the key.
      rmSync(file, { force: true });
      throw Object.assign(new Error(`cannot set ${target.registryKey}: ${(error as Error).message}`), { createdDirs });
    }
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
  const platform = options.platform ?? currentPlatform();
  let registry: Registry | undefined = options.registry;
  const registryOnce = (): Registry => (registry ??= systemRegistry());
  const previous = previousRecord(absoluteHome);
  // Ids accumulate: a later `launch` (dev id only) must not drop a store id an earlier install allowed.
  const ids = [...new Set([...(previous?.extensionIds ?? []), ...extensionIds])];
  const host = installHostFiles(absoluteHome, ids, platform, options);
  const result: InstallResult = { launcher: host.launcher, hostFile: host.hostFile, extensionIds: ids, written: [], failed: [], record: recordPath(absoluteHome) };
  const createdDirs = [...host.createdDirs];
  for (const target of targets) {
    const manifest = target.manifest;
    try {
      const written = writeManifest(target, host.launcher, ids, registryOnce);
      createdDirs.push(...written.createdDirs);
      result.written.push({ browser: target.browser, manifest, ...(target.registryKey === null ? {} : { registryKey: target.registryKey }) });
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
      manifests: result.written.map((w) => ({ browser: w.browser, path: w.manifest, ...(w.registryKey === undefined ? {} : { registryKey: w.registryKey }) })),
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
    `Wrote ${result.written.length} of ${targets.length} host manifest(s); could not write ${first?.manifest} (${first?.error}). Fix what that names (a directory's permissions, or the registry key) and run install again; \`chrome-relay uninstall\` removes what was written.`,
    { tool: 'install', phase: 'act', details: { applied: result.written, failed: result.failed, launcher: result.launcher, record: result.record } },
  );
}
