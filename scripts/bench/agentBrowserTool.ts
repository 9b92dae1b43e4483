/**
 * agent-browser as the bench drives it: its native binary called directly (what a global install's shim runs),
 * one process per command, talking to its resident daemon, which launches the same Chromium binary with the
 * same flag list. Everything it writes (daemon socket, profile, state) lives in a scratch HOME/TMPDIR; `stop`
 * closes the browser and makes sure the daemon and the browser are gone.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM, processArgs } from './browserFlags.js';
import { CommandFailed, execTimed } from './exec.js';
import type { Action, BenchTool } from './tool.js';

export interface PeerTool extends BenchTool {
  /** The browser's command line once the daemon started it (for the report). */
  browserArgs(): string[] | undefined;
}

const SESSION = 'bench';
/** Its default (25 s) is about what one snapshot of the 50k-element page takes here: that page needs room. */
export const PEER_TIMEOUT_MS = 120_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Direct children of `pid` (Linux /proc); empty elsewhere. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return found;
  }
  for (const e of entries) {
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may contain spaces, so split after ')'.
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(e));
    } catch {
      /* exited meanwhile */
    }
  }
  return found;
}

async function waitGone(pids: readonly number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

export function startAgentBrowser(options: { binary: string; flags: string[]; headful: boolean; display?: string }): PeerTool {
  const root = mkdtempSync(join(tmpdir(), 'cr-bench-ab-'));
  for (const dir of ['home', 'tmp']) mkdirSync(join(root, dir), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: join(root, 'home'),
    TMPDIR: join(root, 'tmp'),
    AGENT_BROWSER_SESSION: SESSION,
    AGENT_BROWSER_EXECUTABLE_PATH: CHROMIUM,
    // Newline-separated: a comma inside a value (--window-size=1280,720) must stay in that value.
    AGENT_BROWSER_ARGS: options.flags.join('\n'),
    // Its outdated-Chrome check fetches a web page; the bench stays on this machine.
    AGENT_BROWSER_NO_VERSION_CHECK: '1',
    AGENT_BROWSER_DEFAULT_TIMEOUT: String(PEER_TIMEOUT_MS),
    // A safety net: should the bench die before `stop`, the daemon still exits by itself.
    AGENT_BROWSER_IDLE_TIMEOUT_MS: '300000',
    ...(options.headful ? { AGENT_BROWSER_HEADED: '1', AGENT_BROWSER_NO_XVFB: '1' } : {}),
    ...(options.display ? { DISPLAY: options.display } : {}),
  };
  const pidFile = join(root, 'home', '.agent-browser', `${SESSION}.pid`);
  const daemonPids = new Set<number>();
  /** The daemon's children: the browser (and whatever helper it spawns). */
  const browserPids = new Set<number>();
  /** Remember the daemon and its browser while they run: `close` deletes the pid file. */
  const noteProcesses = (): void => {
    try {
      const pid = Number(readFileSync(pidFile, 'utf8').trim());
      if (pid > 0) {
        daemonPids.add(pid);
        for (const child of childrenOf(pid)) browserPids.add(child);
      }
    } catch {
      /* daemon not started yet */
    }
  };

  const argv = (action: Action): string[] => {
    const ref = 'ref' in action ? `@${action.ref}` : '';
    switch (action.kind) {
      case 'version':
        return ['--version'];
      case 'tabs':
        return ['tab', 'list'];
      case 'open':
        return ['open', action.url];
      case 'snapshot':
        return ['snapshot', ...(action.interactive ? ['-i'] : []), ...(action.maxChars !== undefined ? ['--max-output', String(action.maxChars)] : [])];
      case 'click':
        return ['click', ref];
      case 'hover':
      case 'check':
      case 'uncheck':
        return [action.kind, ref];
      case 'fill':
        return ['fill', ref, action.value];
      case 'type':
        return ['type', ref, action.text];
      case 'keys':
        return ['press', action.keys];
      case 'select':
        return ['select', ref, action.value];
    }
  };
  const exec = async (args: string[]) => {
    // cwd in the scratch dir: agent-browser reads ./agent-browser.json from wherever it runs.
    const result = await execTimed(options.binary, args, { env, cwd: root, timeoutMs: PEER_TIMEOUT_MS + 30_000 });
    if (result.code !== 0) throw new CommandFailed(['agent-browser', ...args], result);
    return result;
  };

  return {
    name: 'agent-browser',
    browserArgs() {
      noteProcesses();
      for (const pid of browserPids) {
        const args = processArgs(pid);
        if (args?.[0] === CHROMIUM) return args;
      }
      return undefined;
    },
    async unsupported(action) {
      if ((action.kind === 'click' || action.kind === 'open') && action.snapshot) return `agent-browser has no ${action.kind} --snapshot`;
      return undefined;
    },
    async run(action) {
      const result = await exec(argv(action));
      if (daemonPids.size === 0) noteProcesses();
      return result;
    },
    async evaluate(expression) {
      const result = await exec(['--json', 'eval', expression]);
      const printed = JSON.parse(result.stdout) as { success?: boolean; data?: { result?: unknown } };
      if (printed.success !== true) throw new Error(`agent-browser eval: ${result.stdout.slice(0, 200)}`);
      return printed.data?.result;
    },
    async stop() {
      noteProcesses();
      await execTimed(options.binary, ['close'], { env, cwd: root, timeoutMs: 15_000 });
      const ours = [...daemonPids, ...browserPids];
      if (!(await waitGone(ours, 5_000))) {
        // Only the processes this bench started, by id.
        for (const pid of ours) if (alive(pid)) process.kill(pid, 'SIGKILL');
        await waitGone(ours, 2_000);
      }
      const left = ours.filter(alive);
      rmSync(root, { recursive: true, force: true });
      if (left.length) throw new Error(`agent-browser processes still running after stop: ${left.join(', ')}`);
    },
  };
}
