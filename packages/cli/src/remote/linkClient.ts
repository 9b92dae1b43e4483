/**
 * The agent's side of an endpoint (endpoint.ts): the socket a call goes to, and what its failures mean.
 *
 * - `unix:<path>` is a bridge listening on that socket (bridgeServe.ts), forwarded or mounted here: a call connects
 *   to it as a local call connects to the host.
 * - `ssh://…` and `cmd:…` are a command whose stdio is a bridge. Starting it costs a process here and a Node start on
 *   the far side (tens of ms, hundreds through a fresh ssh login), too much for every call of an agent that runs the
 *   CLI once per action. So the first call starts a link holder (linkHolder.ts, `chrome-relay link`, detached): it
 *   keeps that command running and serves calls on a socket of its own, `<home>/run/link-<hash>.sock` (0600, in the
 *   run folder only this user may enter), until it has been idle a while. Every later call connects there: what it
 *   costs beyond a local call is the frames' way through the holder, the link and the bridge.
 *
 * What a failure says: nothing listening on a unix: socket is `no_bridge` (the person's bridge is not running, or the
 * socket is not forwarded here); a socket this user may not open is `not_paired`; a link that closes mid-call is
 * `native_host_disconnected`/`link_lost` (the holder says the same when its command ends under a call), "may have
 * acted" for a mutating call; a holder that cannot start its command says what the command wrote (`link_failed`).
 */
import { assertTrustedHome } from '../homeTrust.js';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { ensurePrivateDir, isPairingSecret, pairingProof } from '@chrome-relay/host-files';
import { PAIRING_ENV, reasonedError, RelayError, toolLabel, type ClientResponse } from '@chrome-relay/protocol';
import { distDir, logsDir, runDir } from '../paths.js';
import { connectOnce, exchange, requestFrame, type CallEnvelope, type Peer } from '../socketCall.js';
import type { Endpoint } from './endpoint.js';

/** An endpoint the agent's side holds open (a command's stdio), as opposed to a socket it connects to. */
export type HeldEndpoint = Extract<Endpoint, { kind: 'ssh' | 'cmd' }>;

/** Longest socket path that fits everywhere (sun_path is 104 bytes on macOS, with the NUL). */
const MAX_SOCKET_PATH_BYTES = 100;
/** How long a call waits for a holder it started to listen (a Node start, under load). */
const HOLDER_START_MS = 15_000;

export interface LinkPaths {
  /** Where the holder listens. */
  socket: string;
  /** The holder's record: pid, endpoint, the command's pid (for `status`, and for tests that cut the link). */
  descriptor: string;
  /** What the holder and its command wrote. */
  log: string;
}

/** The holder's files for `endpoint` in `home`: one holder per endpoint text. */
export function linkPaths(home: string, endpoint: HeldEndpoint): LinkPaths {
  const key = createHash('sha256').update(endpoint.text).digest('hex').slice(0, 16);
  const run = runDir(home);
  const socket = join(run, `link-${key}.sock`);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH_BYTES) {
    throw new RelayError('invalid_arguments', `The link's socket would be ${socket}, longer than a socket path may be; set CHROME_RELAY_HOME to a shorter folder.`, {
      phase: 'cli',
      details: { field: 'CHROME_RELAY_HOME', socket },
    });
  }
  return { socket, descriptor: join(run, `link-${key}.json`), log: join(logsDir(home), `link-${key}.log`) };
}

/** Where a call through `endpoint` goes: the bridge's socket, or the holder's. */
export function linkSocketOf(home: string, endpoint: Endpoint): string {
  return endpoint.kind === 'unix' ? endpoint.path : linkPaths(home, endpoint).socket;
}

const absent = (error: NodeJS.ErrnoException): boolean => error.code === 'ENOENT' || error.code === 'ECONNREFUSED';

/**
 * A socket connected to where a call through `endpoint` goes. For ssh:// and cmd:, a holder is started when none
 * listens, and waited for (bounded by `waitMs`).
 */
