/**
 * The link holder (`chrome-relay link <endpoint>`, started detached by the first call through an ssh:// or cmd:
 * endpoint, linkClient.ts): it runs the endpoint's command — `ssh … -- <host> chrome-relay bridge`, or the cmd: line —
 * whose stdio is a bridge on the person's machine, and serves calls on a socket of its own so that each call costs a
 * connect and a few frames, not a process on each side.
 *
 * Invariants:
 * - One holder per endpoint and home: it listens on a private path first and links it into place, which fails when
 *   another holder is there; a live one wins (this one exits 0), a dead one's socket is replaced. The socket is 0600
 *   in the run folder (0700): only this user reaches the link, as only this user reaches a local host.
 * - Calls are multiplexed on the one link by ids of the holder's own (clients all use id 1); each answer goes back to
 *   its client under the client's id. A client that left has its answers dropped.
 * - The bridge speaks first (its hello). A command that ends before that is `link_failed` for every call it had,
 *   with the end of what it wrote on stderr (`linkSaid`); one that ends after is `link_lost` for the calls in flight
 *   ("may have acted" for a mutating one, interrupted.ts). Either way the holder then removes its socket and exits:
 *   the next call starts a new one, which connects again.
 * - Idle for IDLE_MS (no client, no call), it ends the command and exits. SIGTERM, SIGINT and SIGHUP end it the same
 *   way.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, linkSync, lstatSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { ensurePrivateDir, listenPrivate, probeSocket } from '@chrome-relay/host-files';
import {
  asInterrupted,
  encodeFrame,
  FrameDecoder,
  MAX_REQUEST_DEPTH,
  MAX_SOCKET_FRAME_BYTES,
  MAX_SOCKET_REQUEST_BYTES,
  PROTOCOL_VERSION,
  reasonedError,
  RelayError,
  VERSION,
  type BridgeHello,
} from '@chrome-relay/protocol';
import { isRecord } from '../sameBuild.js';
import { runDir } from '../paths.js';
import { linkLost, linkPaths, type HeldEndpoint, type LinkPaths } from './linkClient.js';

/** A holder with no client and no call for this long ends its link. */
const IDLE_MS = 10 * 60_000;
/** How long a client that connected as the link ended may still send its request (and be told why). */
const CLOSE_GRACE_MS = 1000;
/** How much of the command's stderr is kept for an error's details. */
const STDERR_TAIL_BYTES = 2000;

/** The command whose stdio is the bridge, as argv (ssh: no shell; cmd: the shell runs the line). */
export function linkCommand(endpoint: HeldEndpoint): { file: string; args: string[]; shell: boolean } {
  if (endpoint.kind === 'cmd') return { file: endpoint.command, args: [], shell: true };
  const host = endpoint.host.replace(/^\[(.*)\]$/, '$1');
  return {
    file: 'ssh',
    args: [
      // No terminal (it would mangle frames), no escape character, no forwardings a config may add for the host.
      '-T',
      '-e',
      'none',
      '-o',
      'ClearAllForwardings=yes',
      // A link whose far end vanished without a word (a network that went away) is noticed within about 30 s.
      '-o',
      'ServerAliveInterval=15',
      ...(endpoint.port === undefined ? [] : ['-p', String(endpoint.port)]),
      ...(endpoint.user === undefined ? [] : ['-l', endpoint.user]),
      // `--` ends ssh's options: the host can never be read as one.
      '--',
      host,
      'chrome-relay',
      'bridge',
    ],
    shell: false,
  };
}

interface Pending {
  client: Socket;
  clientId: number;
  tool: string;
}

type LinkState = { kind: 'starting' } | { kind: 'ready'; hello: BridgeHello } | { kind: 'ended'; error: (tool: string) => RelayError };

const log = (message: string): void => {
  process.stderr.write(`${new Date().toISOString()} chrome-relay link: ${message}\n`);
};

/** Hold the link until it ends, idles out, or the process is told to stop (or `stop`, in tests, aborts). */
export async function runLinkHolder(endpoint: HeldEndpoint, home: string, stop?: AbortSignal): Promise<void> {
  const uid = process.getuid?.() ?? 0;
  ensurePrivateDir(home, uid);
  ensurePrivateDir(runDir(home), uid);
  const paths = linkPaths(home, endpoint);
  const server = await claimSocket(paths.socket);
  if (server === null) {
    log(`another holder serves ${endpoint.text}; leaving it to that one`);
    return;
  }
  const holder = new Holder(endpoint, paths, server);
  await holder.run(stop);
}

