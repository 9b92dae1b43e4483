import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { platformOf } from '@chrome-relay/host-files';
import { HOST_NAME, PROTOCOL_VERSION, VERSION } from '@chrome-relay/protocol';
import { renderReport, runDoctor, unhealthyError, type Check, type DoctorOptions, type DoctorReport } from './doctor.js';
import { allowedExtensionIds, installOrThrow, resolveInstallTargets } from './install.js';
import { descriptorFor, FAKE_EXTENSION, startFakeHost, type FakeHost, type FakeHostSpec } from './testing/fakeHost.js';
import { fakeRegistry } from './testing/fakeRegistry.js';
import { writeLaunchRecord } from './launched.js';

let root = '';
let userHome = '';
let home = '';
let binDir = '';
const hosts: FakeHost[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cr-doctor-'));
  userHome = join(root, 'user');
  home = join(root, 'relay');
  binDir = join(root, 'bin');
  mkdirSync(binDir, { recursive: true });
  writeFileSync(join(binDir, 'ffmpeg'), '#!/bin/sh\n', { mode: 0o755 });
  mkdirSync(join(userHome, '.config/chromium'), { recursive: true });
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  rmSync(root, { recursive: true, force: true });
});

function installChromium(browsers: string[] = []): void {
  const hostSource = join(root, 'host.mjs');
  writeFileSync(hostSource, '// host\n');
  installOrThrow(home, resolveInstallTargets({ browsers }, { platform: 'linux', userHome }, home), allowedExtensionIds({}), { hostSource });
}

async function fakeHost(spec: Partial<FakeHostSpec> = {}): Promise<FakeHost> {
  const host = await startFakeHost({ home, pid: process.pid, browserPid: process.ppid, profile: null, ...spec });
  hosts.push(host);
  return host;
}

function doctor(overrides: Partial<DoctorOptions> = {}): Promise<DoctorReport> {
  return runDoctor({
    home,
    browserEnv: { platform: 'linux', userHome },
    pathEnv: binDir,
    env: {},
    executableOf: () => '/usr/lib/chromium/chromium',
    programExists: () => false,
    ...overrides,
  });
}

const named = (report: DoctorReport, prefix: string): Check => {
  const check = report.checks.find((c) => c.name.startsWith(prefix));
  if (!check) throw new Error(`no check named ${prefix}…:\n${renderReport(report)}`);
  return check;
};
const failing = (report: DoctorReport): string[] => report.checks.filter((c) => c.status === 'fail').map((c) => c.name);

