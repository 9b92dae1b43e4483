/**
 * The browser closes under a call. Nothing starts a new host then, so native_host_disconnected says browser_closed,
 * not retryable, and the move depends on whose browser it was: the person's own (they started it; chrome-relay is
 * only installed for it) is theirs to reopen, and `launch` would start a second, different browser; a browser
 * `chrome-relay launch` started is the agent's to start again. The browser is closed as a person closes it (a
 * graceful exit: SIGTERM), with a call in flight. Told apart from the browser closing: chrome-relay's service worker
 * stopping while the browser runs (worker_stopped, retryable: it comes back with the browser's next event).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixtureServer.js';
import { CLI, EXTENSION_ID, runCli, startRelay, startXvfb, until, type Relay } from './harness.js';

const CHROMIUM = process.env.E2E_BROWSER ?? '/usr/lib/chromium/chromium';
const headless = process.env.E2E_HEADLESS === '1';

/** Wait for a process to be gone (a browser shutting down takes a moment). */
function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** A person's own Chromium: started by them, with chrome-relay's extension loaded and its host installed for the profile. */
async function personsBrowser(): Promise<{ env: NodeJS.ProcessEnv; profile: string; browser: ChildProcess; server: FixtureServer; close(): Promise<void> }> {
  const root = mkdtempSync(join(tmpdir(), 'cr-person-'));
  const profile = join(root, 'profile');
  for (const dir of [join(root, 'userhome'), join(root, 'tmp'), join(root, 'home'), join(profile, 'Default')]) mkdirSync(dir, { recursive: true });
  const xvfb = headless ? null : await startXvfb();
  // No CHROME_RELAY_LAUNCHED_PROFILE: nothing of `launch` is in this browser's environment.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: join(root, 'userhome'),
    TMPDIR: join(root, 'tmp'),
    CHROME_RELAY_HOME: join(root, 'home'),
    ...(xvfb ? { DISPLAY: xvfb.display } : {}),
  };
  const installed = await runCli(['install', '--user-data-dir', profile], env);
  expect(installed.code, installed.stderr).toBe(0);
  const extension = join(dirname(CLI), 'extension');
  const browser = spawn(
    CHROMIUM,
    [
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--password-store=basic',
      '--silent-debugger-extension-api',
      `--user-data-dir=${profile}`,
      `--load-extension=${extension}`,
      `--disable-extensions-except=${extension}`,
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      ...(headless ? ['--headless=new', '--disable-gpu'] : []),
      'about:blank',
    ],
    { env, stdio: 'ignore' },
  );
  await until(async () => (await runCli(['status'], env)).code === 0, 30_000, "the person's browser to connect");
  const server = await startFixtureServer();
  return {
    env,
    profile,
    browser,
    server,
    async close() {
      browser.kill('SIGKILL');
      xvfb?.process.kill();
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe('the browser closes under a call', () => {
  it("the person's own browser: browser_closed, not retryable, ask the person to reopen it (never launch in its place)", async () => {
    const person = await personsBrowser();
    cleanups.push(() => person.close());
    const nav = await runCli(['navigate', person.server.url('/button.html'), '--json'], person.env);
    expect(nav.code, nav.stderr).toBe(0);
    const { tabId } = nav.json as { tabId: number };
    // A read-only call that stays in flight: each poll asks the fixture server for the mark.
    const pending = runCli(['wait', '--fn', "(fetch('/slow?ms=0&mark=person-wait'), false)", '--tab', String(tabId), '--timeout', '30000'], person.env);
    await person.server.waitForRequest('/slow?ms=0&mark=person-wait');
    person.browser.kill('SIGTERM');
    const result = await pending;
    await exited(person.browser);
    expect(result.error, result.stderr).toMatchObject({
      code: 'native_host_disconnected',
      tool: 'wait',
      retryable: false,
      details: { reason: 'browser_closed', launched: false, browserPid: person.browser.pid, profile: person.profile },
    });
    expect(result.error?.message).toMatch(/The person's browser \(pid \d+, profile .*\) has closed/);
    expect(result.error?.message).toMatch(/ask them to reopen it/);
    expect(result.error?.message).not.toMatch(/Run `chrome-relay launch/);
    // The next call finds no browser, and says so without sending the agent to start another one first.
    const next = await runCli(['tabs'], person.env);
    expect(next.error).toMatchObject({ code: 'extension_not_connected', details: { reason: 'no_host' } });
    expect(next.error?.message).toMatch(/If you drive the person's own browser, ask them to open it/);
  });

  let relay: Relay;
  it("chrome-relay's service worker stopping while the browser runs is worker_stopped, retryable, and not a closed browser", async () => {
    relay = await startRelay();
    cleanups.push(() => relay.stop());
    const nav = await relay.cli('navigate', relay.server.url('/button.html'), '--json');
    expect(nav.code, nav.stderr).toBe(0);
    const { tabId } = nav.json as { tabId: number };
    const pending = relay.cli('wait', '--fn', "(fetch('/slow?ms=0&mark=worker-wait'), false)", '--tab', String(tabId), '--timeout', '30000');
    await relay.server.waitForRequest('/slow?ms=0&mark=worker-wait');
    // Chrome stopping the worker, as it does with an idle one (the browser's side of the native port closes).
    const worker = await until(() => relay.devtools.targets().find((t) => t.type() === 'service_worker' && t.url().includes(EXTENSION_ID)) ?? null, 10_000, 'service worker');
    const browserSession = await relay.devtools.target().createCDPSession();
    await browserSession.send('Target.closeTarget', { targetId: (worker as unknown as { _targetId: string })._targetId });
    const result = await pending;
    expect(result.error, result.stderr).toMatchObject({ code: 'native_host_disconnected', tool: 'wait', retryable: true, details: { reason: 'worker_stopped' } });
    expect(result.error?.message).toMatch(/retry in a moment; if it keeps failing run `chrome-relay doctor`/);
    // Any extension event wakes it, and calls work again in the same browser.
    const wakePage = await relay.devtools.newPage();
    await wakePage.goto(relay.server.url('/other.html'));
    await until(async () => (await relay.cli('tabs')).code === 0, 15_000, 'worker and host back');
    await browserSession.detach();
  });

  it('a browser `chrome-relay launch` started: browser_closed, and the move is to launch that profile again', async () => {
    const nav = await relay.cli('navigate', relay.server.url('/button.html'), '--json');
    expect(nav.code, nav.stderr).toBe(0);
    const { tabId } = nav.json as { tabId: number };
    // A mutating call in flight: it may have acted, so it says to look once the browser is back.
    const pending = relay.cli('js', "fetch('/slow?ms=0&mark=launched-js'); new Promise(() => {})", '--tab', String(tabId));
    await relay.server.waitForRequest('/slow?ms=0&mark=launched-js');
    process.kill(relay.browserPid, 'SIGTERM');
    const result = await pending;
    expect(result.error, result.stderr).toMatchObject({
      code: 'native_host_disconnected',
      tool: 'js',
      retryable: false,
      details: { reason: 'browser_closed', launched: true, browserPid: relay.browserPid, profile: relay.profile, mayHaveActed: true },
    });
    expect(result.error?.message).toContain(`Run \`chrome-relay launch --user-data-dir ${relay.profile}\` to start it again`);
    expect(result.error?.message).toMatch(/before re-issuing `js`: it may already have taken effect/);
  });
});
