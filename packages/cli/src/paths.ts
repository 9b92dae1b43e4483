/**
 * Where things live. All per-user state sits under one home (CHROME_RELAY_HOME or ~/.chrome-relay) so tests and
 * several profiles stay isolated. The built CLI ships its host bundle and unpacked extension next to itself.
 */
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOME_ENV } from '@chrome-relay/protocol';

export function relayHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[HOME_ENV];
  return fromEnv && fromEnv.length > 0 ? fromEnv : join(homedir(), '.chrome-relay');
}

export const runDir = (home: string): string => join(home, 'run');
export const installedHostDir = (home: string): string => join(home, 'host');
export const profilesDir = (home: string): string => join(home, 'profiles');
export const defaultProfileDir = (home: string): string => join(profilesDir(home), 'default');
export const logsDir = (home: string): string => join(home, 'logs');

/** Directory of the running bundle (dist/), where build.mjs puts host/ and extension/. */
export function distDir(): string {
  return dirname(fileURLToPath(import.meta.url));
}
export const bundledHostFile = (): string => join(distDir(), 'host', 'host.mjs');
export const bundledExtensionDir = (): string => join(distDir(), 'extension');