export async function openLink(endpoint: Endpoint, home: string, tool: string, waitMs: number): Promise<Socket> {
  // The agent's side holds links on Unix sockets guarded by modes; Windows has neither (an agent there runs in WSL).
  if (process.platform === 'win32') {
    throw new RelayError('invalid_arguments', `CHROME_RELAY_ENDPOINT (${endpoint.text}) is for an agent on Linux or macOS, WSL included; on Windows run chrome-relay without it, next to the browser, or run the agent in WSL.`, {
      tool,
      phase: 'cli',
      details: { field: 'CHROME_RELAY_ENDPOINT', endpoint: endpoint.text },
    });
  }
  if (endpoint.kind === 'unix') {
    const first = await connectOnce(endpoint.path);
    if (!(first instanceof Error)) return first;
    throw unreachableBridge(endpoint, tool, first);
  }
  // The holder's socket and descriptor live in the home: only this user's own is trusted with them (homeTrust.ts).
  assertTrustedHome(home);
  const paths = linkPaths(home, endpoint);
  const first = await connectOnce(paths.socket);
  if (!(first instanceof Error)) return first;
  if (!absent(first)) throw holderFailed(endpoint, tool, `its socket ${paths.socket} could not be opened (${first.code ?? first.message})`, paths);
  const holder = startHolder(endpoint, home, paths);
  const giveUpAt = Date.now() + Math.min(waitMs, HOLDER_START_MS);
  for (;;) {
    await new Promise((r) => setTimeout(r, 20));
    const next = await connectOnce(paths.socket);
    if (!(next instanceof Error)) return next;
    // A holder that found another already serving exits 0 at once: keep looking for that one's socket.
    if (holder.failed() || Date.now() >= giveUpAt) throw holderFailed(endpoint, tool, holder.failed() ? 'its holder exited before it listened' : `its holder did not listen within ${Math.min(waitMs, HOLDER_START_MS)} ms`, paths);
  }
}

/** Start `chrome-relay link <endpoint>` detached, writing to its log; `failed` says whether it exited non-zero. */
function startHolder(endpoint: HeldEndpoint, home: string, paths: LinkPaths): { failed(): boolean } {
  ensurePrivateDir(home, process.getuid?.() ?? 0);
  ensurePrivateDir(runDir(home), process.getuid?.() ?? 0);
  mkdirSync(logsDir(home), { recursive: true, mode: 0o700 });
  const log = openSync(paths.log, 'a', 0o600);
  let exit: number | null = null;
  try {
    const child = spawn(process.execPath, [join(distDir(), 'chrome-relay.cjs'), 'link', endpoint.text], {
      detached: true,
      stdio: ['ignore', log, log],
      env: process.env,
      windowsHide: true,
    });
    child.once('exit', (code) => (exit = code ?? 1));
    child.once('error', () => (exit = 1));
    child.unref();
  } finally {
    closeSync(log);
  }
  return { failed: () => exit !== null && exit !== 0 };
}

/** The request a call through an endpoint sends: `profile` chooses the host there; `auth` proves the pairing, if given. */
export function linkRequest(id: number, tool: string, params: Record<string, unknown>, timeoutMs: number, envelope: CallEnvelope & { profile?: string | undefined }): { id: number } & Record<string, unknown> {
  const pairing = process.env[PAIRING_ENV];
  if (pairing !== undefined && pairing !== '' && !isPairingSecret(pairing)) {
    throw new RelayError('invalid_arguments', `${PAIRING_ENV} must be the 64 hex digits of the bridge's pairing secret (its file bridge/pairing on the person's machine).`, { tool, phase: 'cli', details: { field: PAIRING_ENV } });
  }
  return requestFrame(id, tool, params, timeoutMs, envelope, {
    ...(envelope.profile === undefined ? {} : { profile: envelope.profile }),
    ...(pairing === undefined || pairing === '' ? {} : { auth: pairingProof(pairing) }),
  });
}

