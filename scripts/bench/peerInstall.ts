/**
 * Installs the peer, agent-browser, from npm into a scratch directory under the OS temp dir (never the repo),
 * with its own npm cache there. The npm package ships prebuilt native binaries for every platform, so nothing
 * else is downloaded: install scripts are skipped (its postinstall would only fetch a binary that is missing).
 * A matching earlier install is reused.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execTimed } from './exec.js';

/** Pinned, so the peer's figures compare across runs: the published comparison was taken against this version. */
export const AGENT_BROWSER_VERSION = '0.41.2';

export interface InstalledPeer {
  binary: string;
  packageDir: string;
  /** How it got there, for the report header. */
  how: string;
}

export function peerScratchDir(version = AGENT_BROWSER_VERSION): string {
  return join(tmpdir(), 'chrome-relay-bench', `agent-browser-${version}`);
}

/** The prebuilt binary's file name inside the package's bin/ for this machine, or undefined when none fits. */
export function binaryName(platform: NodeJS.Platform, arch: string, musl: boolean): string | undefined {
  const cpu = arch === 'x64' ? 'x64' : arch === 'arm64' ? 'arm64' : undefined;
  if (!cpu) return undefined;
  if (platform === 'linux') return `agent-browser-linux-${musl ? 'musl-' : ''}${cpu}`;
  if (platform === 'darwin') return `agent-browser-darwin-${cpu}`;
  if (platform === 'win32' && cpu === 'x64') return 'agent-browser-win32-x64.exe';
  return undefined;
}

function installedVersion(packageDir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Where packages come from and how to reach them: kept when pnpm passes them on. */
const REACH = /^npm_config_(registry|cafile|proxy|https_proxy|noproxy|strict_ssl)$/;

/**
 * npm must not inherit the settings pnpm exports to the script running the bench (lower-case npm_config_*:
 * frozen_lockfile, nodedir, …), only the registry and network ones; what a person set (upper case) stays.
 */
export function npmEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^(npm|pnpm)_/.test(k) || REACH.test(k)));
}

/** npm's own explanation, without the stack trace: its `code` line and the first message line. */
export function npmErrorSummary(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.replace(/^npm (error|ERR!) ?/, '').trim())
    .filter((l) => l && !l.startsWith('at ') && !/^(syscall|errno) /.test(l));
  return lines.slice(0, 2).join(' — ') || 'no message';
}

export async function installPeer(log: (line: string) => void): Promise<InstalledPeer> {
  const dir = peerScratchDir();
  const packageDir = join(dir, 'node_modules', 'agent-browser');
  const musl = existsSync('/lib/ld-musl-x86_64.so.1') || existsSync('/lib/ld-musl-aarch64.so.1');
  const name = binaryName(process.platform, process.arch, musl);
  if (!name) throw new Error(`agent-browser ships no binary for ${process.platform}-${process.arch}`);
  let how = `reused ${dir}`;
  if (installedVersion(packageDir) !== AGENT_BROWSER_VERSION || !existsSync(join(packageDir, 'bin', name))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true, "description": "chrome-relay bench peers (scratch)" }\n');
    log(`installing agent-browser@${AGENT_BROWSER_VERSION} into ${dir} …`);
    const args = ['install', `agent-browser@${AGENT_BROWSER_VERSION}`, '--prefix', dir, '--cache', join(dir, 'npm-cache'), '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = await execTimed(npm, args, { env: npmEnv(), cwd: dir, timeoutMs: 300_000 });
    if (result.code !== 0) throw new Error(`\`npm ${args.slice(0, 2).join(' ')}\` failed (exit ${result.code}): ${npmErrorSummary(result.stderr)}`);
    if (installedVersion(packageDir) !== AGENT_BROWSER_VERSION) throw new Error(`npm installed no agent-browser@${AGENT_BROWSER_VERSION} in ${packageDir}`);
    how = `npm-installed into ${dir} in ${(result.ms / 1000).toFixed(1)} s`;
  }
  const binary = join(packageDir, 'bin', name);
  if (!existsSync(binary)) throw new Error(`the agent-browser package has no ${name} binary`);
  // Our own scratch copy: make sure the tarball's mode survived.
  chmodSync(binary, 0o755);
  return { binary, packageDir, how };
}