/** Listen on `path`, unless a live holder already does (null). Linked into place, so two holders never both win. */
async function claimSocket(path: string): Promise<Server | null> {
  const tmp = join(dirname(path), `.link-${process.pid}.sock`);
  const server = createServer();
  await listenPrivate(server, tmp);
  chmodSync(tmp, 0o600);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(tmp, path);
        return server;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      }
      if (!lstatSync(path).isSocket() || (await probeSocket(path)) === 'live') {
        server.close();
        return null;
      }
      unlinkSync(path);
    }
  } finally {
    // The listening socket stays bound through `path`; this name was only the way in.
    try {
      unlinkSync(tmp);
    } catch {
      /* gone */
    }
  }
}

class Holder {
  private state: LinkState = { kind: 'starting' };
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly clients = new Set<Socket>();
  /** Clients that have sent a call. */
  private readonly callers = new WeakSet<Socket>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail = '';
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly created: { ino: number; dev: number };
  private finished: () => void = () => undefined;

  constructor(
    private readonly endpoint: HeldEndpoint,
    private readonly paths: LinkPaths,
    private readonly server: Server,
  ) {
    const stat = lstatSync(paths.socket);
    this.created = { ino: stat.ino, dev: stat.dev };
    const command = linkCommand(endpoint);
    this.child = spawn(command.file, command.args, { shell: command.shell, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    log(`started ${command.shell ? command.file : [command.file, ...command.args].join(' ')} (pid ${this.child.pid ?? '?'})`);
    this.writeDescriptor();
  }

  run(stop: AbortSignal | undefined): Promise<void> {
    const decoder = new FrameDecoder(MAX_SOCKET_FRAME_BYTES);
    this.child.stdout.on('data', (chunk: Buffer) => {
      let messages: unknown[];
      try {
        messages = decoder.push(chunk);
      } catch (error) {
        this.end(`what came through it is not chrome-relay frames (${(error as Error).message})`);
        return;
      }
      for (const message of messages) this.fromBridge(message);
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    // Writing to a command that is gone: its exit says what happened.
    this.child.stdin.on('error', () => undefined);
    this.child.once('error', (error) => this.end(`it could not be started (${error.message})`));
    this.child.once('exit', (code, signal) => this.end(signal === null ? `it exited with code ${code ?? '?'}` : `it was ended by ${signal}`));
    this.server.on('connection', (socket) => this.serve(socket));
    if (stop === undefined) for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => this.end(`the holder was stopped (${signal})`));
    else stop.addEventListener('abort', () => this.end('the holder was stopped'));
    this.armIdle();
    return new Promise((done) => {
      this.finished = done;
    });
  }

  private fromBridge(message: unknown): void {
    if (this.state.kind === 'starting') {
      if (!isRecord(message) || message.type !== 'bridge' || typeof message.version !== 'string' || !isRecord(message.via)) {
        this.end('the far end is not a chrome-relay bridge (it did not greet as one)');
        return;
      }
      this.state = { kind: 'ready', hello: message as unknown as BridgeHello };
      log(`bridge ${message.version} answers, as ${JSON.stringify(message.via)}`);
      this.writeDescriptor();
      return;
    }
    if (!isRecord(message) || typeof message.id !== 'number') return;
    const call = this.pending.get(message.id);
    if (call === undefined) return;
    this.pending.delete(message.id);
    this.reply(call.client, { ...message, id: call.clientId });
    this.armIdle();
  }

  private serve(socket: Socket): void {
    this.clients.add(socket);
    this.armIdle();
    const decoder = new FrameDecoder(MAX_SOCKET_REQUEST_BYTES, MAX_REQUEST_DEPTH);
    socket.on('data', (chunk: Buffer) => {
      for (const frame of decoder.decode(chunk)) {
        if ('fault' in frame) {
          this.reply(socket, answer(0, new RelayError('invalid_arguments', `The link could not read a request (${frame.fault.kind}); send each request whole, at most 1 MiB.`, { phase: 'transport' })));
          socket.end();
          return;
        }
        this.request(socket, frame.message);
      }
    });
    socket.on('error', () => undefined); // 'close' follows
    socket.on('close', () => {
      this.clients.delete(socket);
      for (const [id, call] of this.pending) if (call.client === socket) this.pending.delete(id);
      this.armIdle();
    });
  }

  private request(client: Socket, raw: unknown): void {
    const clientId = isRecord(raw) && typeof raw.id === 'number' && Number.isSafeInteger(raw.id) && raw.id >= 0 ? raw.id : undefined;
    const tool = isRecord(raw) && typeof raw.tool === 'string' ? raw.tool : '';
    if (!isRecord(raw) || clientId === undefined) {
      this.reply(client, answer(0, new RelayError('invalid_arguments', 'Malformed request to the link: it needs a whole `id`.', { tool, phase: 'transport' })));
      return;
    }
    this.callers.add(client);
    if (this.state.kind === 'ended') {
      this.reply(client, answer(clientId, this.state.error(tool)));
      client.end();
      return;
    }
    const id = this.nextId++;
    try {
      this.child.stdin.write(encodeFrame({ ...raw, id }, MAX_SOCKET_REQUEST_BYTES));
    } catch (error) {
      this.reply(client, answer(clientId, RelayError.from(error, tool, 'transport')));
      return;
    }
    this.pending.set(id, { client, clientId, tool });
    this.armIdle();
  }

  private reply(client: Socket, response: Record<string, unknown>): void {
    if (client.destroyed) return;
    try {
      client.write(encodeFrame(response, MAX_SOCKET_FRAME_BYTES));
    } catch (error) {
      client.write(encodeFrame(answer(typeof response.id === 'number' ? response.id : 0, RelayError.from(error, '', 'transport')), MAX_SOCKET_FRAME_BYTES));
    }
  }

  /** The link is over: every call gets what that means, the socket goes, the process ends once answers are out. */
  private end(why: string): void {
    if (this.state.kind === 'ended') return;
    const started = this.state.kind === 'ready';
    const said = this.stderrTail.trim();
    const endpoint = this.endpoint;
    const error = started
      ? (tool: string) => asInterrupted(linkLost(endpoint, tool, `the link to the person's machine ended (${why})`, said === '' ? {} : { linkSaid: said }))
      : (tool: string) =>
          reasonedError(
            'extension_not_connected',
            'link_failed',
            `The link ${endpoint.text} ended before a bridge answered on it: ${why}${said === '' ? '' : `, saying: ${said.split('\n').slice(-3).join(' / ')}`}. Fix what it says (details.linkSaid; try the same command by hand), or set a working endpoint.`,
            { tool, phase: 'connect', details: { endpoint: endpoint.text, linkSaid: said } },
          );
    this.state = { kind: 'ended', error };
    log(`link ended: ${why}`);
    for (const [, call] of this.pending) this.reply(call.client, answer(call.clientId, error(call.tool)));
    this.pending.clear();
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.releaseSocket();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.stdin.end();
      setTimeout(() => this.child.kill(), 2000).unref();
    }
    // A client that has called ends now (its next call opens a new link); one that connected but has not sent its
    // request yet gets the same answer when it does, within a moment.
    for (const client of this.clients) {
      if (this.callers.has(client)) client.end();
      else setTimeout(() => client.end(), CLOSE_GRACE_MS).unref();
    }
    this.server.close(() => this.finished());
  }

  private armIdle(): void {
    if (this.idle !== undefined) clearTimeout(this.idle);
    if (this.clients.size > 0 || this.pending.size > 0 || this.state.kind === 'ended') return;
    this.idle = setTimeout(() => this.end(`idle for ${IDLE_MS / 1000} s`), IDLE_MS);
  }

  /** The socket and the record go, if the path still holds this holder's socket. */
  private releaseSocket(): void {
    try {
      const now = lstatSync(this.paths.socket);
      if (now.ino === this.created.ino && now.dev === this.created.dev) unlinkSync(this.paths.socket);
      else return;
    } catch {
      return;
    }
    try {
      unlinkSync(this.paths.descriptor);
    } catch {
      /* gone */
    }
  }

  private writeDescriptor(): void {
    const record = {
      pid: process.pid,
      endpoint: this.endpoint.text,
      socket: this.paths.socket,
      commandPid: this.child.pid ?? null,
      startedAt: new Date().toISOString(),
      bridge: this.state.kind === 'ready' ? { version: this.state.hello.version, protocolVersion: this.state.hello.protocolVersion, via: this.state.hello.via, pid: this.state.hello.pid } : null,
    };
    const tmp = `${this.paths.descriptor}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    renameSync(tmp, this.paths.descriptor);
  }
}

function answer(id: number, error: RelayError): Record<string, unknown> {
  return { id, ok: false, error: error.toData(), versions: { host: { version: VERSION, protocolVersion: PROTOCOL_VERSION }, extension: null } };
}
