/**
 * Linux (and every other Unix but macOS): state in ~/.chrome-relay; a Unix socket per host, falling back
 * to $XDG_RUNTIME_DIR when the home's path is too long; zombies read from /proc; browsers under the XDG
 * config root, where Chromium reads `<user-data-dir>/NativeMessagingHosts`; executables at their
 * packages' paths and on PATH.
 */
import { posix } from 'node:path';
import type { BrowserSpec } from './browsers.js';
import type { Platform, UserFacts } from './seam.js';
import { readFileSync } from 'node:fs';
import { killZeroAlive, prepareUnixSocket, shLauncher } from './posix.js';

/** $XDG_CONFIG_HOME when absolute (Chromium ignores a relative one), else ~/.config. */
function configRoot(user: UserFacts): string {
  const xdg = user.env.XDG_CONFIG_HOME;
  return xdg && posix.isAbsolute(xdg) ? xdg : posix.join(user.userHome, '.config');
}

export const linux: Platform = {
  os: 'linux',
  samePath: (a, b) => a === b,
  programFile: (name) => name,
  profileManifests: true,
  defaultHome: (user) => posix.join(user.userHome, '.chrome-relay'),
  secretFile: () => null,
  // sun_path holds 108 bytes with the NUL.
  prepareEndpoint: (request) => prepareUnixSocket({ maxBytes: 107, osLabel: 'Linux', runtimeVariable: 'XDG_RUNTIME_DIR' }, request),
  isPidAlive: (pid) => killZeroAlive(pid, true),
  commandLineOf(pid) {
    try {
      // NUL-separated with a trailing NUL.
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0$/, '').split('\0').join(' ');
    } catch {
      return null;
    }
  },
  launcher: shLauncher,
  browserPlaces(spec: BrowserSpec, user: UserFacts) {
    if (spec.linux === undefined) return null;
    const userDataDir = posix.join(configRoot(user), spec.linux.config);
    return { userDataDir, manifestDir: posix.join(userDataDir, 'NativeMessagingHosts'), registryKey: null };
  },
  browserExecutables(spec: BrowserSpec, user: UserFacts) {
    if (spec.linux === undefined) return [];
    const dirs = (user.env.PATH ?? '').split(':').filter((dir) => dir !== '');
    return [...(spec.linux.paths ?? []), ...spec.linux.commands.flatMap((command) => dirs.map((dir) => posix.join(dir, command)))];
  },
  browserProgram: (given) => given,
};
