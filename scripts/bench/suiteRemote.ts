/**
 * Agents elsewhere: what a call costs through a link to a bridge on the browser's machine, next to the same call
 * made locally, measured in pairs (one right after the other, alternating which goes first) so both share the load
 * of their moment; the figure is the median of the differences.
 *   - a CLI call through ssh:// with a warm ControlMaster and a warm link (the holder the first call started), made by
 *     an agent of another OS user whose ~/.ssh/config names Debian's sshd started here (remoteRig.ts), against a
 *     local call: the goal is ≤ local + 15 ms;
 *   - the first call through ssh:// when no holder runs (it starts one; the ControlMaster is warm);
 *   - a CLI call through unix: (a bridge listening here) against a local call;
 *   - one MCP server's call through a unix: bridge, and through ssh://, against a local MCP server's: goal ≤ +2 ms.
 * It needs root (it adds a user, whose passwd home is where ssh reads its config) and Debian's sshd; without them the
 * rows say why they were not measured.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from '../../e2e/harness.js';
import { createAgentUser, startSshd, writeClientConfig, type AgentUser, type Sshd } from '../../e2e/remoteRig.js';
import { execTimed } from './exec.js';
import type { Bench } from './measure.js';
import { na, NONE, time, type Row, type Section } from './report.js';
import { stats, timed, type Stats } from './timing.js';

const TITLE = 'agents elsewhere: a call through a link to a bridge, against the same call made locally';
const ALIAS = 'desk';

interface Rig {
  root: string;
  user: AgentUser;
  sshd: Sshd;
  listener: ChildProcess;
  socket: string;
}

interface Paired {
  /** b − a, per pair. */
  delta: Stats;
  a: Stats;
  b: Stats;
}

/** `a` and `b` one right after the other, alternating the order; b − a per pair, and each on its own. */
async function pairedDelta(bench: Bench, a: () => Promise<number>, b: () => Promise<number>, runs: number): Promise<Paired> {
  const deltas: number[] = [];
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < bench.plan.warmups + runs; i++) {
    let aMs: number;
    let bMs: number;
    if (i % 2 === 0) {
      aMs = await a();
      bMs = await b();
    } else {
      bMs = await b();
      aMs = await a();
    }
    if (i < bench.plan.warmups) continue;
    deltas.push(bMs - aMs);
    as.push(aMs);
    bs.push(bMs);
  }
  return { delta: stats(deltas), a: stats(as), b: stats(bs) };
}

const signed = (ms: number): string => `${ms < 0 ? '−' : '+'}${Math.abs(ms).toFixed(ms > -10 && ms < 10 ? 2 : 1)} ms`;
const median = (s: Stats): string => `${s.median.toFixed(1)} ms`;

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

async function mcpClient(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Client> {
  const client = new Client({ name: 'chrome-relay-bench-remote', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, env: stringEnv(env), stderr: 'ignore' }));
  return client;
}

