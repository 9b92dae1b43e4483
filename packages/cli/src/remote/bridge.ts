/**
 * The far end of a link, on the person's machine (`chrome-relay bridge`, run by sshd or by a command on its stdio, or
 * listening on a socket): frames from one link in, each request relayed to the host of this machine the way a local
 * CLI call goes (hostClient.ts: found from its descriptor, waited for while it restarts, authenticated with this
 * user's proof on a named pipe), answers relayed back.
 *
 * Rules:
 * - Every request leaves with `via` set to this bridge's (a client's own `via` is overwritten, its `auth` replaced by
 *   the host's proof) and without `profile`, which only chooses the host: one host connection per profile, opened on
 *   the first request for it and again after it closed.
 * - A bridge listening with --paired reads nothing of a request without the pairing proof: it answers `not_paired`
 *   and ends the link, as the host does for a pipe client without the user's proof.
 * - Each request gets exactly one answer: the host's, or the bridge's own when no host is found (`no_host`, in words
 *   for an agent that is not on this machine), or when the host connection closes with it in flight
 *   (`native_host_disconnected`; what became of the browser is looked at here, where it runs: lostHost.ts).
 * - A host or extension of a protocol from before bridged calls (BRIDGED_SINCE_PROTOCOL: its descriptor says) is sent
 *   nothing: it would refuse `via` as a malformed request. The call is answered `host_outdated`, with the move (the
 *   person updates, or restarts the browser so the host installed now starts).
 * - An action's `snapshot` goes on only to a host and extension of the client's own build (the CLI of this machine
 *   asks the same of a host's descriptor): otherwise it is dropped, and the CLI takes the snapshot in a call of its own.
 * - At most MAX_IN_FLIGHT calls of one link are in flight; beyond that the link is not read (its requests wait in the
 *   pipe, not in the bridge's memory).
 * The bridge keeps no state of its own beyond the connections: a link that ends forgets its calls.
 */
import type { Socket } from 'node:net';
import { hostname } from 'node:os';
import { proofMatches } from '@chrome-relay/host-files';
import {
  asInterrupted,
  BRIDGED_SINCE_PROTOCOL,
  encodeFrame,
  FrameDecoder,
  MAX_REQUEST_DEPTH,
  MAX_SOCKET_FRAME_BYTES,
  MAX_SOCKET_REQUEST_BYTES,
  PROTOCOL_VERSION,
  reasonedError,
  RelayError,
  toolLabel,
  VERSION,
  type ClientResponse,
  type HostDescriptor,
  type Via,
} from '@chrome-relay/protocol';
import { listDescriptors } from '../discovery.js';
import { pickHost, profileNotConnected, RECONNECT_WAIT_MS, recentlyActive } from '../hostClient.js';
import { explainLostHost, explainLostHostResponse } from '../lostHost.js';
import { isRecord } from '../sameBuild.js';
import { connectTo, proofFor, readResponse } from '../socketCall.js';

/** Calls of one link in flight before the bridge stops reading it. */
const MAX_IN_FLIGHT = 64;

export interface BridgeOptions {
  home: string;
  via: Via;
  /** The proof every request must carry (a bridge listening with --paired); undefined: the socket's modes decide. */
  pairingProof?: string | undefined;
  log(message: string): void;
}

/** The link a bridge serves: stdio, or one connection to its socket. */
export interface LinkPort {
  send(frame: Uint8Array): void;
  /** Stop reading the link, and read it again. */
  pause(): void;
  resume(): void;
  /** End the link (after what was sent). */
  close(): void;
}

interface HostLine {
  readonly descriptor: HostDescriptor;
  readonly socket: Socket;
  readonly decoder: FrameDecoder;
  /** Calls in flight on it: id → tool. */
  readonly pending: Map<number, string>;
}

/** One link's relay to the hosts of this machine. */
export class BridgeLink {
  private readonly decoder = new FrameDecoder(MAX_SOCKET_REQUEST_BYTES, MAX_REQUEST_DEPTH);
  /** Host connections by profile ('' for none given), while they open and once open. */
  private readonly lines = new Map<string, Promise<HostLine>>();
  /** Ids in flight on this link (any host): each is answered once. */
  private readonly inFlight = new Set<number>();
  private paused = false;
  private ended = false;

