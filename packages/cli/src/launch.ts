/**
 * The embedded default: a dedicated Chromium profile started with our extension loaded and our host
 * registered for it, so a newcomer can run `chrome-relay snapshot` right after. On Linux and macOS the host
 * is registered in that profile's own NativeMessagingHosts directory; Windows has no per-profile place
 * (Chrome reads the registry only), so there it is registered for the browser launch starts, under its
 * vendor's key, for all of that browser's profiles.
 * Flags follow shared/CHROMIUM.md (seeded developer mode, silent debugger infobar, no background networking).
 * `debuggerInfobar` keeps Chrome's "started debugging this browser" bar, as a person's own Chrome shows
 * it: to see what they see (and to test idle detach, which exists to make that bar go away).
 *
 * A headful browser on Linux needs an X display that outlives this command: with `--xvfb`, or when there is
 * none (or only xvfb-run's, which dies with the command it wraps) and Xvfb is installed, launch starts its
 * own (ownDisplay.ts). What it started is recorded (launched.ts) for `chrome-relay stop` and `status`.
 */
import { closeSync, existsSync, openSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { currentPlatform, LAUNCH_ORDER, runDir } from '@chrome-relay/host-files';
import { HOME_ENV, LAUNCHED_PROFILE_ENV, reasonedError, RelayError, type HostDescriptor } from '@chrome-relay/protocol';
import { browserExecutable, browserOfExecutable, browserTarget, platformOfEnv, type BrowserEnv } from './browsers.js';
import { isExecutable } from './doctor.js';
import { listDescriptors } from './discovery.js';
import { launchRecordOf, writeLaunchRecord, type LaunchRecord } from './launched.js';
import { displayNeed, findXvfb, startOwnDisplay, XVFB_INSTALL, type OwnDisplay } from './ownDisplay.js';
import { allowedExtensionIds, install, installTargetOf, profileTarget, type InstallTarget } from './install.js';
import { installExtension } from './extensionFolder.js';
import { defaultProfileDir, logsDir, profilesDir } from './paths.js';
import { makeDirsFor, makePrivateDirsFor } from './outputFiles.js';
import { QUIET_BROWSER_FLAGS } from './quietBrowserFlags.js';

export interface LaunchOptions {
  home: string;
  browserEnv: BrowserEnv;
  browser?: string | undefined;
  userDataDir?: string | undefined;
  headless: boolean;
  url?: string | undefined;
  browserArgs: string[];
  timeoutMs: number;
  /** Show Chrome's debugger bar (omit --silent-debugger-extension-api). */
  debuggerInfobar?: boolean | undefined;
  /** Start an Xvfb of launch's own for the browser (Linux); also done unasked when there is no lasting display. */
  xvfb?: boolean | undefined;
  /** The environment whose DISPLAY, XAUTHORITY and PATH decide about a display (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

export interface LaunchResult {
  pid: number;
  profile: string;
  browser: string;
  /** How the browser runs: for one already running, as it was started (null when that cannot be told), whatever this launch asked. */
  headless: boolean | null;
  alreadyRunning: boolean;
  /** Already running, but not as asked (headless or not): what to do for the other. */
  note?: string;
  extensionId: string | null;
  hostPid: number;
  socket: string;
  log: string | null;
  /** The X display launch started for this browser (`chrome-relay stop` ends it), or null. */
  xvfb: { pid: number; display: string } | null;
  /** What ends this browser. */
  stop: string;
}

/** How to get a browser launch can start, per OS. */
const INSTALL_HINT: Readonly<Record<'linux' | 'darwin' | 'win32', string>> = {
  linux: 'Install Chromium (Debian/Ubuntu: `sudo apt-get install chromium`)',
  darwin: 'Install Chromium or Google Chrome for Testing into /Applications (`npx @puppeteer/browsers install chrome@stable` fetches the latter)',
  win32: 'Install Chromium or Google Chrome for Testing (`npx @puppeteer/browsers install chrome@stable` fetches the latter)',
};

function findBrowser(explicit: string | undefined, env: BrowserEnv): string {
  const platform = platformOfEnv(env);
  if (explicit) {
    const program = platform.browserProgram(explicit);
    if (!existsSync(program)) {
      throw new RelayError('invalid_arguments', `browser: no executable at ${program}.`, { tool: 'launch', phase: 'cli', details: { field: 'browser', value: explicit } });
    }
    return program;
  }
  for (const name of LAUNCH_ORDER) {
    const found = browserExecutable(name, env, isExecutable);
    if (found !== null) return found;
  }
  throw new RelayError('external_dependency_missing', `No Chromium found. ${INSTALL_HINT[platform.os]}, or pass --browser <path>.`, {
    tool: 'launch',
    phase: 'cli',
    details: { dependency: 'chromium', searched: LAUNCH_ORDER },
  });
}

/**
 * Where launch registers the host so this browser finds it. Linux, macOS: the profile's own directory.
 * Windows: the key of the browser the executable belongs to; an executable that names no vendor is a
 * Chromium or Chrome for Testing build (branded browsers install under their vendor's folder), so both.
 */
export function launchTargets(browser: string, profile: string, home: string, env: BrowserEnv): InstallTarget[] {
  if (platformOfEnv(env).profileManifests) return [profileTarget(profile)];
  const named = browserOfExecutable(browser);
  const names = named === null ? ['chromium', 'chrome-for-testing'] : [named];
  return names.map((name) => installTargetOf(browserTarget(name, env), home));
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
  const browser = findBrowser(options.browser, options.browserEnv);
  const requested = resolve(options.userDataDir ?? defaultProfileDir(options.home));
  // Private from the start: the home and the default profile (cookies, history) are this user's alone.
  makePrivateDirsFor(HOME_ENV, [options.home, ...(options.userDataDir === undefined ? [profilesDir(options.home), requested] : [])]);
  if (options.userDataDir !== undefined) makeDirsFor('user-data-dir', requested, 0o700);
  const profile = realpathSync(requested);

  const stop = `chrome-relay stop${options.userDataDir === undefined ? '' : ` --user-data-dir ${profile}`}`;
  const running = liveHostFor(options.home, profile);
  if (running) {
    const record = launchRecordOf(options.home, profile);
    const pid = running.browserPid ?? 0;
    const headless = record !== null && record.browserPid === pid && record.headless !== undefined ? record.headless : headlessOf(pid);
    const differs = headless !== null && headless !== options.headless;
    return {
      pid,
      profile,
      browser: record?.browser ?? browser,
      headless,
      alreadyRunning: true,
      ...(differs
        ? { note: `this profile's browser already runs ${headless ? 'headless' : 'with a window'}; to run it ${options.headless ? 'headless' : 'with a window'}, \`${stop}\` it and launch again` }
        : {}),
      extensionId: running.extension?.id ?? null,
      hostPid: running.pid,
      socket: running.socket,
      log: null,
      xvfb: record?.xvfb ? { pid: record.xvfb.pid, display: record.xvfb.display } : null,
      stop,
    };
  }
  const env = options.env ?? process.env;
  const xvfbProgram = needsOwnDisplay(options, env) ? xvfbOrThrow(options, env) : null;

  seedProfile(profile);
  install(options.home, launchTargets(browser, profile, options.home, options.browserEnv), allowedExtensionIds());

  // This version's own copy in the home (extensionFolder.ts): a rebuild or reinstall of the CLI while the
  // browser runs leaves the extension it loaded alone.
  const extensionDir = installExtension(options.home).versionPath;
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
  let display: OwnDisplay | null = null;
  if (xvfbProgram !== null) {
    makePrivateDirsFor(HOME_ENV, [runDir(options.home)]);
    const xvfbLog = openSync(join(logsDir(options.home), `xvfb-${Date.now()}.log`), 'a', 0o600);
    try {
      display = await startOwnDisplay(xvfbProgram, runDir(options.home), xvfbLog);
    } finally {
      closeSync(xvfbLog);
    }
  }
  // The browser's log names the profile, the socket and every URL it complains about: 0600.
  const logFd = openSync(log, 'a', 0o600);
  // Loaded on use: child_process costs ~7 ms at start-up, and most CLI runs never spawn anything.
  const { spawn } = await import('node:child_process');
  const child = spawn(browser, args, {
    detached: true,
    stdio: ['ignore', logFd, logFd],
    // The host inherits these: its home, and the profile it serves where it cannot read the browser's command line.
    env: { ...env, [HOME_ENV]: options.home, [LAUNCHED_PROFILE_ENV]: profile, ...(display === null ? {} : { DISPLAY: display.display, XAUTHORITY: display.authFile }) },
  });
  closeSync(logFd);
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? -1;
  });
  child.unref();
  const pid = child.pid ?? 0;
  const ownDisplay = display;
  /** A launch that failed leaves nothing running: its browser and its display go. */
  const abandon = (): void => {
    for (const target of [pid, ownDisplay?.pid ?? 0]) {
      if (target <= 0) continue;
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    if (ownDisplay !== null) rmSync(ownDisplay.authFile, { force: true });
  };

  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const host = liveHostFor(options.home, profile);
    if (host) {
      const record: LaunchRecord = { profile, browser, browserPid: pid, xvfb: ownDisplay, log, startedAt: new Date().toISOString(), headless: options.headless };
      writeLaunchRecord(options.home, record);
      return {
        pid,
        profile,
        browser,
        headless: options.headless,
        alreadyRunning: false,
        extensionId: host.extension?.id ?? null,
        hostPid: host.pid,
        socket: host.socket,
        log,
        xvfb: ownDisplay === null ? null : { pid: ownDisplay.pid, display: ownDisplay.display },
        stop,
      };
    }
    if (exited !== null) {
      abandon();
      throw new RelayError('chrome_api_error', `The browser exited (code ${exited}) before the extension connected; see ${log}.`, {
        tool: 'launch',
        phase: 'connect',
        details: { exitCode: exited, log, logTail: tail(log) },
      });
    }
    if (Date.now() > deadline) {
      abandon();
      throw reasonedError('timeout', 'not_connected', `The browser started (pid ${pid}) but the extension did not connect within ${options.timeoutMs} ms, so launch ended it; run \`chrome-relay doctor\` and see ${log}.`, {
        tool: 'launch',
        phase: 'connect',
        details: { pid, log, logTail: tail(log) },
      });
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether a running browser runs headless, from its command line; null where the platform cannot read one. */
function headlessOf(pid: number): boolean | null {
  if (pid <= 0) return null;
  const line = currentPlatform().commandLineOf(pid);
  return line === null ? null : /(^|\s|\0)--headless(=|\s|\0|$)/.test(line);
}

/** A headful browser on Linux without a display that outlives this command needs one of launch's own. */
function needsOwnDisplay(options: LaunchOptions, env: NodeJS.ProcessEnv): boolean {
  const linux = platformOfEnv(options.browserEnv).os === 'linux';
  if (options.xvfb === true) {
    if (options.headless) throw new RelayError('invalid_arguments', 'xvfb: a headless browser needs no display; pass --headless or --xvfb, not both.', { tool: 'launch', phase: 'cli', details: { field: 'xvfb' } });
    if (!linux) throw new RelayError('invalid_arguments', 'xvfb: only Linux browsers draw on an X display; drop --xvfb.', { tool: 'launch', phase: 'cli', details: { field: 'xvfb' } });
    return true;
  }
  return linux && !options.headless && displayNeed(env) !== 'present';
}

function xvfbOrThrow(options: LaunchOptions, env: NodeJS.ProcessEnv): string {
  const found = findXvfb(env.PATH);
  if (found !== null) return found;
  const why = options.xvfb === true ? 'xvfb: Xvfb is not installed' : 'No X display for a headful browser, and no Xvfb to start one';
  throw new RelayError('external_dependency_missing', `${why}: install it (${XVFB_INSTALL}) and run the same command again (launch then starts its own display, and \`chrome-relay stop\` ends it), or pass --headless.`, {
    tool: 'launch',
    phase: 'cli',
    details: { dependency: 'Xvfb', display: displayNeed(env) },
  });
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}
