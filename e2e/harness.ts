/**
 * E2E harness: what users run, nothing skipped. The BUILT CLI is a subprocess; `chrome-relay launch` starts
 * Debian's Chromium with the built extension and registers the built host in a temp profile; a fixture server
 * serves pages on 127.0.0.1. Headful under a private Xvfb (as users run Chrome) unless E2E_HEADLESS=1.
 *
 * A DevTools connection (puppeteer-core over --remote-debugging-port) is used ONLY to observe page state and
 * to kill the service worker — never to act on the page in place of the CLI.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startFixtureServer, type FixtureServer } from './fixtureServer.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The built CLI under test; E2E_CLI points at a private build (`node scripts/build.mjs --out DIR`). */
export const CLI = process.env.E2E_CLI ?? join(repo, 'packages/cli/dist/chrome-relay.cjs');
/** The browser `launch` starts; E2E_BROWSER names another than the one launch finds (the workflow's Chrome for Testing). */
const BROWSER_FLAG = process.env.E2E_BROWSER ? ['--browser', process.env.E2E_BROWSER] : [];
/** What Windows programs cannot start without (Chrome and node read them), kept in the trimmed environment. */
const WINDOWS_ESSENTIALS = ['SystemRoot', 'SystemDrive', 'windir', 'ComSpec', 'PATHEXT', 'USERPROFILE', 'LOCALAPPDATA', 'APPDATA', 'TEMP', 'TMP', 'USERNAME'];
export const EXTENSION_ID = 'nplipfneioajmjoiadbinnjjicindjlf';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (undefined when it is not JSON: without --json every command prints text). */
  json: unknown;
  /** The relayError block from stderr, when the command failed. */
  error: { code: string; message: string; tool: string; phase: string; details: Record<string, unknown>; retryable: boolean } | undefined;
}

export function parseCliOutput(code: number, stdout: string, stderr: string): CliResult {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  let error: CliResult['error'];
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{"relayError"')) continue;
    error = (JSON.parse(line) as { relayError: CliResult['error'] }).relayError;
  }
  return { code, stdout, stderr, json, error };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 45_000): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve(parseCliOutput(code, stdout, stderr));
    });
  });
}

/** Start a private X server; resolves with its display string. */
export async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const display = await new Promise<string>((resolve, reject) => {
    let text = '';
    const fd3 = child.stdio[3];
    if (!fd3) return reject(new Error('Xvfb: no displayfd pipe'));
    fd3.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    child.once('exit', (code) => reject(new Error(`Xvfb exited early (code ${code}); is xvfb installed?`)));
    setTimeout(() => reject(new Error('Xvfb did not report a display within 10 s')), 10_000);
  });
  return { display, process: child };
}

export interface Relay {
  root: string;
  home: string;
  profile: string;
  env: NodeJS.ProcessEnv;
  server: FixtureServer;
  browserPid: number;
  devtools: Browser;
  cli(...args: string[]): Promise<CliResult>;
  /** The page whose URL contains `fragment` (observation only). */
  page(fragment: string): Promise<Page>;
  /** Host pid from the descriptor of this profile. */
  hostPid(): number;
  stop(): Promise<void>;
}

export interface RelayOptions {
  headless?: boolean;
  browserArgs?: string[];
  /** Keep Chrome's "started debugging this browser" bar, as in a person's own Chrome (launch --debugger-infobar). */
  debuggerInfobar?: boolean;
  /** chrome-relay's home where a person's is by default, ~/.chrome-relay (HOME being the relay's own), for commands that name it so. */
  defaultHome?: boolean;
}

export async function startRelay(options: RelayOptions = {}): Promise<Relay> {
  const headless = options.headless ?? process.env.E2E_HEADLESS === '1';
  const root = mkdtempSync(join(tmpdir(), 'cr-e2e-'));
  const home = options.defaultHome === true ? join(root, 'userhome', '.chrome-relay') : join(root, 'home');
  const profile = join(root, 'profile');
  for (const dir of [join(root, 'userhome'), join(root, 'tmp'), home]) mkdirSync(dir, { recursive: true });
  const xvfb = headless ? null : await startXvfb();
  const env: NodeJS.ProcessEnv = {
    ...(process.platform === 'win32' ? Object.fromEntries(WINDOWS_ESSENTIALS.map((name) => [name, process.env[name]])) : {}),
    PATH: process.env.PATH,
    // Chromium writes ~/.config, ~/.cache and $TMPDIR even with a custom profile: keep it all in the temp root.
    HOME: join(root, 'userhome'),
    TMPDIR: join(root, 'tmp'),
    CHROME_RELAY_HOME: home,
    ...(xvfb ? { DISPLAY: xvfb.display } : {}),
  };
  const server = await startFixtureServer();
  const launched = await runCli(
    [
      'launch',
      '--user-data-dir',
      profile,
      '--browser-arg=--remote-debugging-port=0',
      ...BROWSER_FLAG,
      ...(options.browserArgs ?? []).map((a) => `--browser-arg=${a}`),
      ...(headless ? ['--headless'] : []),
      ...(options.debuggerInfobar === true ? ['--debugger-infobar'] : []),
      '--json',
    ],
    env,
    60_000,
  );
  if (launched.code !== 0) {
    await server.close();
    xvfb?.process.kill();
    throw new Error(`launch failed: ${launched.stderr}`);
  }
  const info = launched.json as { pid: number; profile: string };
  const port = readFileSync(join(info.profile, 'DevToolsActivePort'), 'utf8').split('\n')[0];
  const devtools = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}`, defaultViewport: null });

  const relay: Relay = {
    root,
    home,
    profile: info.profile,
    env,
    server,
    browserPid: info.pid,
    devtools,
    cli: (...args) => runCli(args, env),
    async page(fragment) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        for (const p of await devtools.pages()) if (p.url().includes(fragment)) return p;
        if (Date.now() > deadline) throw new Error(`no page with URL containing ${fragment}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    hostPid() {
      const run = join(home, 'run');
      // A killed host leaves its descriptor behind until the next host cleans it: take the live one.
      for (const name of readdirSync(run)) {
        if (!/^host-\d+\.json$/.test(name)) continue;
        const { pid } = JSON.parse(readFileSync(join(run, name), 'utf8')) as { pid: number };
        try {
          process.kill(pid, 0);
          return pid;
        } catch {
          /* stale */
        }
      }
      throw new Error('no live host descriptor');
    },
    async stop() {
      await devtools.disconnect().catch(() => undefined);
      try {
        process.kill(-info.pid, 'SIGKILL');
      } catch {
        try {
          process.kill(info.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      xvfb?.process.kill();
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return relay;
}

/** Poll until `fn` returns a truthy value (observation of page state that settles asynchronously). */
export async function until<T>(fn: () => Promise<T> | T, timeoutMs = 5000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
