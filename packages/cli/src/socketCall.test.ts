import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, PROTOCOL_VERSION, VERSION } from '@chrome-relay/protocol';
import { callSocket } from './socketCall.js';
import { failureOf } from './testing/relayFailure.js';

let server: Server | undefined;
let dir = '';
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * A host that takes the request, then dies without answering ('die'), never answers ('hang'), or answers
 * as the host does a request it could not read ('unreadable': an error for id 0, then it hangs up).
 */
async function host(behaviour: 'die' | 'hang' | 'unreadable'): Promise<string> {
  dir = mkdtempSync(join(tmpdir(), 'cr-sock-'));
  const path = join(dir, 'h.sock');
  server = createServer((socket) => {
    socket.once('data', () => {
      if (behaviour === 'die') socket.destroy();
      if (behaviour === 'unreadable') {
        const error = { code: 'invalid_arguments', message: 'Request nests too deep.', tool: '', phase: 'transport', details: {}, retryable: false };
        socket.end(encodeFrame({ id: 0, ok: false, error, versions: { host: { version: VERSION, protocolVersion: PROTOCOL_VERSION }, extension: null } }, 4096));
      }
    });
  });
  await new Promise<void>((resolve) => server?.listen(path, resolve));
  return path;
}

describe('callSocket failures', () => {
  it('a host that dies mid-call: native_host_disconnected, retryable for a read, not for a mutation', async () => {
    const path = await host('die');
    const read = await failureOf(callSocket(path, 'tabs', {}, 5000));
    expect(read.toData()).toMatchObject({ code: 'native_host_disconnected', tool: 'tabs', retryable: true, details: { cause: 'host_died' } });
    expect(read.message).toMatch(/killed or crashed/);
    const click = await failureOf(callSocket(path, 'click', { ref: 'e1' }, 5000));
    expect(click.toData()).toMatchObject({ code: 'native_host_disconnected', tool: 'click', retryable: false, details: { mayHaveActed: true } });
    expect(click.message).toMatch(/check the page before re-issuing/);
  });

  it('a host that never answers: timeout with the host_unresponsive reason', async () => {
    const path = await host('hang');
    const error = await failureOf(callSocket(path, 'snapshot', {}, 50));
    expect(error.toData()).toMatchObject({ code: 'timeout', retryable: true, details: { reason: 'host_unresponsive', timeoutMs: 50 } });
  });

  it('a request the host could not read: its id-0 answer is this call\'s answer, not "the host went away"', async () => {
    const path = await host('unreadable');
    const response = await callSocket(path, 'tabs', {}, 5000);
    expect(response).toMatchObject({ id: 0, ok: false, error: { code: 'invalid_arguments' } });
  });
});
