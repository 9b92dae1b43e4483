import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pairingProof } from '@chrome-relay/host-files';
import { BRIDGED_SINCE_PROTOCOL, encodeFrame, FrameDecoder, MAX_SOCKET_FRAME_BYTES, PROTOCOL_VERSION, VERSION, type ClientResponse } from '@chrome-relay/protocol';
import { descriptorFor, startFakeHost, type FakeHost } from '../testing/fakeHost.js';
import { BridgeLink, type BridgeOptions } from './bridge.js';
import { stdioVia } from './bridgeServe.js';

let home = '';
let host: FakeHost | undefined;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cr-bridge-'));
});
const links: BridgeLink[] = [];
afterEach(async () => {
  for (const open of links.splice(0)) open.closed();
  await host?.close();
  host = undefined;
  rmSync(home, { recursive: true, force: true });
});

/** A bridge link whose far side is this test: what it sends back, decoded; whether it ended the link, or stopped reading it. */
function link(options: Partial<BridgeOptions> = {}) {
  const answers: ClientResponse[] = [];
  const decoder = new FrameDecoder(MAX_SOCKET_FRAME_BYTES);
  let closed = false;
  let paused = false;
  const bridge = new BridgeLink(
    { home, via: { kind: 'ssh', label: '10.0.0.5' }, log: () => undefined, ...options },
    {
      send: (frame) => answers.push(...(decoder.push(frame) as ClientResponse[])),
      pause: () => (paused = true),
      resume: () => (paused = false),
      close: () => (closed = true),
    },
  );
  links.push(bridge);
  const request = (message: Record<string, unknown>): void => bridge.receive(encodeFrame(message, MAX_SOCKET_FRAME_BYTES));
  const answered = async (count: number): Promise<ClientResponse[]> => {
    for (let i = 0; i < 200 && answers.length < count; i++) await new Promise((r) => setTimeout(r, 10));
    return answers;
  };
  return { bridge, request, answered, closed: () => closed, paused: () => paused };
}

const call = (id: number, tool: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  tool,
  params: {},
  timeoutMs: 5000,
  client: { version: VERSION, protocolVersion: PROTOCOL_VERSION },
  ...extra,
});

