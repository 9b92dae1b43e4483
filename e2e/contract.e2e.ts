/**
 * The failure contract, through the built CLI. Bad output paths and homes fail
 * fast as invalid_arguments naming the field, before any call; stderr holds exactly one human line; bare
 * commands print usage; a closed pipe is quiet; a chrome:// page is a non-retryable target_conflict (browser_page);
 * `wait --timeout` is the wait's own budget; `js` awaits promises and only says invalid_arguments when
 * nothing ran; a mutation cut off by a dying host is not retryable, a read-only call is.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, startRelay, until, type CliResult, type Relay } from './harness.js';
import { open, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

/** A home with no browser: anything that reaches for one answers extension_not_connected. */
function noBrowserEnv(): NodeJS.ProcessEnv {
  return { ...relay.env, CHROME_RELAY_HOME: mkdtempSync(join(tmpdir(), 'cr-nobrowser-')) };
}

/** A hang must fail the test quickly rather than hold the suite: 10 s is ~100× what these take. */
const FAST_MS = 10_000;

/** stderr of a failure: exactly one human line, immediately followed by its block; anything else is a notice line. */
function expectOneHumanLine(result: CliResult): void {
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trimEnd().split('\n');
  const human = lines.filter((l) => !l.startsWith('{"relayNotice"') && !l.startsWith('{"relayError"'));
  expect(human, result.stderr).toHaveLength(1);
  expect(human[0]).toMatch(/^chrome-relay: [a-z_]+: /);
  expect(lines[lines.indexOf(human[0] ?? '') + 1], result.stderr).toMatch(/^\{"relayError"/);
  expect(lines.at(-1)).toMatch(/^\{"relayError"/);
}

describe('bad output paths and homes fail fast, before the call', () => {
  it('every bad --out of screenshot, network har, network body and record stop is invalid_arguments naming out (and the command as typed)', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'cr-out-'));
    const file = join(scratch, 'a-file');
    writeFileSync(file, '');
    const badFiles = ['', join(scratch, 'missing', 'x.png'), join(scratch, `${'n'.repeat(300)}.png`), join(file, 'x.png'), '/proc/chrome-relay-x.png'];
    const badDirs = ['', join(file, 'frames'), join(scratch, 'n'.repeat(300)), '/proc/chrome-relay-x'];
    const env = noBrowserEnv();
    const runs: [string[], string, string][] = [
      ...badFiles.map((out): [string[], string, string] => [['screenshot', '--out', out], out, 'screenshot']),
      ...badFiles.map((out): [string[], string, string] => [['network', 'har', '--out', out], out, 'network har']),
      ...badFiles.map((out): [string[], string, string] => [['network', 'body', '1', '--out', out], out, 'network body']),
      ...badDirs.map((out): [string[], string, string] => [['record', 'stop', '--out', out], out, 'record stop']),
    ];
    for (const [args, out, tool] of runs) {
      const result = await runCli(args, env, FAST_MS);
      // invalid_arguments, not extension_not_connected: the path was refused before any browser was asked.
      expect(result.error, `${args.join(' ')}\n${result.stderr}`).toMatchObject({ code: 'invalid_arguments', tool, phase: 'cli', details: { field: 'out' } });
      expect(result.error?.message, out).toMatch(/^out: /);
      expectOneHumanLine(result);
    }
  });

  it('a good --out is written after the call', async () => {
    const tab = await open(relay, '/button.html');
    const out = join(mkdtempSync(join(tmpdir(), 'cr-shot-')), 'shot.png');
    const shot = await relay.cli('screenshot', '--tab', String(tab.tabId), '--out', out);
    expect(shot.code, shot.stderr).toBe(0);
    expect(shot.json).toMatchObject({ path: out });
  });

  it('launch --user-data-dir /proc/x and CHROME_RELAY_HOME=/proc/x fail fast naming the field (no procfs spin)', async () => {
    const launch = await runCli(['launch', '--headless', '--user-data-dir', '/proc/chrome-relay-x'], noBrowserEnv(), FAST_MS);
    expect(launch.error, launch.stderr).toMatchObject({ code: 'invalid_arguments', details: { field: 'user-data-dir' } });
    expectOneHumanLine(launch);

    const profile = mkdtempSync(join(tmpdir(), 'cr-profile-'));
    mkdirSync(join(profile, 'Default'));
    const install = await runCli(['install', '--user-data-dir', profile], { ...relay.env, CHROME_RELAY_HOME: '/proc/chrome-relay-x' }, FAST_MS);
    expect(install.error, install.stderr).toMatchObject({ code: 'invalid_arguments', details: { field: 'CHROME_RELAY_HOME' } });
    expectOneHumanLine(install);

    const launchHome = await runCli(['launch', '--headless'], { ...relay.env, CHROME_RELAY_HOME: '/proc/chrome-relay-x' }, FAST_MS);
    expect(launchHome.error, launchHome.stderr).toMatchObject({ code: 'invalid_arguments', details: { field: 'CHROME_RELAY_HOME' } });
  });
});

