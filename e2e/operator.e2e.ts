/**
 * The operator's side, through the built CLI: install / uninstall / doctor / update against a launched
 * Chromium, plus the cheap no-browser cases (stale socket, skill, --help examples). One browser for the file.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID, runCli, startRelay, type Relay } from './harness.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = 'com.chrome_relay.host.json';

let relay: Relay;
let userHome = '';
beforeAll(async () => {
  relay = await startRelay();
  userHome = relay.env.HOME ?? '';
});
afterAll(async () => {
  await relay?.stop();
});

interface InstallResult { launcher: string; hostFile: string; written: { browser: string; manifest: string }[] }
interface DoctorJson { healthy: boolean; checks: { name: string; status: string; detail: string; fix?: string }[] }

describe('operator experience with a launched browser', () => {
  it('doctor is healthy and names the browser, profile, extension and versions', async () => {
    const doctor = await relay.cli('doctor', '--profile', relay.profile);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(new RegExp(`\\[ok\\] {3}extension connected \\(profile ${relay.profile}, host pid \\d+\\): chromium [\\d.]+ \\(pid ${relay.browserPid}\\), profile ${relay.profile}, extension ${EXTENSION_ID} 0\\.1\\.0`));
    expect(doctor.stdout).toMatch(/\[ok\] {3}host reachable .*\(0600, dir 0700\)/);
    expect(doctor.stdout).toMatch(/\[ok\] {3}versions .*cli 0\.1\.0, host 0\.1\.0, extension 0\.1\.0/);
    expect(doctor.stdout.trimEnd().split('\n').at(-1)).toBe('healthy: yes');
    expect(doctor.stderr).toBe('');
  });

  it('install writes every detected browser; one blocked directory fails the command with a partial report', async () => {
    mkdirSync(join(userHome, '.config/google-chrome/NativeMessagingHosts'), { recursive: true });
    writeFileSync(join(userHome, '.config/google-chrome/NativeMessagingHosts/com.other.app.json'), '{"name":"com.other.app"}');
    mkdirSync(join(userHome, '.config/BraveSoftware/Brave-Browser'), { recursive: true });
    // A file where Brave's NativeMessagingHosts directory belongs: unwritable, even for root.
    writeFileSync(join(userHome, '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts'), 'in the way');

    const blocked = await relay.cli('install');
    expect(blocked.code).toBe(1);
    expect(blocked.error?.code).toBe('partial_success_disallowed');
    const applied = blocked.error?.details.applied as { browser: string }[];
    const failed = blocked.error?.details.failed as { browser: string; manifest: string }[];
    expect(applied.map((a) => a.browser)).toContain('chrome');
    expect(failed).toEqual([expect.objectContaining({ browser: 'brave', manifest: expect.stringContaining('Brave-Browser/NativeMessagingHosts') })]);

    rmSync(join(userHome, '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts'));
    const fixed = await relay.cli('install', '--json');
    expect(fixed.code, fixed.stderr).toBe(0);
    const result = fixed.json as InstallResult;
    expect(result.written.map((w) => w.browser)).toEqual(expect.arrayContaining(['chrome', 'brave']));
    const manifest = JSON.parse(readFileSync(join(userHome, '.config/google-chrome/NativeMessagingHosts', MANIFEST), 'utf8')) as { path: string; allowed_origins: string[] };
    expect(manifest).toMatchObject({ path: result.launcher, allowed_origins: [`chrome-extension://${EXTENSION_ID}/`] });

    const unknown = await relay.cli('install', '--browser', 'firefox');
    expect(unknown.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'browser' } });
    expect(unknown.error?.message).toContain('chrome, chrome-beta');
  });

  it('uninstall removes exactly what install wrote; doctor then fails naming the fix; install restores health', async () => {
    const record = JSON.parse(readFileSync(join(relay.home, 'installed.json'), 'utf8')) as { manifests: { path: string }[]; hostFiles: string[] };
    const uninstall = await relay.cli('uninstall');
    expect(uninstall.code, uninstall.stderr).toBe(0);
    for (const path of [...record.manifests.map((m) => m.path), ...record.hostFiles]) expect(existsSync(path), path).toBe(false);
    // Not ours: another app's manifest and the directory holding it stay.
    expect(readFileSync(join(userHome, '.config/google-chrome/NativeMessagingHosts/com.other.app.json'), 'utf8')).toBe('{"name":"com.other.app"}');
    expect(existsSync(join(relay.home, 'installed.json'))).toBe(false);

    const broken = await relay.cli('doctor', '--profile', relay.profile);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/\[FAIL\] installed host: no launcher at .*\n {7}fix: chrome-relay install/);
    expect(broken.stdout).toMatch(/\[FAIL\] host manifest \(brave\): missing: .*\n {7}fix: chrome-relay install --browser brave/);
    expect(broken.stdout).toMatch(/\[FAIL\] host manifest \(profile .*\): missing/);
    expect(broken.error).toMatchObject({ code: 'extension_not_connected', tool: 'doctor' });
    // The running host is not touched by uninstall: the browser stays connected until it restarts.
    expect(broken.stdout).toMatch(/\[ok\] {3}extension connected/);

    expect((await relay.cli('install')).code).toBe(0);
    expect((await relay.cli('install', '--user-data-dir', relay.profile)).code).toBe(0);
    const healthy = await relay.cli('doctor', '--profile', relay.profile, '--json');
    expect(healthy.code, healthy.stdout).toBe(0);
    expect((healthy.json as DoctorJson).healthy).toBe(true);
  });

  it('update replaces the host: the old process is gone, a new one answers', async () => {
    const before = relay.hostPid();
    const update = await relay.cli('update', '--json');
    expect(update.code, update.stderr).toBe(0);
    const result = update.json as { reconnected: { oldHostPid: number; newHostPid: number; hostVersion: string }[] };
    expect(result.reconnected).toEqual([expect.objectContaining({ oldHostPid: before, hostVersion: '0.1.0' })]);
    expect(result.reconnected[0]?.newHostPid).not.toBe(before);
    expect(() => process.kill(before, 0)).toThrow();
    const status = await relay.cli('status', '--json');
    expect(status.code, status.stderr).toBe(0);
    expect((status.json as { host: { pid: number } }).host.pid).toBe(result.reconnected[0]?.newHostPid);
  });
});

describe('operator experience without a browser', () => {
  it('doctor removes a dead host\'s descriptor and socket and says how to connect', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cr-op-stale-'));
    try {
      const run = join(home, 'run');
      mkdirSync(run, { recursive: true, mode: 0o700 });
      const child = spawn(process.execPath, ['-e', "const p=require('path').join(process.argv[1],'host-'+process.pid+'.sock');require('net').createServer().listen(p,()=>console.log('up'))", run], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise((resolve) => child.stdout.once('data', resolve));
      const pid = child.pid ?? 0;
      const socket = join(run, `host-${pid}.sock`);
      writeFileSync(join(run, `host-${pid}.json`), JSON.stringify({ pid, socket, startedAt: new Date().toISOString(), browserPid: null, profile: null, origin: `chrome-extension://${EXTENSION_ID}/`, host: { version: '0.1.0', protocolVersion: 1 }, extension: null }));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      expect(lstatSync(socket).isSocket()).toBe(true);

      const doctor = await runCli(['doctor', '--json'], { ...relay.env, CHROME_RELAY_HOME: home });
      expect(doctor.code).toBe(1);
      const report = doctor.json as DoctorJson;
      expect(report.checks.find((c) => c.name === 'stale hosts')?.detail).toContain(socket);
      expect(report.checks.find((c) => c.name === 'extension connected')).toMatchObject({ status: 'fail', fix: expect.stringContaining('chrome-relay launch') });
      expect(doctor.error?.code).toBe('extension_not_connected');
      expect(existsSync(socket)).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('skill prints the checked-in SKILL.md, for this binary\'s version', async () => {
    const skill = await runCli(['skill'], relay.env);
    expect(skill.code).toBe(0);
    expect(skill.stdout).toBe(readFileSync(join(repo, 'SKILL.md'), 'utf8'));
  });

  it('every command\'s --help has an example, and output has no colour codes', async () => {
    for (const command of ['launch', 'install', 'uninstall', 'update', 'doctor', 'skill', 'tabs', 'navigate', 'snapshot', 'click', 'status']) {
      const help = await runCli([command, '--help'], { ...relay.env, FORCE_COLOR: '1' });
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(/Example:\n {2}\$ chrome-relay /);
      expect(help.stdout, command).not.toMatch(/\u001b\[/);
    }
  });
});
