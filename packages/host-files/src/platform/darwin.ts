/**
 * macOS: state in ~/.chrome-relay, as on Linux; a Unix socket per host within the 103 bytes macOS allows,
 * falling back to the per-user $TMPDIR (/var/folders/…, private to this user); no /proc, so liveness is
 * kill(0) alone; browsers under ~/Library/Application Support, where Chromium reads
 * `<user-data-dir>/NativeMessagingHosts`; executables inside app bundles in /Applications or ~/Applications.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import type { BrowserSpec } from './browsers.js';
import type { Platform, UserFacts } from './seam.js';
import { killZeroAlive, prepareUnixSocket, shLauncher } from './posix.js';

export const darwin: Platform = {
  os: 'darwin',
  samePath: (a, b) => a === b,
  programFile: (name) => name,
  profileManifests: true,
  defaultHome: (user) => posix.join(user.userHome, '.chrome-relay'),
  secretFile: () => null,
  // sun_path holds 104 bytes with the NUL.
  prepareEndpoint: (request) => prepareUnixSocket({ maxBytes: 103, osLabel: 'macOS', runtimeVariable: 'TMPDIR' }, request),
  isPidAlive: (pid) => killZeroAlive(pid, false),
  commandLineOf(pid) {
    try {
      // No /proc: ps prints the command line (empty and exit 1 for a pid that is gone).
      const line = execFileSync('/bin/ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      return line === '' ? null : line;
    } catch {
      return null;
    }
  },
  launcher: shLauncher,
  browserPlaces(spec: BrowserSpec, user: UserFacts) {
    if (spec.darwin === undefined) return null;
    const userDataDir = posix.join(user.userHome, 'Library', 'Application Support', spec.darwin.support);
    return { userDataDir, manifestDir: posix.join(userDataDir, 'NativeMessagingHosts'), registryKey: null };
  },
  browserExecutables(spec: BrowserSpec, user: UserFacts) {
    const app = spec.darwin?.app;
    if (app === undefined) return [];
    return ['/Applications', posix.join(user.userHome, 'Applications')].map((root) => posix.join(root, `${app}.app`, 'Contents', 'MacOS', app));
  },
  browserProgram: (given) => appBundleProgram(given) ?? given,
};

/**
 * `/Applications/Google Chrome.app` names the program `Contents/MacOS/<CFBundleExecutable>` inside it
 * (Finder shows a bundle as one file, so that is what a person copies). Info.plist is read when it is XML;
 * a binary one falls back to the convention that the executable carries the bundle's name.
 */
function appBundleProgram(given: string): string | null {
  const bundle = given.replace(/\/+$/, '');
  if (!/\.app$/i.test(bundle)) return null;
  try {
    if (!statSync(bundle).isDirectory()) return null;
  } catch {
    return null;
  }
  let name = posix.basename(bundle).replace(/\.app$/i, '');
  try {
    const plist = readFileSync(posix.join(bundle, 'Contents', 'Info.plist'), 'utf8');
    name = /<key>CFBundleExecutable<\/key>\s*<string>([^<]+)<\/string>/.exec(plist)?.[1]?.trim() ?? name;
  } catch {
    /* no readable Info.plist: the convention */
  }
  return posix.join(bundle, 'Contents', 'MacOS', name);
}