describe('the stderr contract and usage', () => {
  it('a reader that closes the pipe early gets no stack trace, and the exit code stays the command\'s', async () => {
    for (const args of [['skill'], ['tabs']]) {
      const child = spawn(process.execPath, [CLI, ...args], { env: relay.env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy(); // the reader is gone before the CLI writes (like `| head -0`)
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      expect(stderr, args.join(' ')).toBe('');
      expect(code, args.join(' ')).toBe(0);
    }
  });

  it('names the tool when options come before the command; click --x alone names y', async () => {
    const env = noBrowserEnv();
    const clickX = await runCli(['--tab', '5', 'click', '--x', '5'], env);
    expect(clickX.error).toMatchObject({ code: 'invalid_arguments', tool: 'click', details: { field: 'y' } });
    const clickY = await runCli(['click', '--y', '5'], env);
    expect(clickY.error).toMatchObject({ code: 'invalid_arguments', tool: 'click', details: { field: 'x' } });
    const unknown = await runCli(['--json', '--tab', '5', 'tabs', '--bogus'], env);
    expect(unknown.error).toMatchObject({ code: 'invalid_arguments', tool: 'tabs', details: { field: 'bogus' } });
    const bad = await runCli(['--profile', '/p', 'snapshot', '--depth', 'x'], env);
    expect(bad.error).toMatchObject({ code: 'invalid_arguments', tool: 'snapshot', details: { field: 'depth' } });
  });

  it('bare chrome-relay, --tab 5 alone and a group without its subcommand print usage and fail naming the command', async () => {
    const env = noBrowserEnv();
    for (const [args, tool, usage] of [
      [[], '', 'Usage: chrome-relay [options] [command]'],
      [['--tab', '5'], '', 'Usage: chrome-relay [options] [command]'],
      [['lease'], 'lease', 'Usage: chrome-relay lease'],
      [['record'], 'record', 'Usage: chrome-relay record'],
      [['workspace'], 'workspace', 'Usage: chrome-relay workspace'],
      [['group'], 'group', 'Usage: chrome-relay group'],
    ] as const) {
      const result = await runCli([...args], env);
      expect(result.stdout, args.join(' ')).toContain(usage);
      expect(result.error, args.join(' ')).toMatchObject({ code: 'invalid_arguments', tool, details: { field: 'command' } });
      expectOneHumanLine(result);
    }
    const asked = await runCli(['help', 'lease'], env);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('Usage: chrome-relay lease');
    expect(asked.stderr).toBe('');
  });

  it('stderr always has one human line: commander suggestions, notices, page text with line breaks', async () => {
    const suggestion = await runCli(['clik'], noBrowserEnv());
    expect(suggestion.error?.message).toMatch(/unknown command 'clik' \(Did you mean click\?\)/);
    expectOneHumanLine(suggestion);

    const tab = await open(relay, '/button.html');
    // A target given twice prints the target_overridden notice, then the call fails.
    const overridden = await relay.cli('--tab', String(tab.tabId), 'snapshot', '--tab', '999999');
    expect(overridden.stderr).toContain('{"relayNotice":{"notice":"target_overridden"');
    expect(overridden.error).toMatchObject({ code: 'target_not_found' });
    expectOneHumanLine(overridden);

    const multiline = await relay.cli('wait', '--text', 'first line\nsecond line', '--tab', String(tab.tabId), '--timeout', '300');
    expect(multiline.error).toMatchObject({ code: 'timeout', details: { reason: 'condition_not_met' } });
    expect(multiline.error?.message).toContain('first line\nsecond line');
    expectOneHumanLine(multiline);
  });
});

describe('codes that fit the situation', () => {
  it("a chrome:// page is the browser's own: refused as browser_page, which no retry can fix, and nothing is opened", async () => {
    const before = (await relay.devtools.pages()).length;
    const nav = await relay.cli('navigate', 'chrome://version');
    expect(nav.error).toMatchObject({ code: 'target_conflict', retryable: false, details: { reason: 'browser_page' } });
    expectOneHumanLine(nav);
    expect((await relay.devtools.pages()).length).toBe(before);
  });

  it('wait --timeout 2000 waits its whole budget, then times out with the condition_not_met reason', async () => {
    const tab = await open(relay, '/button.html');
    const started = Date.now();
    const result = await relay.cli('wait', '--text', 'never on this page', '--tab', String(tab.tabId), '--timeout', '2000');
    const elapsed = Date.now() - started;
    expect(result.error).toMatchObject({ code: 'timeout', retryable: true, details: { reason: 'condition_not_met' } });
    expect(Number(result.error?.details.waitedMs)).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    // Generous: the wait plus the room for its report, nowhere near a second budget.
    expect(elapsed).toBeLessThan(15_000);
  });

  it('js awaits a returned promise; a compile error never runs; what ran says it may have acted', async () => {
    const tab = await open(relay, '/reads.html');
    const page = await relay.page(tab.path);
    const js = (expression: string) => relay.cli('js', expression, '--tab', String(tab.tabId));
    expect((await js('Promise.resolve(5)')).json).toEqual({ tabId: tab.tabId, value: 5 });
    expect((await js('new Promise((r) => setTimeout(() => r({ late: [1, 2] }), 50))')).json).toEqual({ tabId: tab.tabId, value: { late: [1, 2] } });

    const syntax = await js('window.ranSyntax = 1; let x = ;');
    expect(syntax.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'expression' } });
    expect(await read(page, 'window.ranSyntax')).toBeUndefined();

    // JSON.parse throws a SyntaxError at run time: the code ran, so it is the page's exception.
    const thrown = await js("window.ranThrow = 1; JSON.parse('{')");
    expect(thrown.error).toMatchObject({ code: 'cdp_error', retryable: false });
    expect(await read(page, 'window.ranThrow')).toBe(1);

    const rejected = await js("window.ranReject = 1; Promise.reject(new SyntaxError('late'))");
    expect(rejected.error).toMatchObject({ code: 'cdp_error', retryable: false });
    expect(String(rejected.error?.details.exception)).toContain('late');

    // The expression is what to change (invalid_arguments on it), but it ran: mayHaveActed, not retryable.
    const node = await js("window.ranNode = 1; document.getElementById('head')");
    expect(node.error).toMatchObject({ code: 'invalid_arguments', retryable: false, details: { field: 'expression', path: 'result', mayHaveActed: true } });
    expect(node.error?.message).toContain('DOM node');
    expect(await read(page, 'window.ranNode')).toBe(1);
  });
});

