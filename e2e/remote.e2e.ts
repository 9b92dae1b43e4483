/**
 * The agent elsewhere, the browser at the person's desk: agents reach it only through a bridge the person runs
 * (`chrome-relay bridge`), over real OpenSSH (Debian's sshd on 127.0.0.1, a throwaway host key and user key, the
 * agent's own ~/.ssh/config with a ControlMaster), through a socket mounted into namespaces of their own, and through a
 * command's stdio — each as its own OS user where a person would have one. The person's side is the launched browser
 * and its popup and options, driven as a person would; the agents only through the built CLI and `chrome-relay mcp`.
 *
 *   - an agent of another OS user drives the browser through ssh://, as CLI calls and as an MCP session;
 *   - an agent in its own network and mount namespaces, with only the bridge's socket mounted, through unix: — as
 *     another uid through a shared socket and its pairing secret; without the secret, or at a private socket, refused;
 *   - the cmd: transport with a stand-in command (what `cmd.exe /c chrome-relay bridge` is under WSL);
 *   - the link cut mid-call (the ssh process, the bridge at the far end, the listening bridge, under MCP too):
 *     native_host_disconnected/link_lost, "may have acted", the action not repeated, and the next call works;
 *   - Pause, the block list and "agent tabs only" hold through every path; the person turns agents on other machines
 *     off (and on) in the options; the popup names where each agent's commands came from.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, parseCliOutput, runCli, startRelay, until, type CliResult, type Relay } from './harness.js';
import { startFixtureServer, type FixtureServer } from './fixtureServer.js';
import { read, refFor, stringEnv } from './helpers.js';
import { extensionPage, personClicks, personTabIds, saveOptions } from './personOptions.js';
import { markedBlocks, steps } from './readmeBlocks.js';
import { createAgentUser, pidsWhere, startSshd, writeClientConfig, type AgentUser, type Sshd } from './remoteRig.js';

const ALIAS = 'desk';
const node = process.execPath;

let relay: Relay;
let root: string;
let user: AgentUser;
let sshd: Sshd;
let blocked: FixtureServer;
let options: Page;
let popup: Page;
/** The person's bridge for containers: shared (--paired), so an agent of another uid may connect with the secret. */
let sharedStarted: Promise<Listener> | undefined;
let pairing = '';
/** Started by the first test that needs it (so each test fails on its own where there is no bridge to start). */
async function sharedBridge(): Promise<Listener> {
  sharedStarted ??= startListener(join(root, 'shared', 'relay.sock'), '--paired', '--label', 'container').then((listener) => {
    pairing = readFileSync(join(relay.home, 'bridge', 'pairing'), 'utf8').trim();
    return listener;
  });
  return sharedStarted;
}
const listeners: Listener[] = [];

/** The ssh agent's environment: its own home (where ssh reads ~/.ssh/config), its own chrome-relay home. */
const sshEnv = (agent = 'ssh-agent'): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: user.home, CHROME_RELAY_HOME: join(user.home, 'relay'), CHROME_RELAY_ENDPOINT: `ssh://${ALIAS}`, CHROME_RELAY_AGENT: agent });
/** A stand-in for `cmd.exe /c chrome-relay bridge` (WSL) or `docker exec …`: a command whose stdio is the bridge. */
const cmdEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: join(root, 'cmd-agent'),
  CHROME_RELAY_HOME: join(root, 'cmd-agent', 'relay'),
  CHROME_RELAY_AGENT: 'cmd-agent',
  CHROME_RELAY_ENDPOINT: `cmd:env CHROME_RELAY_HOME=${relay.home} HOME=${relay.env.HOME ?? ''} ${node} ${CLI} bridge --label stand-in`,
});

