/**
 * `chrome-relay bridge`, run on the person's machine: one link on stdio (what sshd or a command such as
 * `cmd.exe /c chrome-relay bridge` starts), or every connection to a socket it listens on (`--listen`), each relayed
 * to this machine's host by a BridgeLink (bridge.ts).
 *
 * On stdio the bridge first writes its hello (protocol bridge.ts) — what the agent's side waits for before it calls
 * the link up — and ends when stdin does. Its `via`: `ssh` with the client address sshd gives it (SSH_CONNECTION),
 * else `cmd`; `--label` names it further.
 *
 * Listening, it guards the socket as the host guards its own: 0600 in a folder only this user can enter (never
 * chmod-ed here if it exists: host-files bridgeFiles.ts says what is wrong with it), or, with --paired, 0666 and a
 * pairing proof on every request. A live socket at the path is never replaced; a dead one is. It stops on SIGINT,
 * SIGTERM or SIGHUP, removing its socket if the path still holds it. A connection with no call in flight for
 * IDLE_MS is closed (the client connects again for its next call).
 */
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { dirname, resolve } from 'node:path';
import { listenDirProblem, listenPrivate, pairingFile, pairingProof, pairingSecret, probeSocket } from '@chrome-relay/host-files';
import { encodeFrame, MAX_SOCKET_FRAME_BYTES, PROTOCOL_VERSION, VERSION, VIA_LABEL_MAX, type BridgeHello, type Via } from '@chrome-relay/protocol';
import { invalidArgument } from '../args.js';
import { BridgeLink } from './bridge.js';

export interface BridgeCommand {
  home: string;
  listen?: string | undefined;
  paired?: boolean | undefined;
  label?: string | undefined;
  env?: NodeJS.ProcessEnv;
}

/** How long a listened connection may sit with no call in flight. */
const IDLE_MS = 30_000;

const log = (message: string): void => {
  process.stderr.write(`chrome-relay bridge: ${message}\n`);
};

function checkedLabel(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  const text = label.trim();
  if (text === '' || text.length > 120 || /[\u0000-\u001f\u007f]/.test(text)) throw invalidArgument('label', 'must be 1–120 characters of text, no control characters.', label);
  return text;
}

/** Where this bridge's calls come from, as the person is shown it. */
export function stdioVia(env: NodeJS.ProcessEnv, label: string | undefined): Via {
  // sshd sets SSH_CONNECTION to "client-address client-port server-address server-port" for the session.
  const client = env.SSH_CONNECTION?.trim().split(/\s+/)[0];
  if (client !== undefined && client !== '') return { kind: 'ssh', label: (label === undefined ? client : `${client} (${label})`).slice(0, VIA_LABEL_MAX) };
  return { kind: 'cmd', label: label ?? 'stdio' };
}

export async function runBridge(command: BridgeCommand): Promise<void> {
  const label = checkedLabel(command.label);
  if (command.listen === undefined) {
    if (command.paired === true) throw invalidArgument('paired', 'goes with --listen: a bridge on stdio serves the one link that started it.');
    return serveStdio(command.home, stdioVia(command.env ?? process.env, label));
  }
  return listen(command.home, resolve(command.listen), command.paired === true, label);
}

function serveStdio(home: string, via: Via): Promise<void> {
  return new Promise((done) => {
    const stdin = process.stdin;
    const stdout = process.stdout;
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      link.closed();
      stdin.destroy();
      done();
    };
    const link = new BridgeLink(
      { home, via, log },
      {
        send: (frame) => void stdout.write(frame),
        pause: () => stdin.pause(),
        resume: () => stdin.resume(),
        close: () => stdout.end(finish),
      },
    );
    // Nobody reads our answers any more (the ssh session or the command went): nothing left to do.
    stdout.on('error', finish);
    const hello: BridgeHello = { type: 'bridge', version: VERSION, protocolVersion: PROTOCOL_VERSION, via, pid: process.pid };
    stdout.write(encodeFrame(hello, MAX_SOCKET_FRAME_BYTES));
    stdin.on('data', (chunk: Buffer) => link.receive(chunk));
    stdin.on('end', finish);
    stdin.on('close', finish);
    stdin.on('error', finish);
  });
}

async function listen(home: string, path: string, paired: boolean, label: string | undefined): Promise<void> {
  if (process.platform === 'win32') throw invalidArgument('listen', 'needs a Unix socket, which Windows has no file modes to guard; run `chrome-relay bridge` on stdio instead (cmd:, or ssh).');
  const uid = process.getuid?.() ?? 0;
  const problem = listenDirProblem(dirname(path), uid, paired);
  if (problem !== null) throw invalidArgument('listen', `${problem}.`, path);
  await clearStale(path);
  const via: Via = { kind: 'unix', label: (label ?? path).slice(0, VIA_LABEL_MAX) };
  const proof = paired ? pairingProof(pairingSecret(home)) : undefined;
  const server = createServer((socket) => serveConnection(socket, { home, via, pairingProof: proof, log }));
  // Born private: no moment at which another user could connect before the chmod below.
  await listenPrivate(server, path);
  chmodSync(path, paired ? 0o666 : 0o600);
  const created = lstatSync(path);
  log(`listening on ${path} (${paired ? `shared: every client must present the pairing secret in ${pairingFile(home)} as CHROME_RELAY_PAIRING` : 'only this user may connect'}); agents through it show in the popup as "${via.label}"`);
  await new Promise<void>((stopped) => {
    const stop = (): void => {
      server.close();
      try {
        const now = lstatSync(path);
        if (now.ino === created.ino && now.dev === created.dev) unlinkSync(path);
      } catch {
        /* already gone */
      }
      stopped();
    };
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
  });
}

function serveConnection(socket: Socket, options: ConstructorParameters<typeof BridgeLink>[0]): void {
  let idle: ReturnType<typeof setTimeout> | undefined;
  const link = new BridgeLink(options, {
    send: (frame) => {
      socket.write(frame);
      armIdle();
    },
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    close: () => socket.end(),
  });
  function armIdle(): void {
    if (idle !== undefined) clearTimeout(idle);
    idle = setTimeout(() => {
      if (link.callsInFlight === 0) socket.end();
      else armIdle();
    }, IDLE_MS);
    idle.unref();
  }
  socket.on('data', (chunk: Buffer) => {
    link.receive(chunk);
    armIdle();
  });
  socket.on('error', () => undefined); // 'close' follows
  socket.on('close', () => {
    if (idle !== undefined) clearTimeout(idle);
    link.closed();
  });
  armIdle();
}

/** A dead socket at `path` is removed; a live one, or anything that is not a socket, is never touched. */
async function clearStale(path: string): Promise<void> {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!stat.isSocket()) throw invalidArgument('listen', `${path} exists and is not a socket; choose another path.`, path);
  if ((await probeSocket(path)) === 'live') throw invalidArgument('listen', `another process listens on ${path} (a bridge already runs there?); stop it first or choose another path.`, path);
  unlinkSync(path);
}
