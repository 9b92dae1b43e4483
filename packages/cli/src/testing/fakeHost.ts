/**
 * Hand-written stand-ins for a running native host, for doctor/update tests: a socket in <home>/run that
 * speaks the real framing and a descriptor next to it, exactly as the host publishes them.
 * - startFakeHost: in this process (its descriptor names a pid we choose, which must be alive).
 * - spawnFakeHostProcess: a separate node process, for tests where the old host must really exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import {
  FrameDecoder,
  MAX_SOCKET_FRAME_BYTES,
  PROTOCOL_VERSION,
  VERSION,
  encodeFrame,
  type ClientRequest,
  type ClientResponse,
  type HostDescriptor,
  type RelayErrorData,
  type ToolResult,
} from '@chrome-relay/protocol';

export interface FakeExtension {
  id: string;
  version: string;
  protocolVersion: number;
}

export interface FakeHostSpec {
  home: string;
  /** Pid the descriptor names; must be a live process so discovery treats the host as alive. */
  pid: number;
  hostVersion?: string;
  /** The host's protocol (default this build's): an older one plays a host started before an update. */
  hostProtocolVersion?: number;
  extension?: FakeExtension | null;
  profile?: string | null;
  browserPid?: number | null;
  socketMode?: number;
  /**
   * Whether the extension behind this host answers (`ping`, `rearm`). false plays a wedged service
   * worker behind a live host with a cached hello: the host answers at the request's deadline, as the real
   * one does. Default true.
   */
  extensionAnswers?: boolean;
  /** What `ping {page: true}` reports about chrome-relay's tab (default null: no tab). */
  page?: PagePing | null;
  /** `rearm`'s wasOpen when the extension answers (default false). */
  circuitWasOpen?: boolean;
  /** A host and extension from before `ping` and `rearm`: both are unsupported_tool. */
  legacy?: boolean;
  /** When the person paused agents (the extension's hello says so; `status` passes it on). Default null. */
  pausedSince?: number | null;
}

type PagePing = NonNullable<ToolResult<'ping'>['page']>;

export interface FakeHost {
  socket: string;
  descriptorFile: string;
  requests: ClientRequest[];
  close(): Promise<void>;
}

export const FAKE_EXTENSION: FakeExtension = { id: 'nplipfneioajmjoiadbinnjjicindjlf', version: VERSION, protocolVersion: PROTOCOL_VERSION };

export function descriptorFor(spec: FakeHostSpec, socket: string): HostDescriptor {
  const extension = spec.extension === undefined ? FAKE_EXTENSION : spec.extension;
  return {
    pid: spec.pid,
    socket,
    startedAt: new Date().toISOString(),
    browserPid: spec.browserPid ?? null,
    profile: spec.profile ?? null,
    origin: `chrome-extension://${FAKE_EXTENSION.id}/`,
    host: { version: spec.hostVersion ?? VERSION, protocolVersion: spec.hostProtocolVersion ?? PROTOCOL_VERSION },
    extension,
  };
}