describe('doctor', () => {
  it('is healthy when host files, manifest, host, extension and versions all line up', async () => {
    installChromium();
    await fakeHost();
    const report = await doctor();
    expect(failing(report)).toEqual([]);
    expect(report.healthy).toBe(true);
    expect(unhealthyError(report)).toBeNull();
    expect(named(report, 'host manifest (chromium)')).toMatchObject({ status: 'ok', detail: expect.stringContaining(join(home, 'host/chrome-relay-host')) });
    expect(named(report, 'extension connected')).toMatchObject({
      status: 'ok',
      detail: `chromium 156.0.8078.79 (pid ${process.ppid}), the browser's own profile (started without --user-data-dir; \`status\` shows profile null), extension ${FAKE_EXTENSION.id} ${VERSION}`,
    });
    // Said once: every other line only names the profile.
    expect(renderReport(report).match(/profile null/g)).toHaveLength(1);
    expect(named(report, 'versions').status).toBe('ok');
    expect(named(report, 'host reachable').detail).toContain('(0600, dir 0700)');
    expect(named(report, 'ffmpeg')).toMatchObject({ status: 'ok', detail: join(binDir, 'ffmpeg') });
    expect(named(report, 'other browsers')).toMatchObject({ status: 'skip', detail: expect.stringMatching(/^not installed: chrome, /) });
    // Plain text for humans: no colour codes, NO_COLOR or not.
    expect(renderReport(report)).not.toMatch(/\u001b\[/);
    expect(renderReport(report).split('\n').at(-1)).toBe('healthy: yes');
  });

  it('names a browser that is installed but was never run for this user, apart from those not installed', async () => {
    installChromium();
    const report = await doctor({ programExists: (path) => path === '/usr/bin/google-chrome-stable' });
    expect(named(report, 'browsers never run')).toMatchObject({ status: 'skip', detail: 'installed, but no profile for this user yet: chrome (/usr/bin/google-chrome-stable)' });
    expect(named(report, 'other browsers').detail).not.toContain('chrome,');
  });

  it('names a browser launch started that died for lack of a display, and how to start one that keeps its own', async () => {
    installChromium();
    const log = join(root, 'browser.log');
    writeFileSync(log, '[12:12:0101/000000.000:ERROR:ui/gfx/x/connection.cc:512] X connection error received.\n');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    writeLaunchRecord(home, { profile: join(root, 'profile'), browser: '/usr/lib/chromium/chromium', browserPid: gone, xvfb: null, log, startedAt: '2026-01-01T00:00:00.000Z' });
    const check = named(await doctor(), 'launched browser');
    expect(check).toMatchObject({ status: 'fail', code: 'extension_not_connected' });
    expect(check.detail).toContain(`is no longer running: it lost its X display ("X connection error" in ${log})`);
    expect(check.fix).toMatch(/without xvfb-run: on a machine without a display it starts and keeps its own \(Xvfb\), or add --headless/);
  });

  it('fails on a missing manifest with the install command for that browser', async () => {
    installChromium();
    await fakeHost();
    rmSync(join(userHome, '.config/chromium/NativeMessagingHosts', `${HOST_NAME}.json`));
    const report = await doctor();
    expect(report.healthy).toBe(false);
    expect(named(report, 'host manifest (chromium)')).toMatchObject({ status: 'fail', fix: 'chrome-relay install --browser chromium', code: 'extension_not_connected' });
    expect(unhealthyError(report)?.code).toBe('extension_not_connected');
  });

  it('fails on a manifest whose launcher is gone, and on a launcher whose node is gone', async () => {
    installChromium();
    await fakeHost();
    const launcher = join(home, 'host/chrome-relay-host');
    writeFileSync(launcher, "#!/bin/sh\nexec '/nonexistent/node' '/x/host.mjs' \"$@\"\n", { mode: 0o755 });
    let report = await doctor();
    expect(named(report, 'installed host')).toMatchObject({ status: 'fail', detail: expect.stringContaining('/nonexistent/node'), fix: expect.stringContaining('chrome-relay update') });
    rmSync(launcher);
    report = await doctor();
    expect(named(report, 'installed host').status).toBe('fail');
    expect(named(report, 'host manifest (chromium)')).toMatchObject({ status: 'fail', detail: expect.stringContaining('not an existing executable') });
  });

  it('fails a manifest that lets a foreign extension start the host', async () => {
    installChromium();
    await fakeHost();
    const file = join(userHome, '.config/chromium/NativeMessagingHosts', `${HOST_NAME}.json`);
    writeFileSync(file, JSON.stringify({ name: HOST_NAME, type: 'stdio', path: join(home, 'host/chrome-relay-host'), allowed_origins: ['chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/'] }));
    const report = await doctor();
    expect(named(report, 'host manifest (chromium)')).toMatchObject({ status: 'fail', detail: expect.stringContaining('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa') });
  });

  it('fails on a fresh machine: nothing installed for a detected browser', async () => {
    const report = await doctor();
    expect(failing(report)).toEqual(['installed host', 'host manifest (chromium)', 'extension connected']);
    expect(named(report, 'installed host').fix).toBe('chrome-relay install');
    // Every failing check of a reasoned code carries its reason, and so does the command's error.
    for (const check of report.checks.filter((c) => c.status === 'fail')) expect(check.reason, check.name).toBeDefined();
    expect(unhealthyError(report)?.details.reason).toBe('host_not_installed');
  });

  it('only warns about a detected browser the user chose not to install for', async () => {
    mkdirSync(join(userHome, '.config/google-chrome'), { recursive: true });
    installChromium(['chromium']);
    await fakeHost();
    const report = await doctor();
    expect(report.healthy).toBe(true);
    expect(named(report, 'host manifest (chrome)')).toMatchObject({ status: 'warn', fix: expect.stringContaining('chrome-relay install --browser chrome') });
    // Once installed for chrome, its manifest is recorded: losing it is a failure.
    installChromium(['chrome']);
    rmSync(join(userHome, '.config/google-chrome/NativeMessagingHosts', `${HOST_NAME}.json`));
    expect(named(await doctor(), 'host manifest (chrome)').status).toBe('fail');
  });

  it('fails "extension connected" when no host is running', async () => {
    installChromium();
    const report = await doctor();
    expect(failing(report)).toEqual(['extension connected']);
    expect(named(report, 'extension connected')).toMatchObject({ code: 'extension_not_connected', reason: 'no_host', fix: expect.stringContaining('chrome-relay launch') });
    expect(unhealthyError(report)?.details.reason).toBe('no_host');
  });

  it('fails when the host runs but the extension never greeted it', async () => {
    installChromium();
    await fakeHost({ extension: null });
    const report = await doctor();
    expect(named(report, 'host reachable').status).toBe('ok');
    expect(named(report, 'extension connected')).toMatchObject({ status: 'fail', code: 'extension_not_connected', reason: 'starting' });
  });

  it('does a real round trip: fails when the extension never answers, even though its hello is cached', async () => {
    installChromium();
    const host = await fakeHost({ extensionAnswers: false });
    const report = await doctor({ pingTimeoutMs: 150 });
    expect(named(report, 'extension connected').status).toBe('ok');
    expect(failing(report)).toEqual([named(report, 'extension answering').name]);
    expect(named(report, 'extension answering')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('did not answer a ping within 150 ms'),
      fix: expect.stringContaining('chrome-relay reconnect'),
      code: 'timeout',
      reason: 'extension_unresponsive',
    });
    expect(report.checks.some((c) => c.name.startsWith('tab answering'))).toBe(false);
    expect(host.requests.map((r) => [r.tool, r.params, r.timeoutMs])).toEqual([['status', {}, 3000], ['ping', { page: true }, 150]]);
    const error = unhealthyError(report);
    expect(error?.toData()).toMatchObject({ code: 'timeout', tool: 'doctor', details: { reason: 'extension_unresponsive' } });
    expect(error?.message).toContain('chrome-relay reconnect');
  });

  it("says the person paused agents, since when, and the move; it does not touch a tab while paused", async () => {
    installChromium();
    const since = Date.UTC(2026, 10, 26, 13, 5, 22);
    const host = await fakeHost({ pausedSince: since, page: { tabId: 7, url: 'https://example.test/', answered: false, ms: 0, problem: 'paused' } });
    const report = await doctor();
    expect(named(report, 'not paused')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('paused by the person since 2026-11-26 13:05:22 UTC'),
      fix: expect.stringContaining('Resume'),
      code: 'target_conflict',
      reason: 'paused_by_user',
    });
    expect(named(report, 'tab answering').status).toBe('skip');
    expect(host.requests.map((r) => [r.tool, r.params])).toEqual([['status', {}], ['ping', {}]]);
    const error = unhealthyError(report);
    expect(error?.toData()).toMatchObject({ code: 'target_conflict', details: { reason: 'paused_by_user' } });
    expect(error?.message).not.toMatch(/reload|page_busy/);
  });

  it('reports the round trip to the extension and to chrome-relay\'s tab', async () => {
    installChromium();
    await fakeHost({ page: { tabId: 7, url: 'https://example.test/', answered: true, ms: 2 } });
    const report = await doctor();
    expect(report.healthy).toBe(true);
    expect(named(report, 'extension answering')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/answered a ping in \d+ ms/) });
    expect(named(report, 'tab answering')).toMatchObject({ status: 'ok', detail: 'tab 7 (https://example.test/) evaluated `1` in 2 ms' });
  });

  it('counts an older extension\'s unsupported_tool as an answer: it did answer', async () => {
    installChromium();
    await fakeHost({ legacy: true });
    expect(named(await doctor(), 'extension answering')).toMatchObject({ status: 'ok', detail: expect.stringContaining('unsupported_tool') });
  });

  it('skips the tab check without a tab, and fails a tab that does not answer, naming how to unblock it', async () => {
    installChromium();
    await fakeHost();
    expect(named(await doctor(), 'tab answering')).toMatchObject({ status: 'skip' });
    for (const host of hosts.splice(0)) await host.close();
    await fakeHost({ page: { tabId: 7, url: 'https://example.test/', answered: false, ms: 2750, problem: 'the page did not evaluate `1` before the deadline' } });
    const report = await doctor();
    expect(failing(report)).toEqual([named(report, 'tab answering').name]);
    expect(named(report, 'tab answering')).toMatchObject({ code: 'timeout', reason: 'page_busy', fix: expect.stringContaining('chrome-relay dialog dismiss --tab 7') });
  });

  it('cleans a stale descriptor and its socket left by a killed host', async () => {
    installChromium();
    const run = join(home, 'run');
    mkdirSync(run, { recursive: true, mode: 0o700 });
    // A real host process that dies by SIGKILL: its socket file stays behind, nobody listens.
    const child = spawn(process.execPath, ['-e', "const p=require('path').join(process.argv[1],'host-'+process.pid+'.sock');require('net').createServer().listen(p,()=>console.log('up'))", run], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const pid = child.pid ?? 0;
    const socket = join(run, `host-${pid}.sock`);
    writeFileSync(join(run, `host-${pid}.json`), JSON.stringify(descriptorFor({ home, pid }, socket)));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(lstatSync(socket).isSocket()).toBe(true);

    const report = await doctor();
    expect(named(report, 'stale hosts')).toMatchObject({ status: 'ok', detail: expect.stringContaining(socket) });
    expect(existsSync(socket)).toBe(false);
    expect(existsSync(join(run, `host-${pid}.json`))).toBe(false);
    expect(named(report, 'extension connected').status).toBe('fail');
  });

  it('treats a descriptor whose socket nobody listens on as stale, even when its pid is alive (zombie, reused)', async () => {
    installChromium();
    const run = join(home, 'run');
    mkdirSync(run, { recursive: true, mode: 0o700 });
    const file = join(run, `host-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(descriptorFor({ home, pid: process.pid }, join(run, `host-${process.pid}.sock`))));
    const report = await doctor();
    expect(named(report, 'stale hosts').detail).toContain(file);
    expect(existsSync(file)).toBe(false);
    expect(failing(report)).toEqual(['extension connected']);
  });

  it('flags an extension older than the CLI with the command that fixes it', async () => {
    installChromium();
    await fakeHost({ extension: { ...FAKE_EXTENSION, version: '0.0.9' } });
    const report = await doctor();
    expect(named(report, 'versions')).toMatchObject({
      status: 'fail',
      code: 'unsupported_tool',
      detail: expect.stringContaining(`cli ${VERSION}, host ${VERSION}, extension 0.0.9`),
      fix: expect.stringContaining('reload the extension'),
    });
  });

  it('flags a running host older than the CLI (run update) and a newer extension (update the CLI)', async () => {
    installChromium();
    await fakeHost({ hostVersion: '0.0.1' });
    expect(named(await doctor(), 'versions')).toMatchObject({ status: 'fail', fix: expect.stringContaining('chrome-relay update') });
    for (const host of hosts.splice(0)) await host.close();
    await fakeHost({ extension: { ...FAKE_EXTENSION, version: '99.0.0' } });
    expect(named(await doctor(), 'versions')).toMatchObject({ status: 'fail', fix: expect.stringContaining('update the CLI') });
    for (const host of hosts.splice(0)) await host.close();
    await fakeHost({ extension: { ...FAKE_EXTENSION, protocolVersion: PROTOCOL_VERSION + 1 } });
    expect(named(await doctor(), 'versions')).toMatchObject({ status: 'fail', detail: expect.stringContaining('protocol versions differ') });
  });

  it('fails a socket other users could open', async () => {
    installChromium();
    const host = await fakeHost();
    chmodSync(host.socket, 0o666);
    const report = await doctor();
    expect(named(report, 'host reachable')).toMatchObject({ status: 'fail', detail: expect.stringContaining('0666'), code: 'native_host_disconnected' });
  });

  it('checks every live host, including two default profiles of different browsers', async () => {
    installChromium();
    await fakeHost({ pid: process.pid, browserPid: 1 });
    await fakeHost({ pid: process.ppid, browserPid: 2 });
    const report = await doctor();
    expect(report.checks.filter((c) => c.name.startsWith('extension connected') && c.status === 'ok')).toHaveLength(2);
    // --profile narrows to one browser.
    const narrowed = await doctor({ profile: '/nope' });
    expect(named(narrowed, 'extension connected')).toMatchObject({ status: 'fail', detail: expect.stringContaining('/nope') });
  });

  it('only warns when ffmpeg is missing: recording is optional', async () => {
    installChromium();
    await fakeHost();
    const report = await doctor({ pathEnv: join(root, 'empty') });
    expect(named(report, 'ffmpeg')).toMatchObject({ status: 'warn', fix: expect.stringContaining('apt-get install ffmpeg') });
    expect(report.healthy).toBe(true);
  });
});

describe('doctor on Windows', () => {
  const windows = (): DoctorOptions['browserEnv'] => ({ platform: 'win32', userHome, env: {} });
  const chromeKey = `HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\${HOST_NAME}`;

  it('follows each browser\'s registry key to its manifest and launcher, as Chrome does', async () => {
    const registry = fakeRegistry();
    const hostSource = join(root, 'host.mjs');
    writeFileSync(hostSource, '// host\n');
    const env = windows();
    installOrThrow(home, resolveInstallTargets({ browsers: ['chrome'] }, env, home), allowedExtensionIds({}), { hostSource, platform: platformOf('win32'), registry });
    const manifest = join(home, 'host', 'manifests', 'chrome.json');
    const check = async (): Promise<Check> => named(await doctor({ browserEnv: env, registry }), 'host manifest (chrome)');

    expect(await check()).toMatchObject({ status: 'ok', detail: `${chromeKey} → ${manifest} → ${join(home, 'host', 'chrome-relay-host.cmd')}` });

    // Another chrome-relay home (or tool) took the key: Chrome would start that host, not ours.
    registry.values.set(chromeKey, 'C:\\elsewhere\\com.chrome_relay.host.json');
    expect(await check()).toMatchObject({ status: 'fail', detail: expect.stringContaining(`names C:\\elsewhere\\com.chrome_relay.host.json, not this home's manifest`), fix: 'chrome-relay install --browser chrome' });

    registry.values.delete(chromeKey);
    expect(await check()).toMatchObject({ status: 'fail', detail: `missing: ${chromeKey} (naming ${manifest})`, code: 'extension_not_connected', reason: 'host_not_installed' });
  });

  it('fails a manifest whose launcher Chrome on Windows cannot start (not .exe, .cmd or .bat)', async () => {
    const registry = fakeRegistry();
    const manifest = join(root, 'm.json');
    const launcher = join(root, 'chrome-relay-host');
    writeFileSync(launcher, '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(manifest, JSON.stringify({ name: HOST_NAME, path: launcher, type: 'stdio', allowed_origins: [`chrome-extension://${FAKE_EXTENSION.id}/`] }));
    writeFileSync(join(mkdirAll(home), 'installed.json'), JSON.stringify({ cliVersion: VERSION, updatedAt: '', launcher, hostFiles: [], extensionIds: [FAKE_EXTENSION.id], manifests: [{ browser: 'chrome', path: manifest, registryKey: chromeKey }], createdDirs: [] }));
    registry.values.set(chromeKey, manifest);
    expect(named(await doctor({ browserEnv: windows(), registry }), 'host manifest (chrome)')).toMatchObject({ status: 'fail', detail: expect.stringContaining('runs only .exe, .cmd and .bat files') });
  });
});

function mkdirAll(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
