/** The real machine behind setup.ts: the terminal, install, descriptors, doctor, spawning a browser. */
import { realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline/promises';
import { RelayError } from '@chrome-relay/protocol';
import { browserExecutable, browserTargets, type BrowserEnv } from './browsers.js';
import { listDescriptors } from './discovery.js';
import { isExecutable, NO_DISPLAY, renderReport, runDoctor } from './doctor.js';
import { installOrThrow, resolveInstallTargets } from './install.js';
import { makeDirs } from './outputFiles.js';
import { currentExtensionDir, installExtension } from './extensionFolder.js';
import type { SetupDeps, SetupIO } from './setup.js';
import { setupPageHtml } from './setupPage.js';

/** Prompts and an in-place progress line on a terminal; plain lines on stderr otherwise (stdout is the JSON result). */
function processIO(interactive: boolean): SetupIO {
  let progressShown = false;
  return {
    interactive,
    say(text) {
      if (!interactive) return;
      process.stdout.write(`${text}\n`);
    },
    progress(line) {
      if (interactive) {
        process.stdout.write(`\r\x1b[2K${line}`);
        progressShown = true;
      } else {
        process.stderr.write(`${line}\n`);
      }
    },
    progressDone() {
      if (interactive && progressShown) process.stdout.write('\r\x1b[2K');
      progressShown = false;
    },
    async ask(question) {
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
  };
}

/** The clipboard programs of each platform, tried in order (Wayland before X on Linux). */
function clipboardPrograms(env: NodeJS.ProcessEnv): { program: string; args: string[] }[] {
  if (process.platform === 'darwin') return [{ program: 'pbcopy', args: [] }];
  if (process.platform === 'win32') return [{ program: 'clip', args: [] }];
  return [
    ...(env.WAYLAND_DISPLAY ? [{ program: 'wl-copy', args: [] }] : []),
    ...(env.DISPLAY ? [{ program: 'xclip', args: ['-selection', 'clipboard'] }, { program: 'xsel', args: ['--clipboard', '--input'] }] : []),
  ];
}

/** Put `text` on the clipboard with the first program that takes it; null when none did (nothing is installed for it). */
async function copyToClipboard(text: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const { spawn } = await import('node:child_process');
  for (const { program, args } of clipboardPrograms(env)) {
    const ok = await new Promise<boolean>((resolve) => {
      const child = spawn(program, args, { stdio: ['pipe', 'ignore', 'ignore'] });
      const timer = setTimeout(() => resolve(true), 2000); // xclip stays to serve the selection: it took it
      child.once('error', () => {
        clearTimeout(timer);
        resolve(false);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code === 0);
      });
      child.stdin.end(text);
      child.unref();
    });
    if (ok) return program;
  }
  return null;
}

/** Why a browser did not start, from what it printed: the causes a person can act on, else its own last words. */
export function whyNotStarted(stderr: string): string {
  if (NO_DISPLAY.test(stderr)) return 'there is no display to draw its window on (no X server or $DISPLAY, as over ssh or in a container)';
  if (/no-sandbox/i.test(stderr) && /root/i.test(stderr)) return 'it refuses to run as root without --no-sandbox';
  if (/ProcessSingleton|profile (?:appears to be )?in use|SingletonLock/i.test(stderr)) return 'its profile is in use by another browser process that did not take the page';
  const last = stderr
    .split('\n')
    .map((line) => line.replace(/^\[[^\]]*\]\s*/, '').trim())
    .filter((line) => line !== '')
    .at(-1);
  return last === undefined ? 'it printed nothing about why' : `it said: ${JSON.stringify(last.slice(0, 300))}`;
}

/** How long a browser that cannot start takes to exit (it fails at once; a running one hands over and exits 0). */
const STARTUP_GRACE_MS = 2000;

/** Hosts name their profile by its real path (launch resolves it the same way). */
function realPath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

export interface SetupRequest {
  home: string;
  browsers: readonly string[];
  userDataDir?: string | undefined;
  extensionIds: readonly string[];
  browserEnv: BrowserEnv;
  wait: boolean;
  timeoutMs: number;
  interactive: boolean;
}

export function realSetupDeps(request: SetupRequest): SetupDeps {
  const targets = resolveInstallTargets({ browsers: request.browsers, userDataDir: request.userDataDir }, request.browserEnv, request.home);
  const browsers = browserTargets(request.browserEnv);
  const extensionDir = currentExtensionDir(request.home);
  return {
    io: processIO(request.interactive),
    targets,
    browsers,
    install: () => {
      const installed = installOrThrow(request.home, targets, request.extensionIds);
      installExtension(request.home);
      return installed;
    },
    extensionDir,
    connected: () => {
      const live = listDescriptors(request.home).filter((d) => d.alive && d.descriptor.extension !== null);
      const profile = request.userDataDir === undefined ? undefined : realPath(request.userDataDir);
      // With --user-data-dir, that profile's browser is the one being set up.
      return live.find((d) => profile === undefined || d.descriptor.profile === profile)?.descriptor ?? null;
    },
    openable: () =>
      browsers
        .map((b) => ({ browser: b.browser, label: b.label, command: browserExecutable(b.browser, request.browserEnv, isExecutable) }))
        .filter((b) => b.command !== null)
        .map(({ browser, label }) => ({ browser, label })),
    async openSteps(browser) {
      const command = browserExecutable(browser, request.browserEnv, isExecutable);
      if (command === null) throw new RelayError('external_dependency_missing', `No ${browser} executable found.`, { tool: 'setup', phase: 'cli', details: { dependency: browser } });
      const dir = join(request.home, 'setup');
      makeDirs(dir, 0o700);
      const page = join(dir, 'load-extension.html');
      writeFileSync(page, setupPageHtml(extensionDir));
      const url = pathToFileURL(page).href;
      // Loaded on use, like launch: most CLI runs never spawn anything.
      const { spawn } = await import('node:child_process');
      // A running browser hands the page to its window and exits 0; a new one keeps running. A browser that
      // cannot start (no display, refused as root) exits non-zero at once: say so rather than "opened".
      const child = spawn(command, [url], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
      // What it says before it gives up is the why: kept (the first few KB) until it runs or exits.
      let said = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        if (said.length < 8192) said += chunk.toString('utf8');
      });
      const outcome = await new Promise<number | 'running'>((resolve, reject) => {
        const timer = setTimeout(() => resolve('running'), STARTUP_GRACE_MS);
        child.once('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          resolve(code ?? 1);
        });
      });
      child.stderr?.destroy();
      child.unref();
      if (outcome !== 'running' && outcome !== 0) throw new Error(`${command} exited with code ${outcome}: ${whyNotStarted(said)}`);
    },
    copy: copyToClipboard,
    doctor: () => runDoctor({ home: request.home, profile: request.userDataDir, browserEnv: request.browserEnv, pathEnv: process.env.PATH, env: process.env }),
    renderDoctor: renderReport,
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    wait: request.wait,
    timeoutMs: request.timeoutMs,
  };
}