  constructor(
    private readonly options: BridgeOptions,
    private readonly port: LinkPort,
  ) {}

  get callsInFlight(): number {
    return this.inFlight.size;
  }

  /** Bytes from the link. */
  receive(chunk: Uint8Array): void {
    if (this.ended) return;
    for (const frame of this.decoder.decode(chunk)) {
      if ('fault' in frame) {
        const error = new RelayError('invalid_arguments', `The bridge could not read a request: ${frame.fault.kind === 'oversize' ? `${frame.fault.bytes} bytes is over the ${frame.fault.limit}-byte limit (Chrome carries at most 1 MiB to the extension); send less data per call` : frame.fault.kind === 'too_deep' ? 'it nests too deep (tool params are flat)' : 'it is not UTF-8 JSON'}.`, { phase: 'transport' });
        this.answer(0, error);
        this.end();
        return;
      }
      this.request(frame.message);
    }
  }

  /** The link went away: its host connections close, and the host forgets their calls. */
  closed(): void {
    this.ended = true;
    for (const line of this.lines.values()) line.then((open) => open.socket.destroy(), () => undefined);
    this.lines.clear();
    this.inFlight.clear();
  }

  private end(): void {
    if (this.ended) return;
    this.closed();
    this.port.close();
  }

  private request(raw: unknown): void {
    const id = isRecord(raw) && typeof raw.id === 'number' && Number.isSafeInteger(raw.id) && raw.id > 0 ? raw.id : undefined;
    const tool = isRecord(raw) && typeof raw.tool === 'string' ? raw.tool : '';
    if (!isRecord(raw) || id === undefined || tool === '') {
      this.answer(0, new RelayError('invalid_arguments', 'Malformed request to the bridge: it needs a positive whole `id` and a `tool`.', { tool, phase: 'transport' }));
      return;
    }
    const pairing = this.options.pairingProof;
    if (pairing !== undefined && !proofMatches(raw.auth, pairing)) {
      this.options.log('refused a client without the pairing proof');
      this.answer(id, notPaired(tool));
      this.end();
      return;
    }
    if (this.inFlight.has(id)) {
      this.answer(id, new RelayError('invalid_arguments', `Request id ${id} is already in flight on this link; give each call its own id.`, { tool, phase: 'transport', details: { field: 'id' } }));
      return;
    }
    if (raw.profile !== undefined && typeof raw.profile !== 'string') {
      this.answer(id, new RelayError('invalid_arguments', '`profile` must be the user-data-dir of a browser profile on the person\'s machine.', { tool, phase: 'transport', details: { field: 'profile' } }));
      return;
    }
    this.inFlight.add(id);
    this.flow();
    const profile = raw.profile === undefined || raw.profile === '' ? undefined : raw.profile;
    this.lineFor(profile, tool).then(
      (line) => this.forward(line, id, tool, raw),
      (error: unknown) => this.settle(id, RelayError.from(error, tool, 'connect')),
    );
  }

  private forward(line: HostLine, id: number, tool: string, raw: Record<string, unknown>): void {
    if (this.ended || !this.inFlight.has(id)) return;
    const outdated = outdatedHost(line.descriptor, tool);
    if (outdated !== undefined) {
      this.settle(id, outdated);
      return;
    }
    const { profile: _profile, auth: _auth, via: _via, snapshot, ...rest } = raw;
    const forwarded: Record<string, unknown> = { ...rest, via: this.options.via };
    if (snapshot !== undefined && sameVersion(raw.client, line.descriptor.host) && sameVersion(raw.client, line.descriptor.extension)) forwarded.snapshot = snapshot;
    try {
      const auth = proofFor(line.descriptor.socket, tool);
      if (auth !== undefined) forwarded.auth = auth;
      line.socket.write(encodeFrame(forwarded, MAX_SOCKET_REQUEST_BYTES));
    } catch (error) {
      this.settle(id, RelayError.from(error, tool, 'transport'));
      return;
    }
    line.pending.set(id, tool);
  }

