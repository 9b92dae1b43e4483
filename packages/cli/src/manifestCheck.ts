/**
 * Is one native messaging manifest usable? Chrome silently ignores a manifest with the wrong name, a
 * relative or missing path, or an origin list without the caller ("Specified native messaging host not
 * found." is all the extension sees), so each of those is spelled out here.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Platform } from '@chrome-relay/host-files';
import { HOST_NAME } from '@chrome-relay/protocol';

export type ManifestState =
  | { kind: 'ok'; launcher: string; origins: string[] }
  | { kind: 'missing' }
  | { kind: 'broken'; problem: string };

const ORIGIN = /^chrome-extension:\/\/([a-p]{32})\/$/;

export function inspectManifest(file: string, ourIds: readonly string[], platform: Platform): ManifestState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'broken', problem: `unreadable: ${(error as Error).message}` };
  }
  let manifest: { name?: unknown; path?: unknown; type?: unknown; allowed_origins?: unknown };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    return { kind: 'broken', problem: 'not valid JSON' };
  }
  if (manifest.name !== HOST_NAME) return { kind: 'broken', problem: `names host "${String(manifest.name)}", not ${HOST_NAME}` };
  if (manifest.type !== 'stdio') return { kind: 'broken', problem: `type is "${String(manifest.type)}", not stdio` };
  const launcher = typeof manifest.path === 'string' ? manifest.path : '';
  if (!isAbsolute(launcher)) return { kind: 'broken', problem: `path "${launcher}" is not absolute` };
  const unstartable = platform.launcher.unstartable(launcher);
  if (unstartable !== null) return { kind: 'broken', problem: unstartable };
  try {
    if (!statSync(launcher).isFile()) return { kind: 'broken', problem: `path ${launcher} is not a file` };
    accessSync(launcher, constants.X_OK);
  } catch {
    return { kind: 'broken', problem: `path ${launcher} is not an existing executable` };
  }
  const origins = Array.isArray(manifest.allowed_origins) ? manifest.allowed_origins.filter((o): o is string => typeof o === 'string') : [];
  const ids = origins.map((o) => ORIGIN.exec(o)?.[1] ?? o);
  const foreign = ids.filter((id) => !ourIds.includes(id));
  if (foreign.length > 0) return { kind: 'broken', problem: `allowed_origins lets other extensions start the host: ${foreign.join(', ')}` };
  if (ids.length === 0) return { kind: 'broken', problem: 'allowed_origins names no extension' };
  return { kind: 'ok', launcher, origins };
}
