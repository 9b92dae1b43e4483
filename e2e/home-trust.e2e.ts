/**
 * A home the CLI does not own is never trusted, as ssh treats keys others can write. A real second OS user, made by
 * this test (useradd) and removed at its end, prepares chrome-relay's home in a folder everyone may write, plants a
 * host descriptor there and listens on the socket it names, recording every byte it is sent. Then this user runs
 * the built CLI and an MCP server with CHROME_RELAY_HOME pointing there:
 *
 *   - a `fill` (with a value), `tabs`, `status`, a batch, an MCP call: each refused with
 *     extension_not_connected/home_not_private and the planted socket receives nothing;
 *   - install, uninstall, stop and launch refuse too, and nothing in the home changes;
 *   - `doctor` fails naming the folder, its owner by name and the fix, and leaves the planted files alone (it once
 *     removed them as "stale" without a word);
 *   - a home of this user's in a folder others may write without the sticky bit (they could swap it) is refused
 *     the same way; a descriptor another user put into this user's own private run folder is never followed.
 *
 * Needs root (to make the second user); CI runs as root. Elsewhere the file says why it skipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PROTOCOL_VERSION, VERSION } from '@chrome-relay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, type CliResult } from './harness.js';
import { mcpClient } from './helpers.js';

const asRoot = process.getuid?.() === 0;
const SECRET = 'hunter2-PLANTED-7';
const OTHER = `crplant${process.pid % 100000}`;

let other: { uid: number; gid: number } | undefined;
let root = '';
let listener: ChildProcess | undefined;
let received = '';

/** A listener run as the other user on `socket`: every byte it is sent is appended to `log` (its file). */
function plantListener(socket: string, log: string): ChildProcess {
  const script = `
    const net = require('net'); const fs = require('fs');
    fs.writeFileSync(${JSON.stringify(log)}, '');
    const server = net.createServer((c) => { c.on('data', (d) => fs.appendFileSync(${JSON.stringify(log)}, d.toString('latin1'))); });
    server.listen(${JSON.stringify(socket)}, () => { fs.chmodSync(${JSON.stringify(socket)}, 0o777); process.stdout.write('ready\\n'); });`;
  const user = other ?? { uid: 0, gid: 0 };
  return spawn(process.execPath, ['-e', script], { uid: user.uid, gid: user.gid, stdio: ['ignore', 'pipe', 'inherit'] });
}

function asOther(dir: string, mode: number): void {
  mkdirSync(dir, { recursive: true });
  chownSync(dir, other?.uid ?? 0, other?.gid ?? 0);
  chmodSync(dir, mode);
}

/** What another user's host would have written: a descriptor of this very build naming their socket. */
function plantDescriptor(run: string, pid: number, socket: string): string {
  const file = join(run, `host-${pid}.json`);
  const descriptor = {
    pid,
    socket,
    startedAt: new Date().toISOString(),
    browserPid: null,
    profile: null,
    origin: 'chrome-extension://nplipfneioajmjoiadbinnjjicindjlf/',
    host: { version: VERSION, protocolVersion: PROTOCOL_VERSION },
    extension: { version: VERSION, protocolVersion: PROTOCOL_VERSION, id: 'nplipfneioajmjoiadbinnjjicindjlf' },
  };
  writeFileSync(file, JSON.stringify(descriptor));
  chownSync(file, other?.uid ?? 0, other?.gid ?? 0);
  chmodSync(file, 0o644);
  return file;
}

function envFor(home: string): NodeJS.ProcessEnv {
  const userHome = join(root, 'userhome');
  mkdirSync(userHome, { recursive: true });
  return { PATH: process.env.PATH, HOME: userHome, TMPDIR: tmpdir(), CHROME_RELAY_HOME: home };
}

function refusedForHome(result: CliResult, what: string): void {
  expect(result.code, `${what}: ${result.stdout}`).toBe(1);
  expect(result.error, `${what}: ${result.stderr}`).toMatchObject({ code: 'extension_not_connected', details: { reason: 'home_not_private' } });
  expect(result.error?.message, what).toContain('chrome-relay doctor');
  expect(result.stdout + result.stderr, what).not.toContain(SECRET);
}

function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const name of readdirSync(at, { withFileTypes: true })) {
      out.push(join(at, name.name));
      if (name.isDirectory()) walk(join(at, name.name));
    }
  };
  walk(dir);
  return out.sort();
}