describe('the bridge', () => {
  it('stamps its own via on every call (a client\'s is overwritten), drops profile and auth, and relays the answer as the host gave it', async () => {
    host = await startFakeHost({ home, pid: process.pid, extension: { id: 'x', version: '9.9.9', protocolVersion: PROTOCOL_VERSION } });
    const { request, answered } = link();
    request(call(7, 'status', { via: { kind: 'cmd', label: 'this machine, honest' }, auth: 'f'.repeat(64), profile: '' }));
    const [answer] = await answered(1);
    expect(answer).toMatchObject({ id: 7, ok: true });
    // The versions the agent's CLI compares with its own (skew notices) come through untouched.
    expect(answer?.versions.extension).toEqual({ version: '9.9.9', protocolVersion: PROTOCOL_VERSION });
    const sent = host.requests[0] as unknown as Record<string, unknown>;
    expect(sent.via).toEqual({ kind: 'ssh', label: '10.0.0.5' });
    expect(sent).not.toHaveProperty('auth');
    expect(sent).not.toHaveProperty('profile');
    expect(sent.client).toEqual({ version: VERSION, protocolVersion: PROTOCOL_VERSION });
  });

  it('passes an action\'s snapshot on only to a host and extension of the client\'s own build', async () => {
    host = await startFakeHost({ home, pid: process.pid });
    const { request, answered } = link();
    request(call(1, 'status', { snapshot: { interactive: true } }));
    request(call(2, 'status', { snapshot: { interactive: true }, client: { version: '0.0.1', protocolVersion: PROTOCOL_VERSION } }));
    await answered(2);
    expect(host.requests.map((r) => (r as unknown as Record<string, unknown>).snapshot)).toEqual([{ interactive: true }, undefined]);
  });

  it('with no host on the person\'s machine, says so in words for an agent elsewhere', async () => {
    const { request, answered } = link();
    request(call(3, 'tabs'));
    const [answer] = await answered(1);
    expect(answer).toMatchObject({ id: 3, ok: false, error: { code: 'extension_not_connected', details: { reason: 'no_host' } } });
    expect(answer?.ok === false && answer.error.message).toMatch(/on the person's machine .* behind this bridge/);
  });

  it('paired: a request without the pairing proof is refused before anything of it is read, and the link ends', async () => {
    host = await startFakeHost({ home, pid: process.pid });
    const proof = pairingProof('a'.repeat(64));
    const refused = link({ pairingProof: proof });
    refused.request(call(1, 'status', { auth: pairingProof('b'.repeat(64)) }));
    const [answer] = await refused.answered(1);
    expect(answer).toMatchObject({ id: 1, ok: false, error: { code: 'extension_not_connected', details: { reason: 'not_paired' } } });
    expect(refused.closed()).toBe(true);
    expect(host.requests).toHaveLength(0);
    const paired = link({ pairingProof: proof });
    paired.request(call(2, 'status', { auth: proof }));
    expect((await paired.answered(1))[0]).toMatchObject({ id: 2, ok: true });
  });

  it.each([
    ['a host', { hostVersion: '0.0.9', hostProtocolVersion: BRIDGED_SINCE_PROTOCOL - 1 }],
    ['an extension', { extension: { id: 'x', version: '0.0.9', protocolVersion: BRIDGED_SINCE_PROTOCOL - 1 } }],
  ])('%s from before bridged calls (an older protocol) is sent nothing: host_outdated, with the move', async (_which, old) => {
    host = await startFakeHost({ home, pid: process.pid, ...old });
    const { request, answered } = link();
    request(call(5, 'click', { params: { ref: 'e1' } }));
    const [answer] = await answered(1);
    expect(answer).toMatchObject({ id: 5, ok: false, error: { code: 'extension_not_connected', tool: 'click', retryable: false, details: { reason: 'host_outdated', bridge: { version: VERSION, protocolVersion: PROTOCOL_VERSION } } } });
    const message = answer?.ok === false ? answer.error.message : '';
    expect(message).toContain('0.0.9');
    expect(message).toContain('`chrome-relay update`');
    expect(message).toMatch(/restart their browser or reload chrome-relay's extension/);
    expect(host.requests).toHaveLength(0);
  });

  it('a malformed request is answered, not forwarded', async () => {
    host = await startFakeHost({ home, pid: process.pid });
    const { request, answered } = link();
    request({ tool: 'status' });
    request(call(4, 'status', { profile: 12 }));
    const answers = await answered(2);
    expect(answers.map((a) => [a.id, a.ok === false && a.error.code])).toEqual([
      [0, 'invalid_arguments'],
      [4, 'invalid_arguments'],
    ]);
    expect(host.requests).toHaveLength(0);
  });
});

describe('a hostile client', () => {
  it('a frame over the request limit is answered and ends the link; nothing reaches a host', async () => {
    host = await startFakeHost({ home, pid: process.pid });
    const { bridge, answered, closed } = link();
    const header = new Uint8Array(4);
    new DataView(header.buffer).setUint32(0, 64 * 1024 * 1024, true);
    bridge.receive(header);
    expect((await answered(1))[0]).toMatchObject({ id: 0, ok: false, error: { code: 'invalid_arguments' } });
    expect(closed()).toBe(true);
    expect(host.requests).toHaveLength(0);
  });

  it('calls piled up past the limit stop the link being read (they wait in its pipe), and it is read again as they are answered', async () => {
    // A host that takes every call and answers none until told.
    const run = join(home, 'run');
    mkdirSync(run, { recursive: true, mode: 0o700 });
    const socket = join(run, `host-${process.pid}.sock`);
    const held: { client: Socket; id: number }[] = [];
    const server = createServer((client) => {
      const decoder = new FrameDecoder(MAX_SOCKET_FRAME_BYTES);
      client.on('data', (chunk: Buffer) => {
        for (const message of decoder.push(chunk) as { id: number }[]) held.push({ client, id: message.id });
      });
    });
    await new Promise<void>((r) => server.listen(socket, r));
    writeFileSync(join(run, `host-${process.pid}.json`), JSON.stringify(descriptorFor({ home, pid: process.pid }, socket)));
    try {
      const { request, answered, paused } = link();
      for (let id = 1; id <= 64; id++) request(call(id, 'tabs'));
      expect(paused()).toBe(true);
      for (let i = 0; i < 200 && held.length < 64; i++) await new Promise((r) => setTimeout(r, 10));
      const first = held[0];
      if (first === undefined) throw new Error('the host took no call');
      first.client.write(encodeFrame({ id: first.id, ok: true, result: {}, versions: { host: { version: VERSION, protocolVersion: PROTOCOL_VERSION }, extension: null } }, MAX_SOCKET_FRAME_BYTES));
      await answered(1);
      expect(paused()).toBe(false);
    } finally {
      for (const open of links.splice(0)) open.closed();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('a host that goes away with a call in flight', () => {
  it('answers each call on it native_host_disconnected — "may have acted" for a mutating one — and the next call opens a new connection', async () => {
    const run = join(home, 'run');
    mkdirSync(run, { recursive: true, mode: 0o700 });
    const socket = join(run, `host-${process.pid}.sock`);
    let connections = 0;
    // A host that takes the call and dies without answering, once; then answers like any host.
    const server = createServer((client) => {
      connections++;
      const first = connections === 1;
      const decoder = new FrameDecoder(MAX_SOCKET_FRAME_BYTES);
      client.on('data', (chunk: Buffer) => {
        for (const message of decoder.push(chunk) as { id: number }[]) {
          if (first) client.destroy();
          else client.write(encodeFrame({ id: message.id, ok: true, result: {}, versions: { host: { version: VERSION, protocolVersion: PROTOCOL_VERSION }, extension: null } }, MAX_SOCKET_FRAME_BYTES));
        }
      });
    });
    await new Promise<void>((r) => server.listen(socket, r));
    writeFileSync(join(run, `host-${process.pid}.json`), JSON.stringify(descriptorFor({ home, pid: process.pid }, socket)));
    try {
      const { request, answered } = link();
      request(call(1, 'click'));
      const [cut] = await answered(1);
      expect(cut).toMatchObject({ id: 1, ok: false, error: { code: 'native_host_disconnected', retryable: false, details: { reason: 'host_exited', mayHaveActed: true } } });
      request(call(2, 'tabs'));
      expect((await answered(2))[1]).toMatchObject({ id: 2, ok: true });
      expect(connections).toBe(2);
    } finally {
      for (const open of links.splice(0)) open.closed();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('where a bridge on stdio says its calls come from', () => {
  it('ssh with the client address sshd gives it, else a command; --label names it further', () => {
    expect(stdioVia({ SSH_CONNECTION: '10.0.0.5 51234 10.0.0.1 22' }, undefined)).toEqual({ kind: 'ssh', label: '10.0.0.5' });
    expect(stdioVia({ SSH_CONNECTION: '10.0.0.5 51234 10.0.0.1 22' }, 'devbox')).toEqual({ kind: 'ssh', label: '10.0.0.5 (devbox)' });
    expect(stdioVia({}, undefined)).toEqual({ kind: 'cmd', label: 'stdio' });
    expect(stdioVia({}, 'wsl')).toEqual({ kind: 'cmd', label: 'wsl' });
  });
});
