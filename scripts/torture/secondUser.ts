/**
 * Another local user: refused. chrome-relay's files are this user's alone (home, run dir and logs 0700;
 * socket, descriptor and logs 0600), so a second account can neither reach the host's socket nor read
 * where it is; and a directory it pre-creates at the old predictable /tmp/chrome-relay-<uid> path no
 * longer stops this user's host from starting (a home too long for sun_path uses a private directory).
 *
 * Needs root to create the account (CI runs as root); otherwise the phase is skipped and says why.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, type Relay } from '../../e2e/harness.js';
import { hello, spawnHost } from './hostProcess.js';
import { liveHost, type LiveSuite } from './suite.js';

const PHASE = 'second local user';
const USER = 'chrome-relay-torture';

function mode(path: string): string {
  return (statSync(path).mode & 0o777).toString(8).padStart(4, '0');
}

/** The modes of everything chrome-relay keeps for this user, each checked against what it must be. */
function checkModes(suite: LiveSuite, relay: Relay): void {
  const { report } = suite;
  const host = liveHost(relay);
  const expected: [string, string][] = [
    [relay.home, '0700'],
    [join(relay.home, 'run'), '0700'],
    [dirname(host.socket), '0700'],
    [host.socket, '0600'],
    [join(relay.home, 'run', `host-${host.pid}.json`), '0600'],
    [join(relay.home, 'logs'), '0700'],
  ];
  for (const log of existsSync(join(relay.home, 'logs')) ? readdirSync(join(relay.home, 'logs')) : []) expected.push([join(relay.home, 'logs', log), '0600']);
  for (const [path, want] of expected) {
    const got = existsSync(path) ? mode(path) : 'missing';
    report.measure(PHASE, `mode of ${path.replace(relay.root, '<root>')}`, got, got === want);
  }
}

function ensureUser(): { uid: number; gid: number } {
  if (spawnSync('id', ['-u', USER]).status !== 0) execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', USER]);
  const uid = Number(execFileSync('id', ['-u', USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', USER], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export async function secondUser(suite: LiveSuite): Promise<void> {
  const started = Date.now();
  const { relay, report } = suite;
  checkModes(suite, relay);
  if (process.getuid?.() !== 0) {
    report.phase(PHASE).skipped = 'not root: cannot create a second account (CI runs as root)';
    suite.log(`${PHASE}: skipped (not root)`);
    return;
  }
  const other = ensureUser();
  const host = liveHost(relay);
  // The suite's temp root is made 0700 by mkdtemp: open it up, so what refuses the other user is
  // chrome-relay's own home, not the harness.
  const chmodRoot = (m: number): void => void execFileSync('chmod', [m.toString(8), relay.root]);
  chmodRoot(0o755);
  const asOther = (script: string, env: NodeJS.ProcessEnv = {}): { status: number | null; out: string } => {
    const result = spawnSync(process.execPath, ['-e', script], { uid: other.uid, gid: other.gid, env: { PATH: process.env.PATH, HOME: '/tmp', ...env }, encoding: 'utf8', timeout: 15_000 });
    return { status: result.status, out: `${result.stdout}${result.stderr}`.trim() };
  };

  // 1. Connecting to the socket directly.
  const connect = asOther(`const s = require('net').connect(${JSON.stringify(host.socket)}); s.on('connect', () => { console.log('CONNECTED'); process.exit(0); }); s.on('error', (e) => { console.log(e.code); process.exit(3); });`);
  report.count(PHASE, `connect to the socket: ${connect.out || 'no output'}`);
  report.measure(PHASE, 'other user connects to the host socket', connect.out, connect.status !== 0 && /EACCES|ENOENT|EPERM/.test(connect.out));

  // 2. Listing the run directory (where sockets and descriptors are named).
  const list = asOther(`try { console.log(require('fs').readdirSync(${JSON.stringify(join(relay.home, 'run'))}).join(',')); } catch (e) { console.log(e.code); process.exit(3); }`);
  report.measure(PHASE, 'other user lists the run directory', list.out, list.status !== 0);

  // 3. The CLI run by the other user against this user's home: nothing reachable, a closed code.
  const cli = spawnSync(process.execPath, [CLI, 'tabs'], { uid: other.uid, gid: other.gid, env: { PATH: process.env.PATH, HOME: '/tmp', CHROME_RELAY_HOME: relay.home }, encoding: 'utf8', timeout: 20_000 });
  const block = /"relayError":\{"code":"([a-z_]+)"/.exec(cli.stderr)?.[1] ?? 'none';
  report.measure(PHASE, 'other user runs `chrome-relay tabs` on this home', `exit ${cli.status}, ${block}`, cli.status === 1 && block === 'extension_not_connected');

  // 4. The other user squats the old predictable short-socket directory; this user's host still starts.
  const uid = process.getuid?.() ?? 0;
  const squat = `/tmp/chrome-relay-${uid}`;
  const squatted = !existsSync(squat);
  if (squatted) asOther(`require('fs').mkdirSync(${JSON.stringify(squat)}, { mode: 0o777 })`);
  const squatOwner = existsSync(squat) ? lstatSync(squat).uid : -1;
  const longHome = join(suite.scratch, `long-home-${'h'.repeat(Math.max(1, 110 - suite.scratch.length))}`);
  mkdirSync(longHome, { recursive: true });
  const started2 = spawnHost(longHome);
  started2.send(hello());
  const socket = await started2.socket(5000);
  report.measure(
    PHASE,
    `host with a home too long for sun_path, /tmp/chrome-relay-${uid} squatted by uid ${squatOwner}`,
    socket === null ? `did not start: ${started2.stderr().slice(-200)}` : `socket in ${dirname(socket)} (${mode(dirname(socket))})`,
    socket !== null && !socket.startsWith(`${squat}/`) && mode(dirname(socket)) === '0700',
  );
  started2.kill();
  if (squatted) rmSync(squat, { recursive: true, force: true });
  chmodRoot(0o700);
  report.phase(PHASE).ms += Date.now() - started;
}
