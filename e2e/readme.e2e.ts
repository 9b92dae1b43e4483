/**
 * Every command the README shows, run as written, as a stranger runs them: in a copy of the repository (its tracked
 * files as they are now), with a fresh HOME, a fresh npm prefix and no display. The README marks its blocks
 * (`<!-- readme-test: NAME -->` before a fence); each is run here, in the README's order:
 *   - install: the install line, in the copy (it builds and links `chrome-relay` into the prefix);
 *   - contributors: the demo line (the test line is this very suite, which CI runs);
 *   - quickstart: each command, exit 0, and each `#   ` line under a command is found in what it printed;
 *   - own-chrome: each command, exit 0, with the person's Chrome stood in for by a launched browser (a test cannot
 *     click "Load unpacked"; the browser's profile directory existing is what "has run once" means to setup);
 *   - mcp: the server each client snippet names is started as that client would, and lists its tools.
 * Commands run through `sh -c`, quoting and all. Packages come from the machine's pnpm store and npm cache (no
 * download). The syntax of every command line in the docs is checked by packages/cli/src/docsCommands.test.ts.
 */
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markedBlocks, steps } from './readmeBlocks.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function sh(command: string, env: NodeJS.ProcessEnv, cwd: string, timeoutMs = 120_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { env, cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

const blocks = markedBlocks(readme);
const block = (name: string): { lang: string; text: string }[] => blocks.get(name) ?? [];

let root: string;
let clone: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cr-readme-'));
  clone = join(root, 'chrome-relay');
  for (const dir of ['home', 'prefix', 'work', 'tmp']) mkdirSync(join(root, dir));
  // The copy: every tracked file as it is in the work tree (what a clone of this commit holds).
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    try {
      copyFileSync(join(repo, file), join(clone, file));
    } catch {
      // Deleted in the work tree and not yet committed: a clone would not have it either.
    }
  }
  const pnpm = ['npx', '-y', `pnpm@${(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { packageManager: string }).packageManager.split('@')[1] ?? ''}`];
  const store = execFileSync(pnpm[0] ?? 'npx', [...pnpm.slice(1), 'store', 'path'], { cwd: repo, encoding: 'utf8' }).trim();
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  // This machine's environment (its network settings, certificates) without what would make the run not a
  // stranger's: no display, no chrome-relay settings, nothing a package manager set for this suite.
  const machine = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(DISPLAY|XAUTHORITY|CHROME_RELAY_\w+|npm_\w+|PNPM_\w+|INIT_CWD|VITEST\w*|NODE_OPTIONS)$/i.test(name)));
  const dataHome = /^(.*)[/\\]pnpm[/\\]store[/\\]v\d+$/.exec(store)?.[1];
  env = {
    ...machine,
    PATH: `${join(root, 'prefix/bin')}:${process.env.PATH ?? ''}`,
    HOME: join(root, 'home'),
    TMPDIR: join(root, 'tmp'),
    // What is already on this machine, so nothing is downloaded: the npm cache (npx's pnpm) and pnpm's store.
    npm_config_cache: npmCache || join(homedir(), '.npm'),
    ...(dataHome === undefined ? { npm_config_store_dir: store.replace(/[/\\]v\d+$/, '') } : { XDG_DATA_HOME: dataHome }),
    npm_config_prefix: join(root, 'prefix'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}, 120_000);

