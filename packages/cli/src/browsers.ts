/**
 * The Chromium-family browsers `install` and `doctor` know, and where each keeps its per-user native
 * messaging manifests. Chromium on every POSIX platform reads user-level manifests from
 * `<default user-data-dir>/NativeMessagingHosts`, so one table of user-data-dirs is all we need.
 * A browser counts as present ("detected") when its user-data-dir exists: it has run at least once
 * for this user, and creating manifests for browsers that were never run would only leave litter.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { RelayError } from '@chrome-relay/protocol';

/** The two layouts we know; every non-macOS Unix uses the XDG (Linux) one. */
export type Layout = 'linux' | 'darwin';

interface BrowserSpec {
  readonly name: string;
  readonly label: string;
  /** User-data-dir relative to the config root ($XDG_CONFIG_HOME or ~/.config); absent = not on Linux. */
  readonly linux?: string;
  /** User-data-dir relative to ~/Library/Application Support; absent = not on macOS. */
  readonly darwin?: string;
  /** Matches the browser executable's path, to name the browser a running host belongs to. */
  readonly executable: RegExp;
  /** Command names on Linux (looked up on PATH), to open a page in it (`setup`). */
  readonly commands?: readonly string[];
}

const BROWSERS: readonly BrowserSpec[] = [
  { name: 'chrome', label: 'Google Chrome', linux: 'google-chrome', darwin: 'Google/Chrome', executable: /google\/chrome\/|google-chrome(?!-)|Google Chrome(?! (?:Beta|Dev|Canary))/, commands: ['google-chrome', 'google-chrome-stable'] },
  { name: 'chrome-beta', label: 'Google Chrome Beta', linux: 'google-chrome-beta', darwin: 'Google/Chrome Beta', executable: /chrome-beta\/|Google Chrome Beta/, commands: ['google-chrome-beta'] },
  { name: 'chrome-dev', label: 'Google Chrome Dev', linux: 'google-chrome-unstable', darwin: 'Google/Chrome Dev', executable: /chrome-unstable\/|Google Chrome Dev/, commands: ['google-chrome-unstable'] },
  { name: 'chrome-canary', label: 'Google Chrome Canary', linux: 'google-chrome-canary', darwin: 'Google/Chrome Canary', executable: /chrome-canary\/|Google Chrome Canary/ },
  { name: 'chromium', label: 'Chromium', linux: 'chromium', darwin: 'Chromium', executable: /chromium/i, commands: ['chromium', 'chromium-browser'] },
  { name: 'brave', label: 'Brave', linux: 'BraveSoftware/Brave-Browser', darwin: 'BraveSoftware/Brave-Browser', executable: /brave/i, commands: ['brave-browser', 'brave'] },
  { name: 'edge', label: 'Microsoft Edge', linux: 'microsoft-edge', darwin: 'Microsoft Edge', executable: /msedge|microsoft-edge|Microsoft Edge/, commands: ['microsoft-edge', 'microsoft-edge-stable'] },
  { name: 'vivaldi', label: 'Vivaldi', linux: 'vivaldi', darwin: 'Vivaldi', executable: /vivaldi/i, commands: ['vivaldi', 'vivaldi-stable'] },
  { name: 'opera', label: 'Opera', linux: 'opera', darwin: 'com.operasoftware.Opera', executable: /opera/i, commands: ['opera'] },
  { name: 'arc', label: 'Arc', darwin: 'Arc/User Data', executable: /Arc\.app/ },
];

/** What browser lookup depends on, injected so tests describe a machine as plain data. */
export interface BrowserEnv {
  platform: NodeJS.Platform;
  /** The user's home directory (not CHROME_RELAY_HOME). */
  userHome: string;
  /** $XDG_CONFIG_HOME; Chromium on Linux honours it when it is an absolute path. */
  xdgConfigHome?: string | undefined;
}

export interface BrowserTarget {
  browser: string;
  label: string;
  userDataDir: string;
  /** The NativeMessagingHosts directory a manifest for this browser goes into. */
  dir: string;
  detected: boolean;
}

export function browserEnvFromProcess(userHome: string, env: NodeJS.ProcessEnv = process.env): BrowserEnv {
  return { platform: process.platform, userHome, xdgConfigHome: env.XDG_CONFIG_HOME };
}

function layoutOf(platform: NodeJS.Platform): Layout {
  return platform === 'darwin' ? 'darwin' : 'linux';
}

function configRoot(env: BrowserEnv): string {
  if (layoutOf(env.platform) === 'darwin') return join(env.userHome, 'Library', 'Application Support');
  return env.xdgConfigHome && isAbsolute(env.xdgConfigHome) ? env.xdgConfigHome : join(env.userHome, '.config');
}

/** Every browser this platform can have, detected or not, in table order. */
export function browserTargets(env: BrowserEnv): BrowserTarget[] {
  const layout = layoutOf(env.platform);
  const root = configRoot(env);
  const targets: BrowserTarget[] = [];
  for (const spec of BROWSERS) {
    const relative = spec[layout];
    if (relative === undefined) continue;
    const userDataDir = join(root, relative);
    targets.push({ browser: spec.name, label: spec.label, userDataDir, dir: join(userDataDir, 'NativeMessagingHosts'), detected: existsSync(userDataDir) });
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

/** Name the browser from its executable path (e.g. /opt/brave.com/brave/brave → brave); null when unknown. */
export function browserOfExecutable(executable: string): string | null {
  return BROWSERS.find((spec) => spec.executable.test(executable))?.name ?? null;
}

/** The browser's command on PATH (Linux only: elsewhere there is no command to find), or null. */
export function browserCommand(name: string, env: BrowserEnv, isExecutable: (path: string) => boolean, pathEnv: string | undefined): string | null {
  if (layoutOf(env.platform) !== 'linux') return null;
  const spec = BROWSERS.find((b) => b.name === name);
  for (const command of spec?.commands ?? []) {
    for (const dir of (pathEnv ?? '').split(':')) {
      if (dir === '') continue;
      const candidate = join(dir, command);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}