/** Failures of a call through `endpoint`, in its words. */
export function linkPeer(endpoint: Endpoint): Peer {
  const details = { endpoint: endpoint.text };
  return {
    unreachable: (tool, error) => unreachableBridge(endpoint, tool, error),
    lost: (tool) => linkLost(endpoint, tool, 'the link closed before the answer came'),
    silent: (tool, timeoutMs) =>
      reasonedError('timeout', 'host_unresponsive', `No answer to ${toolLabel(tool)} came through ${endpoint.text} within ${timeoutMs} ms (the link, the bridge or the browser behind it is stuck); run \`chrome-relay doctor\` on the person's machine, and retry.`, {
        tool,
        phase: 'transport',
        details: { ...details, timeoutMs },
      }),
    unreadable: (tool, problem) => new RelayError('internal_error', `What came through ${endpoint.text} ${problem}`, { tool, phase: 'transport', details }),
  };
}

/** A link that closed with a call in flight (the holder says the same when its command ends). */
export function linkLost(endpoint: Endpoint, tool: string, what: string, extra: Record<string, unknown> = {}): RelayError {
  return reasonedError(
    'native_host_disconnected',
    'link_lost',
    `${toolLabel(tool)} was cut off: ${what} (${endpoint.text}). Retry in a moment: the next call connects again (if it changes the page, check with \`chrome-relay snapshot\` first).`,
    { tool, phase: 'transport', details: { endpoint: endpoint.text, ...extra } },
  );
}

function unreachableBridge(endpoint: Endpoint, tool: string, error: NodeJS.ErrnoException): RelayError {
  const path = endpoint.kind === 'unix' ? endpoint.path : '';
  if (error.code === 'EACCES' || error.code === 'EPERM') {
    return reasonedError(
      'extension_not_connected',
      'not_paired',
      `This user may not open the bridge's socket ${path} (${error.code}): it is private to the person's user. For an agent running as another user (a container's), ask the person to run the bridge with --paired and to give you its pairing secret, then set CHROME_RELAY_PAIRING to it.`,
      { tool, phase: 'connect', details: { endpoint: endpoint.text, errno: error.code } },
    );
  }
  return reasonedError(
    'extension_not_connected',
    'no_bridge',
    `Nothing answers on ${path} (${error.code ?? error.message}), the socket ${endpoint.text} names. Ask the person to start \`chrome-relay bridge --listen <path>\` on their machine (and to forward or mount its socket here), then retry.`,
    { tool, phase: 'connect', details: { endpoint: endpoint.text, errno: error.code ?? null } },
  );
}

function holderFailed(endpoint: Endpoint, tool: string, what: string, paths: LinkPaths): RelayError {
  return reasonedError(
    'extension_not_connected',
    'link_failed',
    `The link ${endpoint.text} could not be opened: ${what}. details.linkSaid holds the end of its log (${paths.log}); fix what it says, or set a working endpoint.`,
    { tool, phase: 'connect', details: { endpoint: endpoint.text, linkSaid: logTail(paths.log), log: paths.log } },
  );
}

/** The last lines of a log, for an error's details. */
function logTail(file: string, bytes = 2000): string {
  try {
    const text = readFileSync(file, 'utf8');
    return text.slice(-bytes).trim();
  } catch {
    return '';
  }
}

/** One call through `endpoint`: the link opened (a holder started if need be), one request, its answer. */
export async function callEndpoint(
  endpoint: Endpoint,
  home: string,
  tool: string,
  params: Record<string, unknown>,
  timeoutMs: number,
  envelope: CallEnvelope & { profile?: string | undefined },
): Promise<ClientResponse> {
  const request = linkRequest(1, tool, params, timeoutMs, envelope);
  const socket = await openLink(endpoint, home, tool, timeoutMs);
  return exchange(socket, true, request as { id: number }, tool, timeoutMs, linkPeer(endpoint));
}
