/**
 * Where things live. All per-user state sits under one home (CHROME_RELAY_HOME or ~/.chrome-relay) so tests and
 * several profiles stay isolated. The built CLI ships its host bundle and unpacked extension next to itself.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export { relayHome, runDir } from '@chrome-relay/host-files';
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