  /** The host connection for `profile`: the open one, or a new one to the host discovery picks (waiting while one restarts). */
  private lineFor(profile: string | undefined, tool: string): Promise<HostLine> {
    const key = profile ?? '';
    let line = this.lines.get(key);
    if (line === undefined) {
      line = this.open(profile, tool);
      this.lines.set(key, line);
      line.catch(() => {
        if (this.lines.get(key) === line) this.lines.delete(key);
      });
    }
    return line;
  }

  private async open(profile: string | undefined, tool: string): Promise<HostLine> {
    const { home } = this.options;
    let found = listDescriptors(home);
    const restarting = recentlyActive(home) || found.some((d) => !d.alive);
    const giveUpAt = Date.now() + (restarting ? RECONNECT_WAIT_MS : 0);
    for (;;) {
      if (this.ended) throw new RelayError('internal_error', 'The link ended.', { tool, phase: 'connect' });
      const host = pickHost(home, profile, tool, found);
      if (host !== null) {
        const socket = await connectTo(host.socket);
        if (socket !== null) return this.attach(profile ?? '', host, socket);
      }
      if (Date.now() >= giveUpAt) throw noHostHere(tool, home, profile);
      await new Promise((r) => setTimeout(r, 100));
      found = listDescriptors(home);
    }
  }

  private attach(key: string, descriptor: HostDescriptor, socket: Socket): HostLine {
    const line: HostLine = { descriptor, socket, decoder: new FrameDecoder(MAX_SOCKET_FRAME_BYTES), pending: new Map() };
    socket.on('data', (chunk: Buffer) => {
      let messages: unknown[];
      try {
        messages = line.decoder.push(chunk);
      } catch (error) {
        this.options.log(`a malformed frame from the host at ${descriptor.socket}: ${(error as Error).message}`);
        socket.destroy();
        return;
      }
      for (const message of messages) this.fromHost(line, message);
    });
    socket.on('error', (error) => this.options.log(`host connection ${descriptor.socket}: ${error.message}`));
    socket.on('close', () => {
      void this.lines.get(key)?.then((current) => {
        if (current === line) this.lines.delete(key);
      });
      const calls = [...line.pending];
      line.pending.clear();
      for (const [id, tool] of calls) {
        const error = asInterrupted(
          reasonedError(
            'native_host_disconnected',
            'host_exited',
            `The native host on the person's machine went away during ${toolLabel(tool)} without answering (it was killed or crashed, or its browser exited); while the browser runs, the extension starts a new host within a second: retry in a moment.`,
            { tool, phase: 'transport', details: { cause: 'host_died' } },
          ),
        );
        explainLostHost(error, descriptor, this.options.home).then(
          (explained) => this.settle(id, explained),
          () => this.settle(id, error),
        );
      }
    });
    return line;
  }

  private fromHost(line: HostLine, message: unknown): void {
    const response = readResponse(message);
    if (response === undefined) {
      this.options.log(`ignoring an answer from the host at ${line.descriptor.socket} this bridge cannot read`);
      return;
    }
    // id 0: the host could not read a request on this connection and closes it; every call on it gets that answer.
    if (response.id === 0 && !response.ok) {
      const calls = [...line.pending];
      line.pending.clear();
      for (const [id] of calls) this.send({ ...response, id });
      return;
    }
    if (!line.pending.delete(response.id)) return;
    if (!response.ok && response.error.code === 'native_host_disconnected') {
      explainLostHostResponse(response, line.descriptor, this.options.home).then(
        (explained) => this.send(explained),
        () => this.send(response),
      );
      return;
    }
    this.send(response);
  }

  private settle(id: number, error: RelayError): void {
    if (!this.inFlight.has(id)) return;
    this.answer(id, error);
  }

  private answer(id: number, error: RelayError): void {
    this.send({ id, ok: false, error: error.toData(), versions: { host: { version: VERSION, protocolVersion: PROTOCOL_VERSION }, extension: null } });
  }