describe.skipIf(!asRoot)('a home another user prepared', () => {
  let shared = '';
  let home = '';
  let run = '';
  let socket = '';
  let descriptor = '';
  let log = '';

  beforeAll(async () => {
    const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`useradd ${OTHER} failed: ${made.stderr}`);
    const id = (flag: string): number => Number(spawnSync('id', [flag, OTHER], { encoding: 'utf8' }).stdout.trim());
    other = { uid: id('-u'), gid: id('-g') };
    root = mkdtempSync(join(tmpdir(), 'cr-home-trust-'));
    chmodSync(root, 0o755);
    // A folder everyone may write (sticky, like /tmp): the other user makes chrome-relay's home there first.
    shared = join(root, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    home = join(shared, 'home');
    run = join(home, 'run');
    asOther(home, 0o777);
    asOther(run, 0o777);
    socket = join(run, 'host-1.sock');
    log = join(run, 'received.log');
    listener = plantListener(socket, log);
    await new Promise<void>((resolve, reject) => {
      listener?.stdout?.once('data', () => resolve());
      listener?.once('exit', (code) => reject(new Error(`the planted listener exited (${code})`)));
    });
    descriptor = plantDescriptor(run, listener.pid ?? 1, socket);
  }, 60_000);

  afterAll(() => {
    listener?.kill('SIGKILL');
    if (root !== '') rmSync(root, { recursive: true, force: true });
    if (other !== undefined) spawnSync('userdel', [OTHER]);
  });

  const readReceived = (): string => (existsSync(log) ? readFileSync(log, 'latin1') : '');

  it('every command that would use it is refused, and the planted socket receives nothing', async () => {
    const env = envFor(home);
    const before = listing(home);
    refusedForHome(await runCli(['fill', '@e1', SECRET, '--timeout', '3000'], env), 'fill');
    refusedForHome(await runCli(['tabs', '--timeout', '3000'], env), 'tabs');
    refusedForHome(await runCli(['status', '--timeout', '3000'], env), 'status');
    refusedForHome(await runCli(['navigate', 'https://example.com/', '--timeout', '3000'], env), 'navigate');
    for (const args of [['install'], ['uninstall'], ['stop', '--all'], ['launch', '--headless', '--launch-timeout', '2000'], ['extension', 'path']]) {
      refusedForHome(await runCli(args, env), args.join(' '));
    }
    // A batch is refused as a whole before its first step.
    const batch = spawnSync(process.execPath, [CLI, 'batch'], {
      env,
      input: JSON.stringify([{ command: 'fill', args: ['@e1', SECRET] }]),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(batch.status).toBe(1);
    expect(batch.stderr).toContain('home_not_private');
    expect(batch.stdout + batch.stderr).not.toContain(SECRET);

    // An MCP server (the official SDK's client) starts, and each call says why it cannot reach a browser.
    const client: Client = await mcpClient(env);
    try {
      const answer = await client.callTool({ name: 'fill', arguments: { ref: 'e1', value: SECRET } });
      expect(answer.isError).toBe(true);
      expect(JSON.stringify(answer)).toContain('home_not_private');
      expect(JSON.stringify(answer)).not.toContain(SECRET);
    } finally {
      await client.close().catch(() => undefined);
    }
    // Give any connection a moment to deliver what it carried: there must be none.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readReceived()).toBe('');
    expect(listing(home)).toEqual(before);
  });

  it('doctor names the folder, its owner and the fix, and leaves the planted files alone', async () => {
    const doctor = await runCli(['doctor'], envFor(home));
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`${home} belongs to ${OTHER} (uid ${other?.uid ?? -1})`);
    expect(doctor.stdout).toMatch(/fix: set CHROME_RELAY_HOME to a folder of your own/);
    expect(doctor.error).toMatchObject({ code: 'extension_not_connected', details: { reason: 'home_not_private' } });
    expect(doctor.stdout).not.toMatch(/stale hosts|removed/);
    expect(existsSync(descriptor)).toBe(true);
    expect(existsSync(socket)).toBe(true);
    expect(readReceived()).toBe('');
  });

  it("a home of this user's that others could swap, or a descriptor another user put in its run folder, is not trusted either", async () => {
    // This user's own home, private, but in a folder anyone may write without the sticky bit: anyone can rename it.
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const mine = join(open, 'home');
    mkdirSync(join(mine, 'run'), { recursive: true, mode: 0o700 });
    chmodSync(mine, 0o700);
    refusedForHome(await runCli(['tabs', '--timeout', '3000'], envFor(mine)), 'tabs in a home others can swap');
    const doctor = await runCli(['doctor'], envFor(mine));
    expect(doctor.stdout).toContain(`${open}, a folder above chrome-relay's home ${mine}, can be written by others (mode 0777)`);

    // This user's own private home and run folder, holding a descriptor another user wrote (naming their socket).
    const privateHome = join(root, 'private');
    mkdirSync(join(privateHome, 'run'), { recursive: true, mode: 0o700 });
    chmodSync(privateHome, 0o700);
    chmodSync(join(privateHome, 'run'), 0o700);
    plantDescriptor(join(privateHome, 'run'), listener?.pid ?? 1, socket);
    const tabs = await runCli(['fill', '@e1', SECRET, '--timeout', '3000'], envFor(privateHome));
    expect(tabs.error, tabs.stderr).toMatchObject({ code: 'extension_not_connected', details: { reason: 'no_host' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readReceived()).toBe('');
  });
});
