/**
 * The published package, as a person gets it: `pnpm pack` of packages/cli, then plain `npm install -g` into a
 * fresh prefix with no network use (the tarball has no runtime dependencies), and `npx <tarball>`. The
 * installed `chrome-relay` binary (run through its shebang, not through our node) then launches a headless
 * browser, navigates, snapshots and clicks. The page's own state proves the click. The installed CLI starts
 * from a V8 code cache it writes itself (next to its bundle, or under its home when it may not write there).
 * On a machine without a display `launch` keeps an Xvfb of its own and `stop` ends the browser and that display;
 * the extension folder a person loads lives in the home, so `npm uninstall -g` leaves it whole.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixtureServer.js';
import { parseCliOutput, type CliResult } from './harness.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

function run(file: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(file, args, { env: options.env ?? process.env, cwd: options.cwd, timeout: options.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve(parseCliOutput(code, stdout, stderr));
    });
  });
}

/** pnpm as the test was started with it (npm_execpath), else from PATH. */
function pnpmCommand(): { file: string; args: string[] } {
  const execPath = process.env.npm_execpath;
  if (execPath !== undefined && /pnpm/.test(execPath)) {
    return /\.c?js$/.test(execPath) ? { file: process.execPath, args: [execPath] } : { file: execPath, args: [] };
  }
  return { file: 'pnpm', args: [] };
}

let root: string;
let tarball: string;
let server: FixtureServer;
let env: NodeJS.ProcessEnv;
let browserPid: number | undefined;
/** Processes a test started, killed at the end whatever happened. */
const ownProcesses: number[] = [];

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (exited, not yet reaped) is gone.
  try {
    return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Pids whose command line names `text` (Linux). */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text) && alive(Number(pid));
      } catch {
        return false;
      }
    })
    .map(Number);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cr-pack-'));
  for (const dir of ['home', 'userhome', 'tmp', 'out', 'prefix', 'npm-cache']) mkdirSync(join(root, dir));
  env = {
    PATH: `${join(root, 'prefix/bin')}:${process.env.PATH ?? ''}`,
    HOME: join(root, 'userhome'),
    TMPDIR: join(root, 'tmp'),
    CHROME_RELAY_HOME: join(root, 'home'),
    npm_config_cache: join(root, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  const pnpm = pnpmCommand();
  const packed = await run(pnpm.file, [...pnpm.args, 'pack', '--pack-destination', join(root, 'out')], { cwd: join(repo, 'packages/cli'), env: process.env });
  expect(packed.code, packed.stderr + packed.stdout).toBe(0);
  const name = readdirSync(join(root, 'out')).find((file) => file.endsWith('.tgz'));
  if (name === undefined) throw new Error(`pnpm pack wrote no tarball: ${packed.stdout}`);
  tarball = join(root, 'out', name);
  server = await startFixtureServer();
}, 180_000);

