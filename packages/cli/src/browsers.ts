/**
 * The Chromium-family browsers `install`, `doctor`, `setup` and `launch` know, for the platform at hand:
 * the table and the per-OS rules live in the platform seam (@chrome-relay/host-files, platform/); this
 * module turns them into what the commands act on. A browser counts as present ("detected") when its
 * default user-data-dir exists: it has run at least once for this user, and registering the host for
 * browsers that were never run would only leave litter.
 */
import { existsSync } from 'node:fs';
import { BROWSERS, osOf, platformOf } from '@chrome-relay/host-files';
import type { Platform, UserFacts } from '@chrome-relay/host-files';
import { HOST_NAME, RelayError } from '@chrome-relay/protocol';

export { browserOfExecutable } from '@chrome-relay/host-files';

/** What browser lookup depends on, injected so tests describe a machine as plain data. */
export interface BrowserEnv {
  platform: NodeJS.Platform;
  /** The user's home directory (not CHROME_RELAY_HOME). */
  userHome: string;
  /** XDG_CONFIG_HOME and PATH on Linux; LOCALAPPDATA and ProgramFiles on Windows (none when absent). */
  env?: NodeJS.ProcessEnv;
}

export interface BrowserTarget {
  browser: string;
  label: string;
  userDataDir: string;
  /** Linux, macOS: the NativeMessagingHosts directory a manifest for this browser goes into. */
  dir: string | null;
  /** Windows: the registry key whose default value names our manifest. */
  registryKey: string | null;
  detected: boolean;
}

export function browserEnvFromProcess(userHome: string, env: NodeJS.ProcessEnv = process.env): BrowserEnv {
  return { platform: process.platform, userHome, env };
}

export function platformOfEnv(env: BrowserEnv): Platform {
  return platformOf(osOf(env.platform));
}

const userOf = (env: BrowserEnv): UserFacts => ({ env: env.env ?? {}, userHome: env.userHome });

/** Every browser this platform can have, detected or not, in table order. */
export function browserTargets(env: BrowserEnv): BrowserTarget[] {
  const platform = platformOfEnv(env);
  const targets: BrowserTarget[] = [];
  for (const spec of BROWSERS) {
    const places = platform.browserPlaces(spec, userOf(env));
    if (places === null) continue;
    targets.push({
      browser: spec.name,
      label: spec.label,
      userDataDir: places.userDataDir,
      dir: places.manifestDir,
      registryKey: places.registryKey === null ? null : `${places.registryKey}\\${HOST_NAME}`,
      detected: existsSync(places.userDataDir),
    });
  }
  return targets;
}

export function browserNames(env: BrowserEnv): string[] {
  return browserTargets(env).map((t) => t.browser);
}

/** The browser called `name` on this platform; unknown names are invalid_arguments listing the valid ones. */
export function browserTarget(name: string, env: BrowserEnv): BrowserTarget {
  const all = browserTargets(env);
  const found = all.find((t) => t.browser === name);
  if (found) return found;
  const valid = all.map((t) => t.browser);
  throw new RelayError('invalid_arguments', `browser: must be one of ${valid.join(', ')}, got "${name}".`, {
    tool: 'install',
    phase: 'cli',
    details: { field: 'browser', value: name, valid },
  });
}

/** The browser's executable on this machine (package paths and PATH; app bundles; Program Files), or null. */
export function browserExecutable(name: string, env: BrowserEnv, isExecutable: (path: string) => boolean): string | null {
  const spec = BROWSERS.find((b) => b.name === name);
  if (spec === undefined) return null;
  return platformOfEnv(env).browserExecutables(spec, userOf(env)).find(isExecutable) ?? null;
}
