/**
 * Registering the native host with a browser: a launcher script (absolute node + host bundle, with our home
 * baked in) and one manifest per browser/profile directory. Chrome only starts hosts named by a manifest whose
 * allowed_origins lists the extension, so the manifest names exactly our extension id(s).
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEV_EXTENSION_ID, HOST_NAME } from '@chrome-relay/protocol';
import { bundledHostFile, installedHostDir } from './paths.js';

export interface InstallTarget {
  browser: string;
  /** The NativeMessagingHosts directory the manifest goes into. */
  dir: string;
}

export interface InstallResult {
  launcher: string;
  written: { browser: string; manifest: string }[];
  failed: { browser: string; manifest: string; error: string }[];
}

/** User-level manifest directories on Linux (Chrome ignores these for a custom --user-data-dir). */
export function linuxTargets(userHome: string = homedir()): InstallTarget[] {
  return [
    { browser: 'chrome', dir: join(userHome, '.config', 'google-chrome', 'NativeMessagingHosts') },
    { browser: 'chromium', dir: join(userHome, '.config', 'chromium', 'NativeMessagingHosts') },
  ];
}

export function profileTarget(userDataDir: string): InstallTarget {
  return { browser: 'profile', dir: join(userDataDir, 'NativeMessagingHosts') };
}

export const manifestPath = (target: InstallTarget): string => join(target.dir, `${HOST_NAME}.json`);

export function allowedExtensionIds(env: NodeJS.ProcessEnv = process.env): string[] {
  const extra = (env.CHROME_RELAY_EXTENSION_IDS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return [DEV_EXTENSION_ID, ...extra.filter((id) => id !== DEV_EXTENSION_ID)];
}

/** Copy the host bundle into the relay home and write its launcher; returns the launcher path. */
export function installLauncher(home: string): string {
  const dir = installedHostDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const hostFile = join(dir, 'host.mjs');
  copyFileSync(bundledHostFile(), hostFile);
  const launcher = join(dir, 'chrome-relay-host');
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  writeFileSync(
    launcher,
    [
      '#!/bin/sh',
      '# chrome-relay native host launcher, written by `chrome-relay install`. Chrome runs it with the',
      '# browser\'s environment; the home is baked in so the host finds the CLI\'s sockets directory.',
      `CHROME_RELAY_HOME="\${CHROME_RELAY_HOME:-${home.replace(/(["\\$`])/g, '\\$1')}}"`,
      'export CHROME_RELAY_HOME',
      `exec ${quote(process.execPath)} ${quote(hostFile)} "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(launcher, 0o755);
  return launcher;
}

export function writeManifest(target: InstallTarget, launcher: string, extensionIds: readonly string[]): string {
  const file = manifestPath(target);
  mkdirSync(target.dir, { recursive: true });
  const manifest = {
    name: HOST_NAME,
    description: 'chrome-relay native host: lets the chrome-relay CLI reach the chrome-relay extension.',
    path: launcher,
    type: 'stdio',
    allowed_origins: extensionIds.map((id) => `chrome-extension://${id}/`),
  };
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return file;
}

export function install(home: string, targets: readonly InstallTarget[], extensionIds: readonly string[]): InstallResult {
  const launcher = installLauncher(home);
  const result: InstallResult = { launcher, written: [], failed: [] };
  for (const target of targets) {
    const manifest = manifestPath(target);
    try {
      writeManifest(target, launcher, extensionIds);
      result.written.push({ browser: target.browser, manifest });
    } catch (error) {
      result.failed.push({ browser: target.browser, manifest, error: (error as Error).message });
    }
  }
  return result;
}

export function manifestExists(target: InstallTarget): boolean {
  return existsSync(manifestPath(target));
}
