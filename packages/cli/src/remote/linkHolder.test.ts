import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, VERSION, type ClientResponse } from '@chrome-relay/protocol';
import { exchange } from '../socketCall.js';
import { parseEndpoint } from './endpoint.js';
import { linkPaths, linkPeer, type HeldEndpoint } from './linkClient.js';
import { runLinkHolder } from './linkHolder.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cr-link-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A stand-in bridge on stdio, in plain JS: it greets, then answers each request with its tool and id — or, per MODE,
 * says something on stderr and exits before greeting ('fail'), or exits at the first request ('die').
 */
const FAKE_BRIDGE = String.raw`
const frame = (value) => { const body = Buffer.from(JSON.stringify(value)); const head = Buffer.alloc(4); head.writeUInt32LE(body.length); return Buffer.concat([head, body]); };
const mode = process.argv[2];
if (mode === 'fail') { process.stderr.write('Permission denied (publickey).\n'); process.exit(255); }
process.stdout.write(frame({ type: 'bridge', version: '0.1.0', protocolVersion: 1, via: { kind: 'cmd', label: 'fake' }, pid: process.pid }));
let buffer = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32LE(0)) {
    const request = JSON.parse(buffer.subarray(4, 4 + buffer.readUInt32LE(0)).toString());
    buffer = buffer.subarray(4 + buffer.readUInt32LE(0));
    if (mode === 'die') process.exit(1);
    const answer = () => process.stdout.write(frame({ id: request.id, ok: true, result: { tool: request.tool, linkId: request.id }, versions: { host: { version: '0.1.0', protocolVersion: 1 }, extension: null } }));
    // The first call answers last, so answers cross on the link.
    if (request.tool === 'slow') setTimeout(answer, 200); else answer();
  }
});
`;

function endpointFor(mode: string): HeldEndpoint {
  const script = join(dir, 'bridge.cjs');
  writeFileSync(script, FAKE_BRIDGE);
  const endpoint = parseEndpoint(`cmd:${process.execPath} ${script} ${mode}`, 'endpoint');
  if (endpoint.kind === 'unix') throw new Error('not a held endpoint');
  return endpoint;
}

async function holder(mode: string): Promise<{ endpoint: HeldEndpoint; socket: string; ended: Promise<void>; stop: () => void }> {
  const endpoint = endpointFor(mode);
  const stopper = new AbortController();
  const ended = runLinkHolder(endpoint, join(dir, 'home'), stopper.signal);
  const socket = linkPaths(join(dir, 'home'), endpoint).socket;
  for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 10));
  return { endpoint, socket, ended, stop: () => stopper.abort() };
}

function callOn(socket: string, endpoint: HeldEndpoint, tool: string): Promise<ClientResponse> {
  const client: Socket = connect(socket);
  const request = { id: 1, tool, params: {}, timeoutMs: 5000, client: { version: VERSION, protocolVersion: PROTOCOL_VERSION } };
  return exchange(client, false, request, tool, 5000, linkPeer(endpoint));
}

describe('the link holder', () => {
  it("carries many clients' calls on one link, each answered under its own id", async () => {
    const { endpoint, socket, ended, stop } = await holder('ok');
    const [slow, fast] = await Promise.all([callOn(socket, endpoint, 'slow'), callOn(socket, endpoint, 'fast')]);
    expect(slow).toMatchObject({ id: 1, ok: true, result: { tool: 'slow' } });
    expect(fast).toMatchObject({ id: 1, ok: true, result: { tool: 'fast' } });
    // Both went out on the one link under ids of the holder's own.
    expect(new Set([slow, fast].map((r) => (r.ok ? (r.result as { linkId: number }).linkId : 0))).size).toBe(2);
    stop();
    await ended;
    expect(existsSync(socket)).toBe(false);
  });

  it('a command that ends before the bridge greets is link_failed, with what it said; the holder removes its socket', async () => {
    const { endpoint, socket, ended } = await holder('fail');
    const error = await callOn(socket, endpoint, 'tabs').then(
      (response) => (response.ok ? null : response.error),
      (thrown: unknown) => ({ code: String(thrown) }),
    );
    expect(error).toMatchObject({ code: 'extension_not_connected', details: { reason: 'link_failed', linkSaid: 'Permission denied (publickey).' } });
    await ended;
    expect(existsSync(socket)).toBe(false);
  });

  it('a link that ends under a call is link_lost, "may have acted" for a mutating one', async () => {
    const { endpoint, socket, ended } = await holder('die');
    const response = await callOn(socket, endpoint, 'click');
    expect(response).toMatchObject({ ok: false, error: { code: 'native_host_disconnected', retryable: false, details: { reason: 'link_lost', mayHaveActed: true } } });
    await ended;
  });
});