export async function startFakeHost(spec: FakeHostSpec): Promise<FakeHost> {
  const run = join(spec.home, 'run');
  mkdirSync(run, { recursive: true, mode: 0o700 });
  chmodSync(run, 0o700);
  const socket = join(run, `host-${spec.pid}.sock`);
  const descriptorFile = join(run, `host-${spec.pid}.json`);
  const descriptor = descriptorFor(spec, socket);
  const requests: ClientRequest[] = [];
  const versions = { host: descriptor.host, extension: descriptor.extension ? { version: descriptor.extension.version, protocolVersion: descriptor.extension.protocolVersion } : null };

  const server: Server = createServer((client) => {
    const decoder = new FrameDecoder(MAX_SOCKET_FRAME_BYTES);
    client.on('data', (chunk: Buffer) => {
      for (const message of decoder.push(chunk)) {
        const request = message as ClientRequest;
        requests.push(request);
        const healthTool = !spec.legacy && (request.tool === 'ping' || request.tool === 'rearm');
        const silent = healthTool && spec.extensionAnswers === false;
        if (silent) {
          const error: RelayErrorData =
            request.tool === 'ping'
              ? { code: 'timeout', message: `The extension did not answer ping within ${request.timeoutMs} ms.`, tool: 'ping', phase: 'host', details: { reason: 'extension_unresponsive', timeoutMs: request.timeoutMs }, retryable: true }
              : { code: 'extension_not_connected', message: 'The extension still does not answer.', tool: 'rearm', phase: 'host', details: { reason: 'circuit_open', timeoutMs: request.timeoutMs }, retryable: true };
          setTimeout(() => client.write(encodeFrame({ id: request.id, ok: false, error, versions }, MAX_SOCKET_FRAME_BYTES)), request.timeoutMs);
          continue;
        }
        const extensionAnswer = (result: unknown): ClientResponse => ({ id: request.id, ok: true, result, versions });
        const response: ClientResponse =
          healthTool && request.tool === 'ping'
            ? extensionAnswer(request.params.page === true ? { extensionVersion: FAKE_EXTENSION.version, page: spec.page ?? null } : { extensionVersion: FAKE_EXTENSION.version })
            : healthTool && request.tool === 'rearm'
            ? extensionAnswer({ wasOpen: spec.circuitWasOpen ?? false, roundTripMs: 1 })
            : request.tool === 'status'
            ? {
                id: request.id,
                ok: true,
                result: {
                  host: { version: descriptor.host.version, protocolVersion: PROTOCOL_VERSION, pid: spec.pid, socket },
                  extension: descriptor.extension,
                  browser: descriptor.extension ? { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.8078.79 Safari/537.36', pid: descriptor.browserPid } : null,
                  profile: descriptor.profile,
                  pausedSince: spec.pausedSince ?? null,
                },
                versions,
              }
            : {
                id: request.id,
                ok: false,
                error: { code: 'unsupported_tool', message: `This extension does not know the tool "${request.tool}".`, tool: request.tool, phase: 'dispatch', details: {}, retryable: false },
                versions,
              };
        client.write(encodeFrame(response, MAX_SOCKET_FRAME_BYTES));
      }
    });
    client.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  chmodSync(socket, spec.socketMode ?? 0o600);
  writeFileSync(descriptorFile, JSON.stringify(descriptor), { mode: 0o600 });
  return {
    socket,
    descriptorFile,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        rmSync(descriptorFile, { force: true });
        server.close(() => resolve());
      }),
  };
}

/**
 * A fake host as its own process (plain JS, hand-rolled framing). It answers `status`; `restart_host` per
 * RESTART: 'ok' answers {reconnectInMs: 20} then removes its descriptor and exits, as a host does when
 * Chrome closes its stdin; 'unsupported' answers unsupported_tool; 'ignore' answers but never exits.
 */
const CHILD_SCRIPT = String.raw`
import { createServer } from 'node:net';
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';
const { RUN, DESCRIPTOR_JSON, RESTART } = process.env;
const SOCKET = RUN + '/host-' + process.pid + '.sock';
const DESCRIPTOR = RUN + '/host-' + process.pid + '.json';
const descriptor = { ...JSON.parse(DESCRIPTOR_JSON), pid: process.pid, socket: SOCKET };
const versions = { host: descriptor.host, extension: descriptor.extension && { version: descriptor.extension.version, protocolVersion: descriptor.extension.protocolVersion } };
const frame = (value) => { const body = Buffer.from(JSON.stringify(value)); const head = Buffer.alloc(4); head.writeUInt32LE(body.length); return Buffer.concat([head, body]); };
const server = createServer((client) => {
  let buffer = Buffer.alloc(0);
  client.on('error', () => {});
  client.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32LE(0)) {
      const size = buffer.readUInt32LE(0);
      const request = JSON.parse(buffer.subarray(4, 4 + size).toString());
      buffer = buffer.subarray(4 + size);
      if (request.tool === 'status') {
        client.write(frame({ id: request.id, ok: true, versions, result: { host: { version: descriptor.host.version, protocolVersion: descriptor.host.protocolVersion, pid: process.pid, socket: SOCKET }, extension: descriptor.extension, browser: { userAgent: 'Chrome/156.0.0.0', pid: descriptor.browserPid }, profile: descriptor.profile, pausedSince: null } }));
      } else if (request.tool === 'restart_host' && RESTART !== 'unsupported') {
        client.write(frame({ id: request.id, ok: true, versions, result: { reconnectInMs: 20 } }));
        if (RESTART === 'ok') setTimeout(() => { rmSync(DESCRIPTOR, { force: true }); server.close(); process.exit(0); }, 20);
      } else {
        client.write(frame({ id: request.id, ok: false, versions, error: { code: 'unsupported_tool', message: 'This extension does not know the tool "' + request.tool + '"; update the extension.', tool: request.tool, phase: 'dispatch', details: {}, retryable: false } }));
      }
    }
  });
});
server.listen(SOCKET, () => {
  chmodSync(SOCKET, 0o600);
  // Written then renamed, as the real host does, so readers never see half a file.
  writeFileSync(DESCRIPTOR + '.tmp', JSON.stringify(descriptor), { mode: 0o600 });
  renameSync(DESCRIPTOR + '.tmp', DESCRIPTOR);
  process.stdout.write('ready\n');
});
process.on('SIGTERM', () => { rmSync(DESCRIPTOR, { force: true }); process.exit(0); });
`;

export interface FakeHostProcess {
  child: ChildProcess;
  pid: number;
  exited: Promise<void>;
}

export async function spawnFakeHostProcess(spec: Omit<FakeHostSpec, 'pid'> & { restart: 'ok' | 'unsupported' | 'ignore' }): Promise<FakeHostProcess> {
  const run = join(spec.home, 'run');
  mkdirSync(run, { recursive: true, mode: 0o700 });
  chmodSync(run, 0o700);
  // The pid is unknown until spawn, so the child names its socket and descriptor after its own pid.
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD_SCRIPT], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      RUN: run,
      DESCRIPTOR_JSON: JSON.stringify(descriptorFor({ ...spec, pid: 0 }, '')),
      RESTART: spec.restart,
    },
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not spawn the fake host');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`fake host exited early (${code})`)));
  });
  return { child, pid, exited };
}