interface Listener {
  readonly path: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** The person starts `chrome-relay bridge --listen <path> …args` on their machine; resolves once it listens. */
async function startListener(path: string, ...args: string[]): Promise<Listener> {
  const child = spawn(node, [CLI, 'bridge', '--listen', path, ...args], { env: stringEnv(relay.env), stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
  await until(() => said.includes('listening on') || child.exitCode !== null, 20_000, 'the bridge listening');
  if (child.exitCode !== null) throw new Error(`bridge --listen exited: ${said}`);
  const listener: Listener = {
    path,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
  listeners.push(listener);
  return listener;
}

/**
 * The built CLI as the agent user in network and mount namespaces of its own: the loopback is down, the person's
 * chrome-relay home, profile and the bridge's folder are covered by empty tmpfs, and the one thing it has of the
 * person's machine is the bridge's socket, bind-mounted at <view>/relay.sock. `command` defaults to the CLI.
 */
async function inNamespace(socket: string, args: readonly string[], extraEnv: Record<string, string> = {}, command: readonly string[] = [node, CLI]): Promise<CliResult> {
  const view = mkdtempSync(join(root, 'view-'));
  chmodSync(view, 0o755);
  mkdirSync(join(view, 'home'));
  chownSync(join(view, 'home'), user.uid, user.gid);
  writeFileSync(join(view, 'relay.sock'), '');
  const env = { PATH: process.env.PATH ?? '', HOME: join(view, 'home'), CHROME_RELAY_HOME: join(view, 'home', 'relay'), CHROME_RELAY_ENDPOINT: `unix:${join(view, 'relay.sock')}`, CHROME_RELAY_AGENT: 'unix-agent', ...extraEnv };
  const script = [
    'set -e',
    `mount --bind "${socket}" "${join(view, 'relay.sock')}"`,
    `mount -t tmpfs -o mode=0755 tmpfs "${relay.root}"`,
    `mount -t tmpfs -o mode=0755 tmpfs "${join(root, 'shared')}"`,
    `mount -t tmpfs -o mode=0755 tmpfs "${join(root, 'sshd')}"`,
    `exec ${user.asUser.join(' ')} env -i ${Object.entries(env).map(([k, v]) => `${k}='${v}'`).join(' ')} "$@"`,
  ].join('\n');
  return new Promise((resolve) => {
    execFile('unshare', ['--mount', '--net', '--fork', '--propagation', 'private', 'sh', '-c', script, 'sh', ...command, ...args], { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      rmSync(view, { recursive: true, force: true });
      resolve(parseCliOutput(err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr));
    });
  });
}

const viaUnix = async (args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> => inNamespace((await sharedBridge()).path, args, { CHROME_RELAY_PAIRING: pairing, ...env });
const viaSsh = (args: readonly string[], agent?: string): Promise<CliResult> => user.cli(args, sshEnv(agent));
const viaCmd = (args: readonly string[]): Promise<CliResult> => runCli([...args], cmdEnv());

function ok(result: CliResult, what: string): Record<string, unknown> {
  expect(result.code, `${what}\n${result.stderr}`).toBe(0);
  return result.json as Record<string, unknown>;
}

function refused(result: CliResult, code: string, reason: string): void {
  expect(result.code, result.stdout).toBe(1);
  expect(result.error?.code, result.stderr).toBe(code);
  expect(result.error?.details.reason, result.stderr).toBe(reason);
}

/** The holder of an ssh:// or cmd: link of `home` (its record in <home>/run). */
function holderOf(home: string): { pid: number; commandPid: number; bridge: { pid: number } | null } {
  const run = join(home, 'run');
  const name = readdirSync(run).find((n) => /^link-[0-9a-f]+\.json$/.test(n));
  if (name === undefined) throw new Error(`no link holder in ${run}`);
  return JSON.parse(readFileSync(join(run, name), 'utf8')) as { pid: number; commandPid: number; bridge: { pid: number } | null };
}

async function mcpAs(agent: string): Promise<Client> {
  const transport = new StdioClientTransport({ command: user.asUser[0] ?? 'setpriv', args: [...user.asUser.slice(1), node, CLI, 'mcp', '--agent', agent], env: stringEnv(sshEnv(agent)), stderr: 'pipe' });
  const client = new Client({ name: 'chrome-relay-remote-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

interface Called {
  isError: boolean;
  structured: Record<string, unknown> | undefined;
  error: { code: string; details: Record<string, unknown>; retryable: boolean } | undefined;
  text: string;
}

async function mcpCall(client: Client, name: string, args: Record<string, unknown>): Promise<Called> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 90_000 });
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return {
    isError: result.isError === true,
    structured,
    error: structured?.relayError as Called['error'],
    text: content.map((c) => c.text ?? '').join('\n'),
  };
}

beforeAll(async () => {
  if (process.getuid?.() !== 0) throw new Error('remote.e2e.ts adds an OS user and starts an sshd: it runs as root (as CI does)');
  // The person's chrome-relay home where it is by default (~/.chrome-relay): the README's recipes name it so.
  relay = await startRelay({ defaultHome: true });
  root = mkdtempSync(join(tmpdir(), 'cr-remote-'));
  chmodSync(root, 0o755);
  user = createAgentUser(root);
  sshd = await startSshd(join(root, 'sshd'));
  // The person lets the agent's key open the bridge and nothing else: no shell, no forwarding (authorized_keys).
  sshd.setAuthorizedKeys([`command="env CHROME_RELAY_HOME=${relay.home} HOME=${relay.env.HOME ?? ''} ${node} ${CLI} bridge",restrict ${sshd.userPublicKey}`]);
  writeClientConfig(user, sshd, ALIAS);
  mkdirSync(join(root, 'shared'), { mode: 0o700 });
  mkdirSync(join(root, 'cmd-agent'));
  blocked = await startFixtureServer('127.0.0.2');
  options = await extensionPage(relay, 'options.html');
  popup = await extensionPage(relay, 'popup.html');
}, 120_000);

afterAll(async () => {
  for (const listener of listeners) await listener.stop();
  // The cmd: agent's link holder (root's, like the test): ended by its pid, and it ends its command.
  try {
    process.kill(holderOf(join(root, 'cmd-agent', 'relay')).pid, 'SIGTERM');
  } catch {
    /* none left */
  }
  // The agent user's link holders and ssh master go with it (remoteRig kills that user's processes by pid).
  user?.remove();
  await sshd?.stop();
  await blocked?.close();
  await relay?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
}, 60_000);

describe('an agent of another OS user, over real OpenSSH (ssh://)', () => {
  it('drives the browser with CLI calls: navigate, snapshot, click — the page counts one trusted click', async () => {
    const nav = ok(await viaSsh(['navigate', relay.server.url('/button.html?ssh-cli')]), 'navigate over ssh');
    const tabId = nav.tabId as number;
    const snap = await viaSsh(['snapshot', '-i', '--tab', String(tabId)]);
    expect(snap.code, snap.stderr).toBe(0);
    ok(await viaSsh(['click', refFor(snap.stdout, /button "Increment"/)]), 'click over ssh');
    const page = await relay.page('ssh-cli');
    expect(await read<number>(page, 'window.clicks')).toBe(1);
    expect(await read<boolean[]>(page, 'window.trusted')).toEqual([true]);
    // The second call and after went through the link the first one opened: one holder, one ssh.
    const holder = holderOf(join(user.home, 'relay'));
    expect(holder.pid).toBeGreaterThan(0);
  }, 120_000);

  it('doctor checks the way there (the link, the host behind the bridge, versions, the extension answering), not this machine', async () => {
    const doctor = await viaSsh(['doctor', '--json']);
    expect(doctor.code, doctor.stderr).toBe(0);
    const checks = (doctor.json as { checks: { name: string; status: string; detail: string }[] }).checks;
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ['endpoint', 'ok'],
      ['host through the link', 'ok'],
      ['versions', 'ok'],
      ['extension answering', 'ok'],
    ]);
    // Nothing listening on a unix: endpoint: the check fails with the reason and its move.
    const none = await user.cli(['doctor', '--json'], { PATH: process.env.PATH, HOME: user.home, CHROME_RELAY_HOME: join(user.home, 'relay'), CHROME_RELAY_ENDPOINT: `unix:${join(user.home, 'nothing.sock')}` });
    expect(none.code).toBe(1);
    expect(none.error?.details.reason).toBe('no_bridge');
  }, 120_000);

  it('drives it as an MCP session (the official SDK client): one link for every call', async () => {
    const client = await mcpAs('mcp-remote');
    try {
      const nav = await mcpCall(client, 'navigate', { url: relay.server.url('/button.html?ssh-mcp') });
      expect(nav.isError, nav.text).toBe(false);
      const tab = nav.structured?.tabId as number;
      const snap = await mcpCall(client, 'snapshot', { tab, interactive: true });
      expect(snap.isError, snap.text).toBe(false);
      const click = await mcpCall(client, 'click', { ref: refFor(snap.text, /button "Increment"/).slice(1) });
      expect(click.isError, click.text).toBe(false);
      expect(await read<number>(await relay.page('ssh-mcp'), 'window.clicks')).toBe(1);
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe("the agent's key, attacked", () => {
  /** ssh as the agent user, without the ControlMaster (each try a login of its own). */
  function ssh(args: readonly string[], timeoutMs = 20_000): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(user.asUser[0] ?? 'setpriv', [...user.asUser.slice(1), 'ssh', '-o', 'ControlPath=none', ...args], { env: { PATH: process.env.PATH, HOME: user.home }, timeout: timeoutMs }, (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });
  }

  it('opens the bridge and nothing else: no command of its choosing, no forwarding to the host\'s own socket', async () => {
    // The command asked for is not run: the bridge is (it greets, then ends with its closed stdin).
    const asked = await ssh(['-n', ALIAS, 'id; cat /etc/hostname']);
    expect(asked.stdout).toContain('"type":"bridge"');
    expect(asked.stdout).not.toMatch(/uid=\d/);
    // A socket forward to the host of the person's browser: the channel is refused, so no request reaches the host.
    const run = join(relay.home, 'run');
    const hostSocket = (JSON.parse(readFileSync(join(run, readdirSync(run).find((n) => /^host-\d+\.json$/.test(n)) ?? ''), 'utf8')) as { socket: string }).socket;
    const local = join(user.home, 'forwarded.sock');
    const forward = spawn(user.asUser[0] ?? 'setpriv', [...user.asUser.slice(1), 'ssh', '-o', 'ControlPath=none', '-N', '-L', `${local}:${hostSocket}`, ALIAS], { env: { PATH: process.env.PATH, HOME: user.home }, stdio: 'ignore' });
    try {
      await until(() => existsSync(local), 20_000, 'the forward listening on the agent side');
      const through = await user.cli(['status'], { PATH: process.env.PATH, HOME: user.home, CHROME_RELAY_HOME: join(user.home, 'relay-forward'), CHROME_RELAY_ENDPOINT: `unix:${local}` });
      expect(through.code).toBe(1);
      expect(through.json).toBeUndefined();
      expect(through.error?.code, through.stderr).toBe('native_host_disconnected');
    } finally {
      forward.kill();
    }
  }, 60_000);
});

describe('an agent in namespaces of its own, with only the bridge socket mounted (unix:)', () => {
  it('sees none of the person\'s files and no network: only the socket', async () => {
    const probe = await inNamespace((await sharedBridge()).path, [], {}, [
      node,
      '-e',
      `const fs = require('fs'); const net = require('net');
       const seen = fs.readdirSync(${JSON.stringify(relay.root)});
       const s = net.connect(${new URL(relay.server.origin).port}, '127.0.0.1');
       s.on('connect', () => { console.log(JSON.stringify({ seen, net: 'reached' })); process.exit(0); });
       s.on('error', (e) => { console.log(JSON.stringify({ seen, net: e.code })); process.exit(0); });`,
    ]);
    expect(probe.code, probe.stderr).toBe(0);
    expect(probe.json).toEqual({ seen: [], net: expect.stringMatching(/^E(NETUNREACH|CONNREFUSED)$/) });
  }, 60_000);

  it('as another uid through the shared socket and its pairing secret: navigate, snapshot, click', async () => {
    const nav = ok(await viaUnix(['navigate', relay.server.url('/button.html?unix-ns')]), 'navigate through the socket');
    const snap = await viaUnix(['snapshot', '-i', '--tab', String(nav.tabId)]);
    expect(snap.code, snap.stderr).toBe(0);
    ok(await viaUnix(['click', refFor(snap.stdout, /button "Increment"/)]), 'click through the socket');
    expect(await read<number>(await relay.page('unix-ns'), 'window.clicks')).toBe(1);
  }, 120_000);

  it('refused without the pairing secret, with a wrong one, and at a private socket of the person\'s', async () => {
    refused(await inNamespace((await sharedBridge()).path, ['tabs']), 'extension_not_connected', 'not_paired');
    refused(await viaUnix(['tabs'], { CHROME_RELAY_PAIRING: 'a'.repeat(64) }), 'extension_not_connected', 'not_paired');
    mkdirSync(join(root, 'private'), { mode: 0o700 });
    const privateBridge = await startListener(join(root, 'private', 'relay.sock'));
    // 0600, the person's: the kernel lets no other uid in, secret or not.
    refused(await inNamespace(privateBridge.path, ['tabs'], { CHROME_RELAY_PAIRING: pairing }), 'extension_not_connected', 'not_paired');
    await privateBridge.stop();
  }, 120_000);
});

describe('an agent on a box the person can reach (ssh -R)', () => {
  it("the person forwards a private bridge's socket to the agent's box; the agent uses unix: there", async () => {
    mkdirSync(join(root, 'forwarded'), { mode: 0o700 });
    const bridge = await startListener(join(root, 'forwarded', 'relay.sock'), '--label', 'forwarded');
    // The agent's box: an sshd where the person may log in as the agent's user to forward, and do nothing else.
    const box = await startSshd(join(root, 'sshd-box'), { authorizedKeysFile: join(root, 'sshd-box-keys') });
    writeFileSync(join(root, 'sshd-box-keys'), `restrict,port-forwarding,command="/bin/false" ${box.userPublicKey}\n`, { mode: 0o600 });
    // sshd reads a user's authorized keys as that user.
    chownSync(join(root, 'sshd-box-keys'), user.uid, user.gid);
    const key = join(root, 'sshd-box', 'person_key');
    writeFileSync(key, box.userKey, { mode: 0o600 });
    writeFileSync(join(root, 'sshd-box', 'known_hosts'), `${box.knownHostsLine}\n`);
    const there = join(user.home, 'relay.sock');
    // The person's own ssh, given its options here rather than by a ~/.ssh/config of root's.
    const forward = spawn('ssh', ['-F', '/dev/null', '-i', key, '-o', 'IdentitiesOnly=yes', '-o', `UserKnownHostsFile=${join(root, 'sshd-box', 'known_hosts')}`, '-o', 'StrictHostKeyChecking=yes', '-o', 'ExitOnForwardFailure=yes', '-p', String(box.port), '-N', '-R', `${there}:${bridge.path}`, `${user.name}@127.0.0.1`], { stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    forward.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
    try {
      await until(() => existsSync(there) || forward.exitCode !== null, 20_000, 'the forwarded socket on the agent\'s box');
      expect(existsSync(there), `ssh -R: ${said}`).toBe(true);
      const env = { PATH: process.env.PATH, HOME: user.home, CHROME_RELAY_HOME: join(user.home, 'relay-r'), CHROME_RELAY_ENDPOINT: `unix:${there}`, CHROME_RELAY_AGENT: 'forwarded-agent' };
      const nav = ok(await user.cli(['navigate', relay.server.url('/button.html?ssh-r')], env), 'navigate through the forwarded socket');
      const snap = await user.cli(['snapshot', '-i', '--tab', String(nav.tabId)], env);
      ok(await user.cli(['click', refFor(snap.stdout, /button "Increment"/)], env), 'click through the forwarded socket');
      expect(await read<number>(await relay.page('ssh-r'), 'window.clicks')).toBe(1);
    } finally {
      forward.kill();
      await box.stop();
      await bridge.stop();
    }
  }, 120_000);
});

describe('a command whose stdio is the bridge (cmd:)', () => {
  it('drives the browser through a stand-in command', async () => {
    const nav = ok(await viaCmd(['navigate', relay.server.url('/button.html?cmd-link')]), 'navigate through the command');
    const snap = await viaCmd(['snapshot', '-i', '--tab', String(nav.tabId)]);
    expect(snap.code, snap.stderr).toBe(0);
    ok(await viaCmd(['click', refFor(snap.stdout, /button "Increment"/)]), 'click through the command');
    expect(await read<number>(await relay.page('cmd-link'), 'window.clicks')).toBe(1);
    // The program option names it as well as the variable does (and wins over it).
    const { CHROME_RELAY_ENDPOINT: endpoint = '', ...rest } = cmdEnv();
    const flagged = ok(await runCli(['--endpoint', endpoint, 'get', 'title', '--tab', String(nav.tabId)], { ...rest, CHROME_RELAY_ENDPOINT: 'unix:/nonexistent.sock' }), '--endpoint');
    expect(flagged.value).toBe('Button fixture');
  }, 120_000);
});

describe('a link cut mid-call', () => {
  /** A call that counts itself in the page, then waits: cut while it waits, it has acted once. */
  const slowJs = 'window.runs = (window.runs || 0) + 1; await new Promise((resolve) => setTimeout(resolve, 8000)); window.runs';

  async function cutMidCall(run: (args: string[]) => Promise<CliResult>, fragment: string, cut: () => void): Promise<void> {
    const nav = ok(await run(['navigate', relay.server.url(`/button.html?${fragment}`)]), 'navigate');
    const page = await relay.page(fragment);
    const call = run(['js', '--tab', String(nav.tabId), '--timeout', '60000', slowJs]);
    await until(() => read<number | undefined>(page, 'window.runs'), 30_000, 'the call running in the page');
    cut();
    const result = await call;
    refused(result, 'native_host_disconnected', 'link_lost');
    expect(result.error?.details.mayHaveActed, result.stderr).toBe(true);
    expect(result.error?.retryable).toBe(false);
    // The next call connects again, and finds the action done once, not repeated by the link.
    const again = ok(await run(['js', '--tab', String(nav.tabId), 'window.runs']), 'the next call');
    expect(again.value).toBe(1);
    expect(await read<number>(page, 'window.runs')).toBe(1);
  }

  /** The bridges sshd runs for the agent's key: `node <cli> bridge` with the session's SSH_CONNECTION. */
  const sshBridges = (): number[] =>
    pidsWhere((argv, env) => argv.length === 3 && argv[1] === CLI && argv[2] === 'bridge' && env.some((e) => e.startsWith('SSH_CONNECTION=')) && env.includes(`CHROME_RELAY_HOME=${relay.home}`));

  it('the ssh process killed: and its bridge on the person\'s machine ends too', async () => {
    let cutBridge = 0;
    await cutMidCall(viaSsh, 'cut-ssh', () => {
      const holder = holderOf(join(user.home, 'relay'));
      cutBridge = holder.bridge?.pid ?? 0;
      process.kill(holder.commandPid, 'SIGKILL');
    });
    expect(cutBridge).toBeGreaterThan(0);
    await until(() => !sshBridges().includes(cutBridge), 20_000, 'the cut link\'s bridge ending');
  }, 180_000);

  it('the bridge at the far end killed', async () => {
    await cutMidCall(viaSsh, 'cut-bridge', () => {
      const pid = holderOf(join(user.home, 'relay')).bridge?.pid ?? 0;
      expect(sshBridges()).toContain(pid);
      process.kill(pid, 'SIGKILL');
    });
  }, 180_000);

  it('a link that stalls (its far end stopped): the call answers timeout by its deadline, not later; once it runs again, so do calls', async () => {
    ok(await viaSsh(['tabs']), 'a call that opens the link');
    // The bridge, not ssh: with a ControlMaster, the ssh the holder runs hands its pipes to the master and stalls nothing.
    const bridge = holderOf(join(user.home, 'relay')).bridge?.pid ?? 0;
    process.kill(bridge, 'SIGSTOP');
    try {
      const stalled = await viaSsh(['tabs', '--timeout', '2000']);
      refused(stalled, 'timeout', 'host_unresponsive');
      expect(stalled.error?.message).toContain('ssh://desk');
    } finally {
      process.kill(bridge, 'SIGCONT');
    }
    ok(await viaSsh(['tabs']), 'a call once the link runs again');
  }, 120_000);

  it('the command of a cmd: link killed', async () => {
    await cutMidCall(viaCmd, 'cut-cmd', () => process.kill(holderOf(join(root, 'cmd-agent', 'relay')).commandPid, 'SIGKILL'));
  }, 180_000);

  it('the listening bridge killed: link_lost, then no_bridge until the person starts it again', async () => {
    mkdirSync(join(root, 'shared2'), { mode: 0o700 });
    const path = join(root, 'shared2', 'relay.sock');
    let bridge = await startListener(path, '--paired', '--label', 'container-2');
    const run = (args: string[]): Promise<CliResult> => inNamespace(bridge.path, args, { CHROME_RELAY_PAIRING: pairing });
    const nav = ok(await run(['navigate', relay.server.url('/button.html?cut-listener')]), 'navigate');
    const page = await relay.page('cut-listener');
    const call = run(['js', '--tab', String(nav.tabId), '--timeout', '60000', slowJs]);
    await until(() => read<number | undefined>(page, 'window.runs'), 30_000, 'the call running in the page');
    bridge.child.kill('SIGKILL');
    const result = await call;
    refused(result, 'native_host_disconnected', 'link_lost');
    expect(result.error?.details.mayHaveActed).toBe(true);
    refused(await run(['tabs']), 'extension_not_connected', 'no_bridge');
    bridge = await startListener(path, '--paired', '--label', 'container-2');
    expect(ok(await run(['js', '--tab', String(nav.tabId), 'window.runs']), 'after the restart').value).toBe(1);
    await bridge.stop();
  }, 180_000);

  it('under an MCP session: the call says link_lost, the session\'s next call connects again', async () => {
    const client = await mcpAs('mcp-cut');
    try {
      const nav = await mcpCall(client, 'navigate', { url: relay.server.url('/button.html?cut-mcp') });
      expect(nav.isError, nav.text).toBe(false);
      const page = await relay.page('cut-mcp');
      // The holder of this user's link serves the session: cut its ssh while the session's call runs.
      // The condition counts its own evaluations in the page: once it has run, the call is in flight.
      const call = mcpCall(client, 'wait', { tab: nav.structured?.tabId, fn: '(window.polls = (window.polls || 0) + 1) && window.release === true', timeoutMs: 20_000 });
      await until(() => read<number | undefined>(page, 'window.polls'), 30_000, 'the call in flight');
      process.kill(holderOf(join(user.home, 'relay')).commandPid, 'SIGKILL');
      const cut = await call;
      expect(cut.isError, cut.text).toBe(true);
      expect(cut.error?.code).toBe('native_host_disconnected');
      expect(cut.error?.details.reason).toBe('link_lost');
      const again = await mcpCall(client, 'tabs', {});
      expect(again.isError, again.text).toBe(false);
    } finally {
      await client.close();
    }
  }, 180_000);
});

describe("the person's limits hold through every path", () => {
  const paths: { name: string; run: (args: string[]) => Promise<CliResult> }[] = [
    { name: 'ssh://', run: (args) => viaSsh(args) },
    { name: 'unix:', run: (args) => viaUnix(args) },
    { name: 'cmd:', run: (args) => viaCmd(args) },
  ];

  it('Pause refuses every path (and MCP over ssh), Resume lets them back', async () => {
    const client = await mcpAs('mcp-limits');
    try {
      await personClicks(popup, '#pause');
      await until(async () => (await popup.$eval('#pause', (el) => el.getAttribute('aria-pressed'))) === 'true', 5000, 'paused');
      for (const path of paths) refused(await path.run(['tabs']), 'target_conflict', 'paused_by_user');
      const paused = await mcpCall(client, 'tabs', {});
      expect(paused.error?.details.reason).toBe('paused_by_user');
      await personClicks(popup, '#pause');
      await until(async () => (await popup.$eval('#pause', (el) => el.getAttribute('aria-pressed'))) === 'false', 5000, 'resumed');
      for (const path of paths) ok(await path.run(['tabs']), `${path.name} after Resume`);
    } finally {
      await client.close();
    }
  }, 240_000);

  it('the block list: a navigation onto a blocked site is refused on every path, and the site hears nothing', async () => {
    const client = await mcpAs('mcp-limits');
    try {
      await saveOptions(options, { blocked: '127.0.0.2' });
      const before = blocked.requests.length;
      for (const path of paths) refused(await path.run(['navigate', blocked.url('/button.html?blocked')]), 'target_conflict', 'site_blocked');
      const viaMcp = await mcpCall(client, 'navigate', { url: blocked.url('/button.html?blocked-mcp') });
      expect(viaMcp.error?.details.reason).toBe('site_blocked');
      expect(blocked.requests.length).toBe(before);
    } finally {
      await saveOptions(options, { blocked: '' });
      await client.close();
    }
  }, 240_000);

  it("agent tabs only: the person's own tab is refused on every path", async () => {
    const mine = await relay.devtools.newPage();
    const url = relay.server.url('/button.html?persons-own');
    await mine.goto(url);
    // Agents are not shown the person's tabs (only counted): its id comes from the person's side.
    const [id] = await personTabIds(options, url);
    if (id === undefined) throw new Error("the person's tab is not open");
    const tab = { id };
    const client = await mcpAs('mcp-limits');
    try {
      for (const path of paths) refused(await path.run(['snapshot', '--tab', String(tab.id)]), 'target_conflict', 'not_agent_tab');
      const viaMcp = await mcpCall(client, 'snapshot', { tab: tab.id });
      expect(viaMcp.error?.details.reason).toBe('not_agent_tab');
    } finally {
      await client.close();
      await mine.close();
    }
  }, 240_000);

  it('the person turns agents on other machines off: every bridged call is refused (host tools too), local agents go on', async () => {
    await saveOptions(options, { remoteAgents: false });
    try {
      for (const path of paths) {
        refused(await path.run(['tabs']), 'target_conflict', 'remote_agents_off');
        // `status` is answered by the host itself: it refuses too, once the extension has told it.
        await until(async () => (await path.run(['status'])).error?.details.reason === 'remote_agents_off', 10_000, `status refused over ${path.name}`);
      }
      const off = await viaSsh(['tabs']);
      expect(off.error?.details.via).toEqual({ kind: 'ssh', label: '127.0.0.1' });
      ok(await relay.cli('tabs'), 'a local agent');
    } finally {
      await saveOptions(options, { remoteAgents: true });
    }
    for (const path of paths) ok(await path.run(['tabs']), `${path.name} once allowed again`);
  }, 240_000);
});

describe('the popup', () => {
  it("names where each agent's commands came from", async () => {
    ok(await relay.cli('tabs', '--agent', 'local-agent'), 'a local call');
    ok(await viaSsh(['tabs'], 'ssh-agent'), 'over ssh');
    ok(await viaUnix(['tabs']), 'through the socket');
    ok(await viaCmd(['tabs']), 'through the command');
    // Each row: time, agent, command, tab, outcome, from.
    const rows = async (): Promise<string[]> => popup.$$eval('#recent tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '').join(' | ')));
    const agents = ['local-agent', 'ssh-agent', 'unix-agent', 'cmd-agent'];
    await until(
      async () => {
        const now = await rows();
        return agents.every((agent) => now.some((row) => row.includes(agent)));
      },
      10_000,
      'the popup showing every agent',
    );
    const text = await rows();
    const row = (agent: string): string => text.find((r) => r.includes(agent)) ?? '';
    expect(row('local-agent')).toMatch(/\| this machine$/);
    expect(row('ssh-agent')).toMatch(/\| ssh 127\.0\.0\.1$/);
    expect(row('unix-agent')).toMatch(/\| socket container$/);
    expect(row('cmd-agent')).toMatch(/\| command stand-in$/);
  }, 120_000);
});

/**
 * The README's recipes for agents elsewhere, run as written through `sh`, the person's lines as the person and the
 * agent's as the agent user. `chrome-relay` on each side's PATH is the built CLI (the person's configured for this
 * test's home: sshd runs its forced command with root's own HOME); `you@your-desk` is the person (root) at an alias of
 * the agent's ~/.ssh/config for a second sshd that reads the person's ~/.ssh/authorized_keys. `docker` is a stand-in
 * (this machine has none): `run -v SRC:DST -e K=V IMAGE COMMAND…` runs COMMAND as the agent user in network and mount
 * namespaces of its own with DST bind-mounted and the person's files covered — what the recipe relies on Docker for.
 * The WSL recipe's far half runs in `pnpm test:windows` (scripts/windows/driver.mjs).
 */
describe("the README's recipes, run as written", () => {
  const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');
  const blocks = markedBlocks(readme);
  const lines = (name: string): string[] => steps(blocks.get(name)?.[0]?.text ?? '').map((step) => step.command);
  let personBin = '';
  let agentBin = '';
  let work = '';

  /** A line through `sh`, stdio to files (a job it leaves running keeps no pipe of ours open). */
  function sh(line: string, env: NodeJS.ProcessEnv, as?: AgentUser): Promise<CliResult> {
    const out = join(work, `out-${Date.now().toString(36)}`);
    const [stdout, stderr] = [openSync(`${out}.1`, 'w'), openSync(`${out}.2`, 'w')];
    const argv = [...(as ? as.asUser : []), 'sh', '-c', line];
    const child = spawn(argv[0] ?? 'sh', argv.slice(1), { env: stringEnv(env), cwd: work, stdio: ['ignore', stdout, stderr] });
    closeSync(stdout);
    closeSync(stderr);
    return new Promise((resolve) => child.once('exit', (code) => resolve(parseCliOutput(code ?? 1, readFileSync(`${out}.1`, 'utf8'), readFileSync(`${out}.2`, 'utf8')))));
  }

  const personEnv = (): NodeJS.ProcessEnv => ({ PATH: `${personBin}:${process.env.PATH ?? ''}`, HOME: relay.env.HOME });
  const agentEnv = (): NodeJS.ProcessEnv => ({ PATH: `${agentBin}:${process.env.PATH ?? ''}`, HOME: user.home });

  beforeAll(() => {
    personBin = join(root, 'person-bin');
    agentBin = join(root, 'agent-bin');
    work = join(root, 'work');
    for (const dir of [personBin, agentBin, work]) mkdirSync(dir, { mode: 0o755 });
    writeFileSync(join(personBin, 'chrome-relay'), `#!/bin/sh\nexec env CHROME_RELAY_HOME='${relay.home}' '${node}' '${CLI}' "$@"\n`, { mode: 0o755 });
    writeFileSync(join(agentBin, 'chrome-relay'), `#!/bin/sh\nexec '${node}' '${CLI}' "$@"\n`, { mode: 0o755 });
    writeFileSync(join(personBin, 'docker'), DOCKER_STAND_IN(node), { mode: 0o755 });
  });

  it('over SSH: the person restricts the agent\'s key to the bridge; the agent names ssh://you@your-desk', async () => {
    const [person, agent] = lines('remote-ssh');
    if (person === undefined || agent === undefined) throw new Error('the remote-ssh block has two lines');
    // A machine that has used ssh: ~/.ssh exists. The agent's public key is where the recipe reads it.
    mkdirSync(join(relay.env.HOME ?? '', '.ssh'), { recursive: true, mode: 0o700 });
    const desk = await startSshd(join(root, 'sshd-readme'), { authorizedKeysFile: join(relay.env.HOME ?? '', '.ssh', 'authorized_keys') });
    try {
      writeFileSync(join(work, 'agent_key.pub'), `${desk.userPublicKey}\n`);
      const added = await sh(person, personEnv());
      expect(added.code, added.stderr).toBe(0);
      writeClientConfig(user, desk, 'your-desk');
      const ran = await sh(agent.replace('you@your-desk', 'root@your-desk'), agentEnv(), user);
      expect(ran.code, ran.stderr).toBe(0);
      // `tabs` as the recipe runs it: one line per tab (a list is text; --json would give the structure).
      expect(ran.stdout).toMatch(/^tab \d+: /m);
    } finally {
      const holder = join(user.home, '.chrome-relay');
      if (existsSync(join(holder, 'run'))) process.kill(holderOf(holder).pid, 'SIGTERM');
      await desk.stop();
    }
  }, 120_000);

  it('in a container: a paired bridge listening, its socket mounted into a container of another uid', async () => {
    const [bridge, docker] = lines('remote-container');
    if (bridge === undefined || docker === undefined) throw new Error('the remote-container block has two lines');
    const socket = join(relay.home, 'relay.sock');
    const started = await sh(bridge, personEnv());
    expect(started.code, started.stderr).toBe(0);
    try {
      await until(() => existsSync(socket), 20_000, 'the bridge listening');
      const containerHome = join(root, 'container-home');
      mkdirSync(containerHome, { mode: 0o755 });
      chownSync(containerHome, user.uid, user.gid);
      const ran = await sh(docker, { ...personEnv(), STANDIN_UID: String(user.uid), STANDIN_GID: String(user.gid), STANDIN_HOME: containerHome, STANDIN_PATH: `${agentBin}:/usr/bin:/bin`, STANDIN_HIDE: [relay.root, join(root, 'shared'), join(root, 'sshd')].join(':') });
      expect(ran.code, ran.stderr).toBe(0);
      // `tabs` as the recipe runs it: one line per tab (a list is text; --json would give the structure).
      expect(ran.stdout).toMatch(/^tab \d+: /m);
    } finally {
      // The job the recipe left running: the person's bridge on that socket.
      for (const pid of pidsWhere((argv) => argv.includes('--listen') && argv.includes(socket))) process.kill(pid, 'SIGTERM');
    }
  }, 120_000);
});

/** The `docker` stand-in (see the describe above), as a script for `node`. */
function DOCKER_STAND_IN(nodePath: string): string {
  return `#!${nodePath}
// Stand-in for \`docker run [--rm] [-v SRC:DST]… [-e K=V]… IMAGE COMMAND…\` in remote.e2e.ts: COMMAND runs as
// STANDIN_UID in network and mount namespaces of its own, DST bind-mounted from SRC, STANDIN_HIDE covered.
const { spawnSync } = require('node:child_process');
const { dirname } = require('node:path');
const args = process.argv.slice(2);
if (args[0] !== 'run') { process.stderr.write('docker stand-in: only run\\n'); process.exit(125); }
const mounts = []; const env = [];
let i = 1;
for (; i < args.length; i++) {
  if (args[i] === '--rm') continue;
  if (args[i] === '-v') { mounts.push(args[++i]); continue; }
  if (args[i] === '-e') { env.push(args[++i]); continue; }
  break;
}
const command = args.slice(i + 1);
const q = (s) => "'" + String(s).split("'").join("'\\''") + "'";
const e = process.env;
const lines = ['set -e'];
for (const mount of mounts) {
  const [src, dst] = mount.split(':');
  lines.push('mount -t tmpfs tmpfs ' + q(dirname(dst)), 'touch ' + q(dst), 'mount --bind ' + q(src) + ' ' + q(dst));
}
for (const dir of e.STANDIN_HIDE.split(':')) lines.push('mount -t tmpfs -o mode=0755 tmpfs ' + q(dir));
lines.push('exec setpriv --reuid=' + e.STANDIN_UID + ' --regid=' + e.STANDIN_GID + ' --init-groups env -i PATH=' + q(e.STANDIN_PATH) + ' HOME=' + q(e.STANDIN_HOME) + ' ' + env.map(q).join(' ') + ' "$@"');
const ran = spawnSync('unshare', ['--mount', '--net', '--fork', '--propagation', 'private', 'sh', '-c', lines.join('\\n'), 'sh', ...command], { stdio: 'inherit' });
process.exit(ran.status === null ? 1 : ran.status);
`;
}