  private send(response: ClientResponse): void {
    this.inFlight.delete(response.id);
    if (this.ended) return;
    let frame: Uint8Array;
    try {
      frame = encodeFrame(response, MAX_SOCKET_FRAME_BYTES);
    } catch (error) {
      frame = encodeFrame({ id: response.id, ok: false, error: RelayError.from(error, '', 'transport').toData(), versions: response.versions }, MAX_SOCKET_FRAME_BYTES);
    }
    this.port.send(frame);
    this.flow();
  }

  /** Read the link while fewer than MAX_IN_FLIGHT of its calls are in flight. */
  private flow(): void {
    const over = this.inFlight.size >= MAX_IN_FLIGHT;
    if (over && !this.paused) this.port.pause();
    else if (!over && this.paused) this.port.resume();
    this.paused = over;
  }
}

/**
 * A host (or the extension behind it) of a protocol from before bridged calls: the person updated chrome-relay (this
 * bridge is the new version) while their browser still runs the host it started before, which refuses `via` as
 * malformed. Decided from the versions its descriptor publishes, before anything is sent.
 */
function outdatedHost(descriptor: HostDescriptor, tool: string): RelayError | undefined {
  const sides = [
    { name: 'native host', versions: descriptor.host },
    { name: 'extension', versions: descriptor.extension },
  ];
  const behind = sides.flatMap(({ name, versions }) => (versions !== null && versions.protocolVersion < BRIDGED_SINCE_PROTOCOL ? [`${name} ${versions.version} (protocol ${versions.protocolVersion})`] : []));
  if (behind.length === 0) return undefined;
  return reasonedError(
    'extension_not_connected',
    'host_outdated',
    `The person's browser runs a chrome-relay ${behind.join(' and ')} older than this bridge (${VERSION}, protocol ${PROTOCOL_VERSION}): it cannot take calls from another machine, so nothing was sent. Ask the person to run \`chrome-relay update\` on their machine (it restarts the running host on the installed version), or to restart their browser or reload chrome-relay's extension (chrome://extensions) so the new host starts; then retry.`,
    {
      tool,
      phase: 'connect',
      details: {
        host: { version: descriptor.host.version, protocolVersion: descriptor.host.protocolVersion },
        extension: descriptor.extension === null ? null : { version: descriptor.extension.version, protocolVersion: descriptor.extension.protocolVersion },
        bridge: { version: VERSION, protocolVersion: PROTOCOL_VERSION },
      },
    },
  );
}

/** Two `{version, protocolVersion}` of one build. */
function sameVersion(a: unknown, b: unknown): boolean {
  return isRecord(a) && isRecord(b) && typeof a.version === 'string' && a.version === b.version && a.protocolVersion === b.protocolVersion;
}

/** No host on this machine for the call: said for an agent elsewhere, whose own `launch` would start nothing here. */
function noHostHere(tool: string, home: string, profile: string | undefined): RelayError {
  const wrongProfile = profileNotConnected(tool, home, profile);
  if (wrongProfile !== null) return wrongProfile;
  return reasonedError(
    'extension_not_connected',
    'no_host',
    `No chrome-relay browser is connected on the person's machine (${hostname()}) behind this bridge. Ask the person to open their browser (\`chrome-relay doctor\` on their machine says why it is not connected); \`chrome-relay launch\` run there would start a dedicated one. (A browser whose chrome-relay service worker stopped reconnects by itself within 30 s: retry then.)`,
    { tool, phase: 'connect', details: { bridgeHost: hostname(), profile: profile ?? null } },
  );
}

function notPaired(tool: string): RelayError {
  return reasonedError(
    'extension_not_connected',
    'not_paired',
    `The bridge refused this client: it was started with --paired and answers only clients that present its pairing secret. Ask the person for the secret (the file bridge/pairing in chrome-relay's home on their machine) and set CHROME_RELAY_PAIRING to it.`,
    { tool, phase: 'connect' },
  );
}