async function tabsOver(client: Client): Promise<number> {
  return timed(async () => {
    const result = await client.callTool({ name: 'tabs', arguments: {} });
    if (result.isError === true) throw new Error(`tabs over MCP failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  });
}

async function startRig(relayEnv: NodeJS.ProcessEnv): Promise<Rig> {
  const root = mkdtempSync(join(tmpdir(), 'cr-bench-remote-'));
  // The agent's home is in it: its user must get through.
  chmodSync(root, 0o755);
  const user = createAgentUser(root);
  const sshd = await startSshd(join(root, 'sshd'));
  sshd.setAuthorizedKeys([`command="env CHROME_RELAY_HOME=${relayEnv.CHROME_RELAY_HOME ?? ''} HOME=${relayEnv.HOME ?? ''} ${process.execPath} ${CLI} bridge",restrict ${sshd.userPublicKey}`]);
  writeClientConfig(user, sshd, ALIAS);
  mkdirSync(join(root, 'bridge'), { mode: 0o700 });
  const socket = join(root, 'bridge', 'relay.sock');
  const listener = spawn(process.execPath, [CLI, 'bridge', '--listen', socket, '--label', 'bench'], { env: stringEnv(relayEnv), stdio: 'ignore' });
  for (let i = 0; i < 400 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 25));
  return { root, user, sshd, listener, socket };
}

async function stopRig(rig: Rig): Promise<void> {
  rig.listener.kill('SIGTERM');
  rig.user.remove();
  await rig.sshd.stop();
  rmSync(rig.root, { recursive: true, force: true });
}

/** The agent user's link holder, stopped (its ssh and the bridge at the far end go with it). */
function stopHolder(home: string): void {
  const run = join(home, 'run');
  for (const name of existsSync(run) ? readdirSync(run) : []) {
    if (!/^link-[0-9a-f]+\.json$/.test(name)) continue;
    try {
      process.kill((JSON.parse(readFileSync(join(run, name), 'utf8')) as { pid: number }).pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
}

export async function remoteSection(bench: Bench, relayEnv: NodeJS.ProcessEnv): Promise<Section> {
  if (process.getuid?.() !== 0 || !existsSync('/usr/sbin/sshd')) {
    const why = na('needs root and Debian\'s openssh-server (it adds an OS user for the agent and starts an sshd on 127.0.0.1)');
    return { title: TITLE, rows: [{ label: 'CLI `tabs` through ssh:// (warm ControlMaster) − local', relay: why, peer: NONE }] };
  }
  bench.log('agents elsewhere: sshd, a user for the agent, a bridge listening');
  const rig = await startRig(relayEnv);
  const clients: Client[] = [];
  try {
    const agentHome = join(rig.user.home, 'relay');
    const sshEnv = { PATH: process.env.PATH, HOME: rig.user.home, CHROME_RELAY_HOME: agentHome, CHROME_RELAY_ENDPOINT: `ssh://${ALIAS}` };
    const unixEnv = { ...relayEnv, CHROME_RELAY_HOME: join(rig.root, 'unix-agent'), CHROME_RELAY_ENDPOINT: `unix:${rig.socket}` };
    const cli = async (env: NodeJS.ProcessEnv, as?: AgentUser): Promise<number> => {
      const ran = await execTimed(process.execPath, [CLI, 'tabs'], { env, ...(as ? { uid: as.uid, gid: as.gid } : {}) });
      if (ran.code !== 0) throw new Error(`tabs failed: ${ran.stderr.split('\n')[0] ?? ''}`);
      return ran.ms;
    };
    const local = (): Promise<number> => cli(relayEnv);
    const overSsh = (): Promise<number> => cli(sshEnv, rig.user);
    // The first call starts the holder, and its ssh the ControlMaster (ControlPersist keeps it): warm both.
    await overSsh();
    // A difference of a few ms between two calls of a hundred is noise at a few pairs, even with --quick: at least 20.
    const pairs = Math.max(20, bench.plan.runs * 2);
    bench.log('  CLI tabs: local and through ssh://, in pairs');
    const ssh = await pairedDelta(bench, local, overSsh, pairs);
    bench.log('  the first call through ssh:// with no holder (the ControlMaster warm)');
    const cold: number[] = [];
    for (let i = 0; i < Math.min(bench.plan.runs, 3); i++) {
      stopHolder(agentHome);
      await new Promise((r) => setTimeout(r, 300));
      cold.push(await overSsh());
    }
    bench.log('  CLI tabs: local and through unix:, in pairs');
    const unix = await pairedDelta(bench, local, () => cli(unixEnv), pairs);

    bench.log('  MCP tabs per call: a local server, one through unix:, one through ssh://');
    const localMcp = await mcpClient(process.execPath, [CLI, 'mcp'], relayEnv);
    clients.push(localMcp);
    const unixMcp = await mcpClient(process.execPath, [CLI, 'mcp'], unixEnv);
    clients.push(unixMcp);
    const sshMcp = await mcpClient(rig.user.asUser[0] ?? 'setpriv', [...rig.user.asUser.slice(1), process.execPath, CLI, 'mcp'], sshEnv);
    clients.push(sshMcp);
    const many = Math.max(100, bench.plan.runs * 10);
    const mcpUnix = await pairedDelta(bench, () => tabsOver(localMcp), () => tabsOver(unixMcp), many);
    const mcpSsh = await pairedDelta(bench, () => tabsOver(localMcp), () => tabsOver(sshMcp), many);
    const rows: Row[] = [
      { label: 'CLI `tabs` through ssh:// (warm ControlMaster, warm link) − the same call locally, paired', relay: time(ssh.delta), peer: NONE },
      { label: 'CLI `tabs` through ssh://, the first call (starts the link holder; ControlMaster warm)', relay: time(stats(cold)), peer: NONE },
      { label: 'CLI `tabs` through unix: (a listening bridge) − locally, paired', relay: time(unix.delta), peer: NONE },
      { label: 'MCP `tabs` per call, one server through a unix: bridge − a local server, paired', relay: time(mcpUnix.delta), peer: NONE },
      { label: 'MCP `tabs` per call, one server through ssh:// − a local server, paired', relay: time(mcpSsh.delta), peer: NONE },
    ];
    return {
      title: TITLE,
      rows,
      notes: [
        `goals: ssh:// ≤ local + 15 ms (${ssh.delta.median <= 15 ? 'held' : 'NOT HELD'}: ${signed(ssh.delta.median)}); MCP through one bridge ≤ local + 2 ms (${mcpUnix.delta.median <= 2 ? 'held' : 'NOT HELD'}: unix: ${signed(mcpUnix.delta.median)}; ssh:// ${signed(mcpSsh.delta.median)})`,
        `medians of the pairs' own calls: CLI local ${median(ssh.a)}, through ssh:// ${median(ssh.b)}, through unix: ${median(unix.b)}; MCP local ${median(mcpUnix.a)}, through unix: ${median(mcpUnix.b)}, through ssh:// ${median(mcpSsh.b)}`,
        'the agent runs as another OS user (spawned with its uid, no wrapper); sshd, the bridge, the host and the browser run on this machine, so the figures are the link\'s own cost, not a network\'s',
      ],
    };
  } catch (err) {
    return { title: TITLE, rows: [{ label: 'CLI `tabs` through ssh:// (warm ControlMaster) − local', relay: na(err instanceof Error ? err.message : String(err)), peer: NONE }] };
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await stopRig(rig);
  }
}
