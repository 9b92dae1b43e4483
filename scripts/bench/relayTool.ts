/**
 * chrome-relay as the bench drives it: the BUILT CLI as a process per command, against a browser started with
 * `chrome-relay launch` on a scratch profile. No DevTools observer is attached (unlike the e2e harness): an extra
 * CDP client enables domains on every page and would tax the tool being measured.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, runCli } from '../../e2e/harness.js';
import { processArgs } from './browserFlags.js';
import { CommandFailed, execTimed, type Exec } from './exec.js';
import { afterSnapshotFlags, type Action, type BenchTool } from './tool.js';

export interface RelayTool extends BenchTool {
  readonly browserPid: number;
  /** The browser's command line, for the report. */
  browserArgs(): string[] | undefined;
  /** The environment the CLI runs with (scratch HOME, CHROME_RELAY_HOME…). */
  readonly env: NodeJS.ProcessEnv;
  /** The browser's profile directory (its DevToolsActivePort, when started with --remote-debugging-port). */
  readonly profile: string;
}

export async function startRelayTool(options: { flags: string[]; headful: boolean; display?: string }): Promise<RelayTool> {
  const root = mkdtempSync(join(tmpdir(), 'cr-bench-relay-'));
  for (const dir of ['userhome', 'tmp', 'home']) mkdirSync(join(root, dir), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    // Chromium writes ~/.config, ~/.cache and $TMPDIR even with a custom profile: keep it all in the scratch root.
    HOME: join(root, 'userhome'),
    TMPDIR: join(root, 'tmp'),
    CHROME_RELAY_HOME: join(root, 'home'),
    ...(options.display ? { DISPLAY: options.display } : {}),
  };
  // The mode comes from launch's own --headless (it also checks for a display); the rest of the list is passed on.
  const flags = options.flags.filter((f) => f !== '--headless=new');
  const launched = await runCli(
    ['launch', '--json', '--user-data-dir', join(root, 'profile'), ...(options.headful ? [] : ['--headless']), ...flags.map((f) => `--browser-arg=${f}`)],
    env,
    60_000,
  );
  if (launched.code !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`chrome-relay launch failed: ${launched.stderr.trim()}`);
  }
  const browserPid = (launched.json as { pid: number }).pid;
  let tab: string | undefined;
  const helps = new Map<string, Promise<Exec>>();
  const help = (command: string): Promise<Exec> => {
    let h = helps.get(command);
    if (!h) {
      h = execTimed(process.execPath, [CLI, command, '--help'], { env });
      helps.set(command, h);
    }
    return h;
  };

  const tabArgs = (): string[] => (tab ? ['--tab', tab] : []);
  const argv = (action: Action): string[] => {
    const ref = 'ref' in action ? `@${action.ref}` : '';
    switch (action.kind) {
      case 'version':
        return ['--version'];
      case 'tabs':
        return ['tabs'];
      case 'open':
        return ['navigate', action.url, ...afterSnapshotFlags(action.snapshot), ...tabArgs()];
      case 'snapshot':
        return ['snapshot', ...(action.interactive ? ['-i'] : []), ...(action.maxChars !== undefined ? ['--max-chars', String(action.maxChars)] : []), ...tabArgs()];
      case 'click':
        return ['click', ref, ...afterSnapshotFlags(action.snapshot), ...tabArgs()];
      case 'hover':
      case 'check':
      case 'uncheck':
        return [action.kind, ref, ...tabArgs()];
      case 'fill':
        return ['fill', ref, action.value, ...tabArgs()];
      case 'type':
        return ['type', action.text, '-s', ref, ...tabArgs()];
      case 'keys':
        return ['keys', action.keys, ...tabArgs()];
      case 'select':
        return ['select', ref, action.value, ...tabArgs()];
    }
  };

  /** The option an action needs beyond its command, as named and as matched in that command's --help. */
  const neededOption = (action: Action): { name: string; pattern: RegExp } | undefined => {
    if ((action.kind === 'click' || action.kind === 'open') && action.snapshot) return { name: '--snapshot', pattern: /--snapshot\b/ };
    if (action.kind === 'snapshot' && action.maxChars !== undefined) return { name: '--max-chars', pattern: /--max-chars\b/ };
    if (action.kind === 'snapshot' && action.interactive) return { name: '-i', pattern: /(^|\s)-i\b/m };
    if (action.kind === 'type') return { name: '-s <ref>', pattern: /(^|\s)-s[,\s]/m };
    return undefined;
  };

  const tool: RelayTool = {
    name: 'chrome-relay',
    browserPid,
    env,
    profile: join(root, 'profile'),
    browserArgs: () => processArgs(browserPid),
    async unsupported(action) {
      if (action.kind === 'version') return undefined;
      const command = argv(action)[0] ?? '';
      const h = await help(command);
      if (h.code !== 0) return `this build has no \`${command}\` command`;
      const option = neededOption(action);
      if (option && !option.pattern.test(h.stdout)) return `this build's \`${command}\` has no ${option.name} option`;
      return undefined;
    },
    async run(action) {
      const args = argv(action);
      const result = await execTimed(process.execPath, [CLI, ...args], { env });
      if (result.code !== 0) throw new CommandFailed(['chrome-relay', ...args], result);
      if (action.kind === 'open' && !tab) {
        tab = String(tabIdOf(result.stdout));
      }
      return result;
    },
    async evaluate(expression) {
      const args = ['js', expression, '--json', ...tabArgs()];
      const result = await execTimed(process.execPath, [CLI, ...args], { env });
      if (result.code !== 0) throw new CommandFailed(['chrome-relay', ...args], result);
      const printed = JSON.parse(result.stdout) as unknown;
      return printed !== null && typeof printed === 'object' && 'value' in printed ? printed.value : printed;
    },
    async stop() {
      try {
        // launch starts the browser as a process-group leader: the group takes the host and renderers with it.
        process.kill(-browserPid, 'SIGKILL');
      } catch {
        try {
          process.kill(browserPid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  return tool;
}

/**
 * The tab a navigate answered from: its line says it (`navigated tab 5 to …`, `opened tab 5: …`); a build from before
 * compact text printed JSON (`"tabId":5`), followed by the snapshot with --snapshot.
 */
export function tabIdOf(stdout: string): number {
  const id = /"tabId":\s*(\d+)/.exec(stdout)?.[1] ?? /^(?:navigated|opened) tab (\d+)/m.exec(stdout)?.[1];
  if (id === undefined) throw new Error(`navigate printed no tab id: ${stdout.slice(0, 200)}`);
  return Number(id);
}
