/**
 * The embedded default: a dedicated Chromium profile started with our extension loaded and our host
 * registered in that profile, so a newcomer can run `chrome-relay snapshot` right after.
 * Flags follow shared/CHROMIUM.md (seeded developer mode, silent debugger infobar, no background networking).
 * `debuggerInfobar` keeps Chrome's "started debugging this browser" bar, as a person's own Chrome shows
 * it: to see what they see (and to test idle detach, which exists to make that bar go away).
 */
import { closeSync, existsSync, openSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HOME_ENV, reasonedError, RelayError, type HostDescriptor } from '@chrome-relay/protocol';
import { listDescriptors } from './discovery.js';
import { allowedExtensionIds, install, profileTarget } from './install.js';
import { bundledExtensionDir, defaultProfileDir, logsDir, profilesDir } from './paths.js';
import { makeDirsFor, makePrivateDirsFor } from './outputFiles.js';
import { QUIET_BROWSER_FLAGS } from './quietBrowserFlags.js';

export interface LaunchOptions {
  home: string;
  browser?: string | undefined;
  userDataDir?: string | undefined;
  headless: boolean;
  url?: string | undefined;
  browserArgs: string[];
  timeoutMs: number;
  /** Show Chrome's debugger bar (omit --silent-debugger-extension-api). */
  debuggerInfobar?: boolean | undefined;
}

export interface LaunchResult {
  pid: number;
  profile: string;
  browser: string;
  headless: boolean;
  alreadyRunning: boolean;
  extensionId: string | null;
  hostPid: number;
  socket: string;
  log: string | null;
}

const BROWSER_CANDIDATES = [
  '/usr/lib/chromium/chromium', // Debian: call the binary directly, the wrapper adds /etc/chromium.d flags
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

function findBrowser(explicit: string | undefined): string {
  if (explicit) {
    if (!existsSync(explicit)) {
      throw new RelayError('invalid_arguments', `browser: no executable at ${explicit}.`, { tool: 'launch', phase: 'cli', details: { field: 'browser', value: explicit } });
    }
    return explicit;
  }
  const found = BROWSER_CANDIDATES.find((p) => existsSync(p));
  if (!found) {
    throw new RelayError('external_dependency_missing', 'No Chromium found. Install it (Debian/Ubuntu: `sudo apt-get install chromium`) or pass --browser <path>.', {
      tool: 'launch',
      phase: 'cli',
      details: { dependency: 'chromium', searched: BROWSER_CANDIDATES },
    });
  }
  return found;
}

/** Developer mode must be on, or runtime.reload() disables an unpacked extension for good (CHROMIUM.md). */
function seedProfile(userDataDir: string): void {
  const prefs = join(userDataDir, 'Default', 'Preferences');
  if (existsSync(prefs)) return;
  makeDirsFor('user-data-dir', join(userDataDir, 'Default'));
  writeFileSync(prefs, JSON.stringify({ extensions: { ui: { developer_mode: true } }, browser: { has_seen_welcome_page: true } }));
}

function liveHostFor(home: string, profile: string): HostDescriptor | null {
  return listDescriptors(home).find((d) => d.alive && d.descriptor.profile === profile)?.descriptor ?? null;
}

export async function launch(options: LaunchOptions): Promise<LaunchResult> {
  const browser = findBrowser(options.browser);
  const requested = resolve(options.userDataDir ?? defaultProfileDir(options.home));
  // Private from the start: the home and the default profile (cookies, history) are this user's alone.
  makePrivateDirsFor(HOME_ENV, [options.home, ...(options.userDataDir === undefined ? [profilesDir(options.home), requested] : [])]);
  if (options.userDataDir !== undefined) makeDirsFor('user-data-dir', requested, 0o700);
  const profile = realpathSync(requested);

  const running = liveHostFor(options.home, profile);
  if (running) {
    return {
      pid: running.browserPid ?? 0,
      profile,
      browser,
      headless: options.headless,
      alreadyRunning: true,
      extensionId: running.extension?.id ?? null,
      hostPid: running.pid,
      socket: running.socket,
      log: null,
    };
  }
  if (!options.headless && !process.env.DISPLAY && process.platform === 'linux') {
    throw new RelayError('external_dependency_missing', 'No X display for a headful browser: run under `xvfb-run -a chrome-relay launch`, set DISPLAY, or pass --headless.', {
      tool: 'launch',
      phase: 'cli',
      details: { dependency: 'X display (DISPLAY)' },
    });
  }

  seedProfile(profile);
  install(options.home, [profileTarget(profile)], allowedExtensionIds());

  const extensionDir = bundledExtensionDir();
  const args = [
    ...QUIET_BROWSER_FLAGS,
    ...(options.debuggerInfobar === true ? [] : ['--silent-debugger-extension-api']),
    `--user-data-dir=${profile}`,
    `--load-extension=${extensionDir}`,
    `--disable-extensions-except=${extensionDir}`,
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ...(options.headless ? ['--headless=new', '--disable-gpu'] : []),
    ...options.browserArgs,
    options.url ?? 'about:blank',
  ];
  makePrivateDirsFor(HOME_ENV, [logsDir(options.home)]);
  const log = join(logsDir(options.home), `browser-${Date.now()}.log`);
  // The browser's log names the profile, the socket and every URL it complains about: 0600.
  const logFd = openSync(log, 'a', 0o600);
  // Loaded on use: child_process costs ~7 ms at start-up, and most CLI runs never spawn anything.
  const { spawn } = await import('node:child_process');
  const child = spawn(browser, args, {
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: { ...process.env, CHROME_RELAY_HOME: options.home },
  });
  closeSync(logFd);
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? -1;
  });
  child.unref();
  const pid = child.pid ?? 0;

  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const host = liveHostFor(options.home, profile);
    if (host) {
      return { pid, profile, browser, headless: options.headless, alreadyRunning: false, extensionId: host.extension?.id ?? null, hostPid: host.pid, socket: host.socket, log };
    }
    if (exited !== null) {
      throw new RelayError('chrome_api_error', `The browser exited (code ${exited}) before the extension connected; see ${log}.`, {
        tool: 'launch',
        phase: 'connect',
        details: { exitCode: exited, log, logTail: tail(log) },
      });
    }
    if (Date.now() > deadline) {
      throw reasonedError('timeout', 'not_connected', `The browser started (pid ${pid}) but the extension did not connect within ${options.timeoutMs} ms; run \`chrome-relay doctor\` and see ${log}.`, {
        tool: 'launch',
        phase: 'connect',
        details: { pid, log, logTail: tail(log) },
      });
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}
