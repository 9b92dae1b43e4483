/** The real machine behind setup.ts: the terminal, install, descriptors, doctor, spawning a browser. */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { RelayError } from '@chrome-relay/protocol';
import { browserCommand, browserTargets, type BrowserEnv } from './browsers.js';
import { listDescriptors } from './discovery.js';
import { renderReport, runDoctor } from './doctor.js';
import { installOrThrow, resolveInstallTargets } from './install.js';
import { bundledExtensionDir } from './paths.js';
import type { SetupDeps, SetupIO } from './setup.js';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Prompts and an in-place progress line on a terminal; plain lines on stderr otherwise (stdout is the JSON result). */
export function processIO(interactive: boolean): SetupIO {
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
  const targets = resolveInstallTargets({ browsers: request.browsers, userDataDir: request.userDataDir }, request.browserEnv);
  const browsers = browserTargets(request.browserEnv);
  return {
    io: processIO(request.interactive),
    targets,
    browsers,
    install: () => installOrThrow(request.home, targets, request.extensionIds),
    extensionDir: bundledExtensionDir(),
    connected: () => {
      const live = listDescriptors(request.home).filter((d) => d.alive && d.descriptor.extension !== null);
      const profile = request.userDataDir === undefined ? undefined : realPath(request.userDataDir);
      // With --user-data-dir, that profile's browser is the one being set up.
      return live.find((d) => profile === undefined || d.descriptor.profile === profile)?.descriptor ?? null;
    },
    openable: () =>
      browsers
        .map((b) => ({ browser: b.browser, label: b.label, command: browserCommand(b.browser, request.browserEnv, isExecutable, process.env.PATH) }))
        .filter((b) => b.command !== null)
        .map(({ browser, label }) => ({ browser, label })),
    async open(browser, url) {
      const command = browserCommand(browser, request.browserEnv, isExecutable, process.env.PATH);
      if (command === null) throw new RelayError('external_dependency_missing', `No ${browser} executable on PATH.`, { tool: 'setup', phase: 'cli', details: { dependency: browser } });
      // Loaded on use, like launch: most CLI runs never spawn anything.
      const { spawn } = await import('node:child_process');
      // A running browser opens the page in a new tab of its window; otherwise it starts with it.
      const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
      await new Promise<void>((resolve, reject) => {
        child.once('error', reject);
        child.once('spawn', () => resolve());
      });
      child.unref();
    },
    doctor: () => runDoctor({ home: request.home, profile: request.userDataDir, browserEnv: request.browserEnv, pathEnv: process.env.PATH, env: process.env }),
    renderDoctor: renderReport,
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    wait: request.wait,
    timeoutMs: request.timeoutMs,
  };
}
