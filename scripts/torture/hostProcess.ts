/**
 * The built native host run by hand, with the suite playing Chrome: argv carries the caller origin, stdin
 * takes frames "from the extension", stdout carries the host's frames to it. Used to fuzz the stdin side
 * and to start a host in situations a browser would not create (a squatted /tmp, a foreign hello).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEV_EXTENSION_ID, encodeFrame, FrameDecoder, MAX_FROM_EXTENSION_BYTES, MAX_TO_EXTENSION_BYTES, PROTOCOL_VERSION, VERSION } from '../../packages/protocol/src/index.js';
import { CLI } from '../../e2e/harness.js';
import { within } from './suite.js';

export const HOST_BUNDLE = join(dirname(CLI), 'host', 'host.mjs');
export const ORIGIN = `chrome-extension://${DEV_EXTENSION_ID}/`;

export interface HostProcess {
  child: ChildProcess;
  home: string;
  stderr(): string;
  /** Frames the host wrote to stdout (its hello, calls), parsed. */
  frames: unknown[];
  send(message: unknown): void;
  sendRaw(bytes: Uint8Array): void;
  exited(): { code: number | null; signal: string | null } | null;
  waitExit(ms: number): Promise<{ code: number | null; signal: string | null } | null>;
  /** The socket its descriptor names, once it is ready. */
  socket(ms?: number): Promise<string | null>;
  kill(): void;
}

export function spawnHost(home: string, options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number } = {}): HostProcess {
  const child = spawn(process.execPath, [HOST_BUNDLE, ORIGIN], {
    env: { PATH: process.env.PATH, HOME: home, ...options.env, CHROME_RELAY_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid }),
  });
  let stderr = '';
  let exit: { code: number | null; signal: string | null } | null = null;
  const frames: unknown[] = [];
  const decoder = new FrameDecoder(MAX_TO_EXTENSION_BYTES);
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    try {
      frames.push(...decoder.push(new Uint8Array(chunk)));
    } catch (error) {
      frames.push({ undecodable: String(error) });
    }
  });
  child.stdin?.on('error', () => undefined);
  child.on('exit', (code, signal) => {
    exit = { code, signal };
  });
  const host: HostProcess = {
    child,
    home,
    stderr: () => stderr,
    frames,
    send: (message) => host.sendRaw(encodeFrame(message, MAX_FROM_EXTENSION_BYTES)),
    sendRaw: (bytes) => {
      if (child.stdin && !child.stdin.destroyed) child.stdin.write(bytes);
    },
    exited: () => exit,
    waitExit: async (ms) => ((await within(ms, () => exit !== null, 20)) === null ? null : exit),
    socket: async (ms = 5000) => {
      let found: string | null = null;
      await within(ms, () => {
        found = descriptorSocket(home);
        return found !== null;
      });
      return found;
    },
    kill: () => {
      if (exit === null) child.kill('SIGKILL');
    },
  };
  return host;
}

export function hello(id = DEV_EXTENSION_ID): unknown {
  return { type: 'hello', extension: { id, version: VERSION, protocolVersion: PROTOCOL_VERSION }, userAgent: 'torture' };
}

/** The socket named by the (single) live descriptor under `home`, or null. */
export function descriptorSocket(home: string): string | null {
  const run = join(home, 'run');
  if (!existsSync(run)) return null;
  for (const name of readdirSync(run)) {
    if (!/^host-\d+\.json$/.test(name)) continue;
    try {
      return (JSON.parse(readFileSync(join(run, name), 'utf8')) as { socket: string }).socket;
    } catch {
      return null;
    }
  }
  return null;
}

/** Files a host left under <home>/run (descriptors, sockets). */
export function runFiles(home: string): string[] {
  const run = join(home, 'run');
  return existsSync(run) ? readdirSync(run) : [];
}

/** A host log line that means a bug (uncaught exception) or a stack trace. */
export const HOST_BUG = /\bbug:|^\s+at .*:\d+:\d+\)?$/m;