describe('interrupted calls', () => {
  it('a click cut off by a dying host is native_host_disconnected, not retryable, and says to check the page', async () => {
    const tab = await open(relay, '/busy.html');
    const page = await relay.page(tab.path);
    const ref = refFor(await snapshot(relay, tab.tabId), /button "Busy"/);
    const hostPid = relay.hostPid();
    const pending = relay.cli('click', ref);
    await relay.server.waitForRequest('/slow?ms=0&mark=busy-click');
    process.kill(hostPid, 'SIGKILL');
    const result = await pending;
    expect(result.error).toMatchObject({ code: 'native_host_disconnected', tool: 'click', retryable: false, details: { reason: 'host_exited', mayHaveActed: true } });
    expect(result.error?.message).toMatch(/killed or crashed/);
    expect(result.error?.message).not.toMatch(/browser closed/);
    expect(result.error?.message).toMatch(/snapshot.*check the page before re-issuing/);
    expectOneHumanLine(result);
    // Why it must not be retried blindly: the click did happen.
    await until(() => read<boolean>(page, 'window.done'), 15_000, 'busy click handler');
    expect(await read(page, 'window.clicks')).toBe(1);
  });

  it('a read-only call cut off the same way stays retryable', async () => {
    const tab = await open(relay, '/button.html');
    await until(async () => (await relay.cli('tabs')).code === 0, 15_000, 'a new host after the kill');
    const hostPid = relay.hostPid();
    // Each poll of the condition asks the fixture server for the mark, so the test knows the wait runs.
    const pending = relay.cli('wait', '--fn', "(fetch('/slow?ms=0&mark=wait-poll'), false)", '--tab', String(tab.tabId), '--timeout', '20000');
    await relay.server.waitForRequest('/slow?ms=0&mark=wait-poll');
    process.kill(hostPid, 'SIGKILL');
    const result = await pending;
    expect(result.error).toMatchObject({ code: 'native_host_disconnected', tool: 'wait', retryable: true, details: { reason: 'host_exited' } });
    expect(result.error?.details.mayHaveActed).toBeUndefined();
    const next = await relay.cli('tabs');
    expect(next.code, next.stderr).toBe(0);
  });
});