afterAll(async () => {
  // Whatever a failed step left running.
  await sh('chrome-relay stop --all', env, join(root, 'work'), 60_000).catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

describe('the README, run as written', () => {
  it('marks its blocks: contributors, install, quickstart, own-chrome, mcp, and the remote recipes (run by remote.e2e.ts and test:windows)', () => {
    expect([...blocks.keys()]).toEqual(['contributors', 'install', 'quickstart', 'own-chrome', 'mcp', 'remote-ssh', 'remote-container', 'remote-wsl']);
    // The two lines CI and reviewers rely on open the README.
    expect(readme.indexOf('<!-- readme-test: contributors -->')).toBeLessThan(readme.indexOf('## '));
    expect(steps(block('contributors')[0]?.text ?? '').map((s) => s.command.split('#')[0]?.trim())).toEqual([
      'npx -y pnpm@10.20.0 install && npx -y pnpm@10.20.0 demo',
      'npx -y pnpm@10.20.0 install && npx -y pnpm@10.20.0 test',
    ]);
  });

  it('install: the install line builds and links chrome-relay from the clone into a fresh prefix', async () => {
    const [install] = steps(block('install')[0]?.text ?? '');
    if (install === undefined) throw new Error('no install line');
    const ran = await sh(install.command, env, clone, 300_000);
    expect(ran.code, ran.stderr + ran.stdout).toBe(0);
    const version = await sh('chrome-relay --version', env, join(root, 'work'));
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(repo, 'packages/cli/package.json'), 'utf8')) as { version: string }).version);
  }, 360_000);

  it('contributors: the demo line runs the main job on the embedded default and stops what it started', async () => {
    const [demo] = steps(block('contributors')[0]?.text ?? '');
    if (demo === undefined) throw new Error('no demo line');
    const ran = await sh(demo.command, env, clone, 300_000);
    expect(ran.code, ran.stderr + ran.stdout).toBe(0);
    expect(ran.stdout).toContain('the page changed after `click`');
    expect(ran.stdout).toContain('$ chrome-relay stop');
  }, 360_000);

  it('quickstart: every command exits 0 and prints what the README shows under it (refs as numbered in this browser)', async () => {
    const list = steps(block('quickstart')[0]?.text ?? '');
    expect(list.map((s) => s.command.split(/\s+/)[1])).toEqual(['launch', 'navigate', 'snapshot', 'fill', 'click', 'snapshot', 'stop']);
    // Refs are unique browser-wide, so this browser's may carry other numbers (the demo ran in the same profile):
    // as a person would, use the refs the snapshot printed for the lines the README shows.
    const refs = new Map<string, string>();
    for (const step of list) {
      const command = step.command.replace(/@(e\d+)/g, (whole, ref: string) => `@${refs.get(ref) ?? ref}`);
      const ran = await sh(command, env, join(root, 'work'));
      expect(ran.code, `${command}\n${ran.stderr}`).toBe(0);
      const printed = ran.stdout.split('\n').map((l) => l.trim());
      for (const shown of step.shows) {
        const pattern = new RegExp(`^${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ref=e\d+/, 'ref=(e\\d+)')}$`);
        const found = printed.map((line) => pattern.exec(line)).find((m) => m !== null);
        expect(found, `${command} printed no line like ${shown}:\n${ran.stdout}`).toBeTruthy();
        const readmeRef = /ref=(e\d+)/.exec(shown)?.[1];
        if (readmeRef !== undefined && found?.[1] !== undefined) refs.set(readmeRef, found[1]);
      }
    }
    // What the fill typed, and stop left nothing running.
    expect(JSON.parse((await sh('chrome-relay stop --json', env, join(root, 'work'))).stdout)).toEqual({ stopped: [], running: expect.any(String) });
  }, 180_000);

  it("own-chrome: setup, extension path and doctor exit 0 for a browser that has run once and has the extension", async () => {
    // The person's Chrome has run for this user (setup registers the host for it) and has the extension loaded:
    // a launched browser stands in for the second part.
    mkdirSync(join(root, 'home/.config/chromium'), { recursive: true });
    const launched = await sh('chrome-relay launch', env, join(root, 'work'));
    expect(launched.code, launched.stderr).toBe(0);
    try {
      for (const step of steps(block('own-chrome')[0]?.text ?? '')) {
        const ran = await sh(step.command, env, join(root, 'work'));
        expect(ran.code, `${step.command}\n${ran.stderr}${ran.stdout}`).toBe(0);
      }
      const folder = (await sh('chrome-relay extension path', env, join(root, 'work'))).stdout.trim();
      expect(folder).toBe(join(root, 'home/.chrome-relay/extension/current'));
    } finally {
      await sh('chrome-relay stop', env, join(root, 'work'), 60_000);
    }
  }, 180_000);

  it('mcp: each client snippet starts a server that lists its tools', async () => {
    const servers: { command: string; args: string[] }[] = [];
    for (const { lang, text } of block('mcp')) {
      if (lang === 'sh') {
        // `claude mcp add NAME -- COMMAND ARGS…`: the client later runs what follows `--`.
        const [command = '', ...args] = (text.split(' -- ')[1] ?? '').trim().split(/\s+/);
        servers.push({ command, args });
      } else if (lang === 'json') {
        const config = JSON.parse(text) as Record<string, Record<string, { command: string; args: string[] }>>;
        for (const map of Object.values(config)) for (const server of Object.values(map)) servers.push({ command: server.command, args: server.args });
      } else if (lang === 'toml') {
        const command = /^command = "([^"]+)"$/m.exec(text)?.[1] ?? '';
        const args = JSON.parse(/^args = (\[.*\])$/m.exec(text)?.[1] ?? '[]') as string[];
        servers.push({ command, args });
      }
    }
    expect(servers).toHaveLength(4);
    const plain = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
    for (const server of servers) {
      const client = new Client({ name: 'readme-e2e', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env: plain }));
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names, server.args.join(' ')).toContain('snapshot');
        if (server.args.includes('devtools')) expect(names).toContain('js');
      } finally {
        await client.close();
      }
    }
  }, 120_000);
});
