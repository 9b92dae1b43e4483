/**
 * Real services for the e2e of agents elsewhere (remote.e2e.ts): a second OS user for the agent (useradd, removed
 * at the end), and Debian's OpenSSH server on 127.0.0.1 on a free port with a throwaway host key, a user key and a
 * config of its own, stopped at the end. The agent's side runs as that user (setpriv) with its own ~/.ssh/config, so
 * the system's ssh client applies it as it would for anyone. CI runs as root; without root these tests cannot run.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { CLI, parseCliOutput, type CliResult } from './harness.js';

export interface AgentUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
  /** Its home directory (passwd's: where ssh reads ~/.ssh/config). */
  readonly home: string;
  /** Run the built CLI as this user, with `env` as its whole environment. */
  cli(args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs?: number): Promise<CliResult>;
  /** The argv prefix that runs a program as this user (for spawn, an MCP client's command). */
  readonly asUser: readonly string[];
  remove(): void;
}

/** A user of its own for the agent: home under `root` (0755 up to it, so the built CLI and node stay readable). */
export function createAgentUser(root: string): AgentUser {
  const name = `cragent${randomBytes(3).toString('hex')}`;
  const home = join(root, name);
  // No password, and not locked either ('*', not useradd's '!'): sshd without PAM refuses a locked account even a key.
  execFileSync('useradd', ['--no-create-home', '--home-dir', home, '--shell', '/bin/sh', '--user-group', '--password', '*', name]);
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  mkdirSync(home, { recursive: true });
  chownSync(home, uid, gid);
  chmodSync(home, 0o755);
  const asUser = ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--init-groups', '--'];
  return {
    name,
    uid,
    gid,
    home,
    asUser,
    cli: (args, env, timeoutMs = 60_000) =>
      new Promise((resolve) => {
        execFile(asUser[0] ?? 'setpriv', [...asUser.slice(1), process.execPath, CLI, ...args], { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
          const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
          resolve(parseCliOutput(code, stdout, stderr));
        });
      }),
    remove() {
      // Whatever of this user is still running was started by this test (a link holder, an ssh master): end it by pid.
      for (const pid of pidsOf(uid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      try {
        execFileSync('userdel', [name], { stdio: 'ignore' });
      } catch {
        /* already gone */
      }
    },
  };
}

/** Processes whose real uid is `uid` (from /proc). */
export function pidsOf(uid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(join('/proc', entry, 'status'), 'utf8');
      if (new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status)) pids.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return pids;
}

/** Processes whose argv (from /proc) and environment pass `match` (a process of another user's is skipped). */
export function pidsWhere(match: (argv: readonly string[], env: readonly string[]) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(join('/proc', entry, 'cmdline'), 'utf8').split('\0').filter((word) => word !== '');
      const env = readFileSync(join('/proc', entry, 'environ'), 'utf8').split('\0');
      if (match(argv, env)) pids.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return pids;
}

export interface Sshd {
  readonly port: number;
  /** `[127.0.0.1]:port <key>`: what the client's known_hosts holds. */
  readonly knownHostsLine: string;
  /** The client's private key (the agent user gets a copy). */
  readonly userKey: string;
  readonly userPublicKey: string;
  /** Who may log in with the key, as authorized_keys lines (rewritten by the test as it goes). */
  setAuthorizedKeys(lines: readonly string[]): void;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Debian's sshd on 127.0.0.1, logging in to root with the test's key only, as the forced command the test sets (or as
 * `authorizedKeysFile` says: a person's own ~/.ssh/authorized_keys).
 */
export async function startSshd(dir: string, options: { authorizedKeysFile?: string } = {}): Promise<Sshd> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const hostKey = join(dir, 'host_ed25519');
  const userKey = join(dir, 'user_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'chrome-relay-e2e-host', '-f', hostKey]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'chrome-relay-e2e-agent', '-f', userKey]);
  const authorized = options.authorizedKeysFile ?? join(dir, 'authorized_keys');
  if (options.authorizedKeysFile === undefined) writeFileSync(authorized, '', { mode: 0o600 });
  // sshd's privilege separation directory (Debian makes it at boot; a container may not have it).
  if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${authorized}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'AllowStreamLocalForwarding yes',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
  await waitForPort(port, child, () => said);
  const hostPublic = readFileSync(`${hostKey}.pub`, 'utf8').trim().split(/\s+/).slice(0, 2).join(' ');
  return {
    port,
    knownHostsLine: `[127.0.0.1]:${port} ${hostPublic}`,
    userKey: readFileSync(userKey, 'utf8'),
    userPublicKey: readFileSync(`${userKey}.pub`, 'utf8').trim(),
    setAuthorizedKeys: (lines) => writeFileSync(authorized, `${lines.join('\n')}\n`, { mode: 0o600 }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitForPort(port: number, child: ChildProcess, said: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`sshd exited: ${said()}`);
    const open = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(true));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`sshd did not listen on ${port}: ${said()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Adds to the agent user's ~/.ssh: the key for `alias`, the host's key, and `Host <alias>` for the sshd with a ControlMaster. */
export function writeClientConfig(user: AgentUser, sshd: Sshd, alias: string): void {
  const dir = join(user.home, '.ssh');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, `id_${alias}`), sshd.userKey, { mode: 0o600 });
  appendFileSync(join(dir, 'known_hosts'), `${sshd.knownHostsLine}\n`, { mode: 0o600 });
  appendFileSync(
    join(dir, 'config'),
    [
      `Host ${alias}`,
      '  HostName 127.0.0.1',
      `  Port ${sshd.port}`,
      '  User root',
      `  IdentityFile ${join(dir, `id_${alias}`)}`,
      '  IdentitiesOnly yes',
      `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
      '  StrictHostKeyChecking yes',
      '  BatchMode yes',
      '  ControlMaster auto',
      `  ControlPath ${join(dir, 'cm-%C')}`,
      '  ControlPersist 60',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  for (const file of ['', `id_${alias}`, 'known_hosts', 'config']) chownSync(join(dir, file), user.uid, user.gid);
}