afterAll(async () => {
  for (const pid of ownProcesses) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  if (browserPid !== undefined) {
    try {
      process.kill(-browserPid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the packed CLI package', () => {
  it('ships only the bundles (the extension with its popup, options page and icons), README, LICENSE and SKILL.md, and depends on nothing', async () => {
    const listing = await run('tar', ['-tzf', tarball]);
    const files = listing.stdout.trim().split('\n').sort();
    expect(files).toEqual(
      [
        'LICENSE',
        'README.md',
        'SKILL.md',
        'dist/call.cjs',
        'dist/chrome-relay.cjs',
        'dist/cli.cjs',
        'dist/extension/background.js',
        ...[16, 32, 48, 128].flatMap((size) => [`dist/extension/icons/icon${size}-grey.png`, `dist/extension/icons/icon${size}.png`]).sort(),
        'dist/extension/manifest.json',
        'dist/extension/options.html',
        'dist/extension/options.js',
        'dist/extension/popup.html',
        'dist/extension/popup.js',
        'dist/extension/ui.css',
        'dist/host/host.mjs',
        'dist/mcp.cjs',
        'dist/schemas.cjs',
        'package.json',
      ].map((f) => `package/${f}`),
    );
    const manifest = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'chrome-relay', license: 'MIT', bin: { 'chrome-relay': 'dist/chrome-relay.cjs' }, engines: { node: '>=20' } });
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    console.log(`package: tarball ${(statSync(tarball).size / 1024).toFixed(0)} KiB`);
  });

  it('installs with plain npm install -g into a fresh prefix and drives a page through the installed binary', async () => {
    const installed = await run('npm', ['install', '-g', '--offline', '--prefix', join(root, 'prefix'), tarball], { env });
    expect(installed.code, installed.stderr).toBe(0);
    const bin = join(root, 'prefix/bin/chrome-relay');
    const version = await run(bin, ['--version'], { env });
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(repo, 'packages/cli/package.json'), 'utf8')).version);

    const launched = await run(bin, ['launch', '--headless', '--user-data-dir', join(root, 'profile'), '--json'], { env, timeoutMs: 60_000 });
    expect(launched.code, launched.stderr).toBe(0);
    browserPid = (launched.json as { pid: number }).pid;

    const nav = await run(bin, ['navigate', server.url('/button.html'), '--json'], { env });
    expect(nav.code, nav.stderr).toBe(0);
    const tab = String((nav.json as { tabId: number }).tabId);
    const snap = await run(bin, ['snapshot', '--tab', tab], { env });
    expect(snap.code, snap.stderr).toBe(0);
    const ref = /button "Increment" \[ref=(e\d+)\]/.exec(snap.stdout)?.[1];
    expect(ref, snap.stdout).toBeDefined();
    const click = await run(bin, ['click', `@${ref ?? ''}`], { env });
    expect(click.code, click.stderr).toBe(0);
    // The page's own record, read back through the installed binary.
    const clicks = await run(bin, ['js', 'window.clicks', '--tab', tab], { env });
    expect(clicks.code, clicks.stderr).toBe(0);
    expect(clicks.stdout).toBe('1\n');
    const text = await run(bin, ['get', 'text', '-s', '#out', '--tab', tab], { env });
    expect(text.stdout).toContain('Clicked 1');

    // The MCP server ships inside the package too (the SDK is bundled into dist/mcp.cjs).
    const client = new Client({ name: 'package-e2e', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: bin, args: ['mcp'], env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)) }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('snapshot');
      const read = await client.callTool({ name: 'get', arguments: { what: 'text', selector: '#out', tab: Number(tab) } });
      expect(read.isError).not.toBe(true);
      expect(JSON.stringify(read.content)).toContain('Clicked 1');
    } finally {
      await client.close();
    }
  });

  it('the installed CLI writes its code cache once and starts from it (next to the bundle, or under the home when the package is read-only)', async () => {
    const bin = join(root, 'prefix/bin/chrome-relay');
    const dist = join(root, 'prefix/lib/node_modules/chrome-relay/dist');
    const caches = (dir: string): string[] => {
      try {
        return readdirSync(dir).filter((name) => name.endsWith('.cache'));
      } catch {
        return [];
      }
    };
    expect((await run(bin, ['tabs'], { env })).code).toBe(0);
    const [cache] = caches(dist);
    if (cache === undefined) throw new Error(`no code cache next to the bundle: ${readdirSync(dist).join(' ')}`);
    const written = statSync(join(dist, cache));
    // Accepted by V8 and covering the command: the next run leaves it as it is (a rejected one is rewritten).
    expect((await run(bin, ['tabs'], { env })).code).toBe(0);
    expect(statSync(join(dist, cache)).mtimeMs).toBe(written.mtimeMs);
    // A damaged cache costs nothing but its rewrite.
    writeFileSync(join(dist, cache), 'chrome-relay code cache 1\n{"commands":["tabs"]}\ngarbage');
    const again = await run(bin, ['tabs'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(dist, cache)).length).toBeGreaterThan(written.size / 2);
    if (process.getuid?.() === 0) return; // root writes anywhere: the read-only case needs another user
    chmodSync(dist, 0o555);
    try {
      expect((await run(bin, ['tabs'], { env })).code).toBe(0);
      expect(caches(join(root, 'home/cache'))).toHaveLength(1);
    } finally {
      chmodSync(dist, 0o755);
    }
  });

  it('launch → navigate → stop on a machine without a display: launch keeps its own Xvfb, stop ends both; the extension folder lives outside the prefix and outlives npm uninstall -g', async () => {
    const bin = join(root, 'prefix/bin/chrome-relay');
    expect(env.DISPLAY).toBeUndefined();
    const profile = join(root, 'profile-own-display');
    const launched = await run(bin, ['launch', '--user-data-dir', profile, '--json'], { env, timeoutMs: 60_000 });
    expect(launched.code, launched.stderr).toBe(0);
    const started = launched.json as { pid: number; xvfb: { pid: number; display: string } | null; stop: string };
    expect(started.xvfb).not.toBeNull();
    const xvfbPid = started.xvfb?.pid ?? 0;
    ownProcesses.push(started.pid, xvfbPid);
    expect(alive(started.pid) && alive(xvfbPid)).toBe(true);

    const nav = await run(bin, ['navigate', server.url('/button.html'), '--profile', realpathSync(profile)], { env });
    expect(nav.code, nav.stderr).toBe(0);
    const status = await run(bin, ['status', '--profile', realpathSync(profile), '--json'], { env });
    expect(status.json).toMatchObject({ launched: expect.arrayContaining([expect.objectContaining({ profile: realpathSync(profile), browserRunning: true, xvfb: expect.objectContaining({ pid: xvfbPid, running: true }) })]) });

    const stopped = await run(bin, ['stop', '--user-data-dir', profile, '--json'], { env });
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.json).toMatchObject({ stopped: [{ browser: 'stopped', xvfb: { outcome: 'stopped' } }] });
    expect(alive(started.pid)).toBe(false);
    expect(alive(xvfbPid)).toBe(false);
    // Nothing of that browser is left: no renderer, no host of that profile.
    expect(processesNaming(realpathSync(profile))).toEqual([]);

    const folder = await run(bin, ['extension', 'path'], { env });
    expect(folder.code, folder.stderr).toBe(0);
    const path = folder.stdout.trim();
    expect(path).toBe(join(root, 'home/extension/current'));
    expect(path.startsWith(join(root, 'prefix'))).toBe(false);
    const uninstalled = await run('npm', ['uninstall', '-g', '--prefix', join(root, 'prefix'), 'chrome-relay'], { env });
    expect(uninstalled.code, uninstalled.stderr).toBe(0);
    expect(existsSync(join(root, 'prefix/lib/node_modules/chrome-relay'))).toBe(false);
    expect(JSON.parse(readFileSync(join(path, 'manifest.json'), 'utf8'))).toMatchObject({ manifest_version: 3 });
    expect(existsSync(join(path, 'background.js'))).toBe(true);
  });

  it('runs straight from the tarball with npx', async () => {
    const viaNpx = await run('npx', ['--yes', '--offline', `--package=${tarball}`, 'chrome-relay', '--version'], { env });
    expect(viaNpx.code, viaNpx.stderr).toBe(0);
    expect(viaNpx.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
