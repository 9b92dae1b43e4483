import { describe, expect, it } from 'vitest';
import {
  ClientResponseSchema,
  encodeFrame,
  MAX_TO_EXTENSION_BYTES,
  parseResult,
  type ClientResponse,
  type ExtensionHello,
  type HostToExtension,
} from '@chrome-relay/protocol';
import { MAX_TIMEOUT_MS, Relay, type ClientPort } from './relay.js';

const HELLO: ExtensionHello = {
  type: 'hello',
  extension: { id: 'nplipfneioajmjoiadbinnjjicindjlf', version: '0.2.0', protocolVersion: 1 },
  userAgent: 'Mozilla/5.0 Test',
};
const CLIENT = { version: '0.1.0', protocolVersion: 1 };

class FakeClient implements ClientPort {
  readonly received: ClientResponse[] = [];
  closed = false;
  /** Responses above this JSON size throw like the real socket's encodeFrame does. */
  constructor(private readonly maxBytes = Infinity) {}
  send(response: ClientResponse): void {
    // Every response must be a valid envelope: check it where it is produced.
    ClientResponseSchema.parse(response);
    encodeFrame(response, this.maxBytes === Infinity ? Number.MAX_SAFE_INTEGER : this.maxBytes);
    this.received.push(response);
  }
  close(): void {
    this.closed = true;
  }
}

class FakeTimers {
  private readonly timers = new Map<number, { ms: number; fire: () => void }>();
  private next = 1;
  set = (ms: number, fire: () => void): (() => void) => {
    const id = this.next++;
    this.timers.set(id, { ms, fire });
    return () => this.timers.delete(id);
  };
  get count(): number {
    return this.timers.size;
  }
  fireAll(): void {
    const due = [...this.timers.values()];
    this.timers.clear();
    for (const timer of due) timer.fire();
  }
  get durations(): number[] {
    return [...this.timers.values()].map((t) => t.ms);
  }
}

function setup(options: { hello?: boolean } = {}) {
  const sent: HostToExtension[] = [];
  const logs: string[] = [];
  const timers = new FakeTimers();
  const relay = new Relay(
    {
      // Same check the real stdio channel does before writing.
      sendToExtension: (message) => {
        encodeFrame(message, MAX_TO_EXTENSION_BYTES);
        sent.push(message);
      },
      setTimer: timers.set,
      log: (line) => logs.push(line),
    },
    { pid: 4242, socket: '/run/host-4242.sock', browserPid: 100, profile: '/profiles/a' },
  );
  if (options.hello !== false) relay.extensionMessage(HELLO);
  return { relay, sent, logs, timers };
}

function request(id: number, tool: string, params: Record<string, unknown> = {}, timeoutMs = 5000) {
  return { id, tool, params, timeoutMs, client: CLIENT };
}

function calls(sent: HostToExtension[]) {
  return sent.flatMap((m) => (m.type === 'call' ? [m] : []));
}

describe('Relay', () => {
  it('correlates two clients that use the same request id', () => {
    const { relay, sent } = setup();
    const a = new FakeClient();
    const b = new FakeClient();
    relay.clientMessage(a, request(1, 'tabs'));
    relay.clientMessage(b, request(1, 'snapshot', { tab: 7 }));
    const [callA, callB] = calls(sent);
    expect(callA).toMatchObject({ type: 'call', tool: 'tabs', params: {}, timeoutMs: 5000 });
    expect(callB).toMatchObject({ type: 'call', tool: 'snapshot', params: { tab: 7 } });
    expect(callA?.id).not.toBe(callB?.id);

    // Answer out of order.
    relay.extensionMessage({ type: 'result', id: callB?.id ?? -1, ok: true, result: 'for b' });
    relay.extensionMessage({ type: 'result', id: callA?.id ?? -1, ok: true, result: 'for a' });
    expect(a.received).toEqual([
      { id: 1, ok: true, result: 'for a', versions: { host: { version: '0.1.0', protocolVersion: 1 }, extension: { version: '0.2.0', protocolVersion: 1 } } },
    ]);
    expect(b.received).toMatchObject([{ id: 1, ok: true, result: 'for b' }]);
    expect(relay.pendingCount).toBe(0);
  });

  it('passes extension errors through, filling the tool when the extension left it empty', () => {
    const { relay, sent } = setup();
    const client = new FakeClient();
    relay.clientMessage(client, request(9, 'click', { ref: '@e1' }));
    const error = { code: 'stale_ref' as const, message: 'gone', tool: '', phase: 'resolve' as const, details: { ref: '@e1' }, retryable: false };
    relay.extensionMessage({ type: 'error', id: calls(sent)[0]?.id ?? -1, error });
    expect(client.received).toMatchObject([{ id: 9, ok: false, error: { ...error, tool: 'click' } }]);
  });

  it('answers timeout at the request deadline and drops the late answer', () => {
    const { relay, sent, timers, logs } = setup();
    const client = new FakeClient();
    relay.clientMessage(client, request(3, 'snapshot', {}, 1234));
    expect(timers.durations).toEqual([1234]);
    timers.fireAll();
    expect(client.received).toMatchObject([
      { id: 3, ok: false, error: { code: 'timeout', phase: 'host', tool: 'snapshot', details: { timeoutMs: 1234, tool: 'snapshot', reason: 'extension_unresponsive' }, retryable: true } },
    ]);
    relay.extensionMessage({ type: 'result', id: calls(sent)[0]?.id ?? -1, ok: true, result: 'late' });
    expect(client.received).toHaveLength(1);
    expect(logs.join('\n')).toMatch(/dropping an answer/);
  });

  it('a mutating call that times out may have acted: not retryable, and the message says to check the page', () => {
    const { relay, timers } = setup();
    const client = new FakeClient();
    relay.clientMessage(client, request(5, 'click', { ref: 'e1' }, 1000));
    timers.fireAll();
    expect(client.received).toMatchObject([
      { id: 5, ok: false, error: { code: 'timeout', tool: 'click', retryable: false, details: { reason: 'extension_unresponsive', mayHaveActed: true } } },
    ]);
    expect(client.received[0]?.ok === false && client.received[0].error.message).toMatch(/snapshot.*check the page before re-issuing/);
  });

  it('cancels the deadline when the answer arrives', () => {
    const { relay, sent, timers } = setup();
    const client = new FakeClient();
    relay.clientMessage(client, request(3, 'tabs'));
    relay.extensionMessage({ type: 'result', id: calls(sent)[0]?.id ?? -1, ok: true, result: {} });
    expect(timers.count).toBe(0);
  });

  it('forgets the calls of a client that disconnected', () => {
    const { relay, sent, timers } = setup();
    const gone = new FakeClient();
    const stays = new FakeClient();
    relay.clientMessage(gone, request(1, 'tabs'));
    relay.clientMessage(stays, request(2, 'tabs'));
    relay.clientClosed(gone);
    expect(relay.pendingCount).toBe(1);
    expect(timers.count).toBe(1);
    const [first, second] = calls(sent);
    relay.extensionMessage({ type: 'result', id: first?.id ?? -1, ok: true, result: 'late' });
    relay.extensionMessage({ type: 'result', id: second?.id ?? -1, ok: true, result: 'ok' });
    expect(gone.received).toEqual([]);
    expect(stays.received).toMatchObject([{ id: 2, ok: true, result: 'ok' }]);
  });

  it('answers status locally with a result that matches its schema', () => {
    const { relay, sent } = setup();
    const client = new FakeClient();
    relay.clientMessage(client, request(5, 'status'));
    expect(sent).toEqual([]);
    const response = client.received[0];
    expect(response?.ok).toBe(true);
    const result = parseResult('status', response?.ok ? response.result : undefined);
    expect(result).toEqual({
      host: { version: '0.1.0', protocolVersion: 1, pid: 4242, socket: '/run/host-4242.sock' },
      extension: { id: HELLO.extension.id, version: '0.2.0', protocolVersion: 1 },
      browser: { userAgent: 'Mozilla/5.0 Test', pid: 100 },
      profile: '/profiles/a',
    });
  });

  it('answers status without an extension, and rejects unknown status options', () => {
    const { relay } = setup({ hello: false });
    const client = new FakeClient();
    relay.clientMessage(client, request(1, 'status'));
    relay.clientMessage(client, request(2, 'status', { verbose: true }));
    expect(client.received[0]).toMatchObject({ id: 1, ok: true, result: { extension: null, browser: null }, versions: { extension: null } });
    expect(client.received[1]).toMatchObject({ id: 2, ok: false, error: { code: 'invalid_arguments', tool: 'status', details: { field: 'verbose' } } });
  });

  it('answers a call too big for Chrome with invalid_arguments instead of sending it', () => {
    const { relay, sent, timers } = setup();
    const client = new FakeClient();
    relay.clientMessage(client, request(8, 'type', { text: 'x'.repeat(MAX_TO_EXTENSION_BYTES) }));
    expect(calls(sent)).toEqual([]);
    expect(timers.count).toBe(0);
    expect(client.received).toMatchObject([
      { id: 8, ok: false, error: { code: 'invalid_arguments', phase: 'transport', tool: 'type', details: { limit: MAX_TO_EXTENSION_BYTES } } },
    ]);
  });

  it('replaces a result too big for the socket with an error for the same id', () => {
    const { relay, sent } = setup();
    const client = new FakeClient(1000);
    relay.clientMessage(client, request(4, 'snapshot'));
    relay.extensionMessage({ type: 'result', id: calls(sent)[0]?.id ?? -1, ok: true, result: 'y'.repeat(2000) });
    expect(client.received).toMatchObject([{ id: 4, ok: false, error: { code: 'invalid_arguments', tool: 'snapshot', phase: 'transport' } }]);
  });

  it('answers pending calls native_host_disconnected when the extension side closes, and refuses new ones', () => {
    const { relay, timers } = setup();
    const a = new FakeClient();
    const b = new FakeClient();
    relay.clientMessage(a, request(1, 'tabs'));
    relay.clientMessage(b, request(2, 'snapshot'));
    relay.extensionClosed();
    expect(timers.count).toBe(0);
    for (const [client, id, tool] of [[a, 1, 'tabs'], [b, 2, 'snapshot']] as const) {
      expect(client.received).toMatchObject([{ id, ok: false, error: { code: 'native_host_disconnected', tool, retryable: true } }]);
    }
    relay.clientMessage(a, request(3, 'tabs'));
    expect(a.received[1]).toMatchObject({ id: 3, ok: false, error: { code: 'native_host_disconnected' } });
  });

  it('says why the host went away, and a mutation cut off by it is not retryable', () => {
    const { relay } = setup();
    const reader = new FakeClient();
    const clicker = new FakeClient();
    relay.clientMessage(reader, request(1, 'tabs'));
    relay.clientMessage(clicker, request(2, 'click', { ref: 'e1' }));
    relay.extensionClosed('stopped');
    const [read] = reader.received;
    const [click] = clicker.received;
    expect(read).toMatchObject({ ok: false, error: { code: 'native_host_disconnected', retryable: true, details: { cause: 'stopped' } } });
    expect(read?.ok === false && read.error.message).toMatch(/native host was stopped/);
    expect(read?.ok === false && read.error.message).not.toMatch(/browser closed/);
    expect(click).toMatchObject({ ok: false, error: { code: 'native_host_disconnected', retryable: false, details: { mayHaveActed: true } } });
    // A call that arrives after the host started exiting was never forwarded: it cannot have acted.
    relay.clientMessage(clicker, request(3, 'click', { ref: 'e1' }));
    expect(clicker.received[1]).toMatchObject({ ok: false, error: { code: 'native_host_disconnected', phase: 'connect', retryable: true } });
  });

  it('answers a malformed request with invalid_arguments and keeps serving the client', () => {
    const { relay, sent } = setup();
    const client = new FakeClient();
    relay.clientMessage(client, { id: 6, tool: 'tabs', params: {} }); // no timeoutMs, no client
    relay.clientMessage(client, 'not an object');
    relay.clientMessage(client, request(7, 'tabs'));
    expect(client.received[0]).toMatchObject({ id: 6, ok: false, error: { code: 'invalid_arguments', tool: 'tabs', phase: 'transport' } });
    expect(client.received[1]).toMatchObject({ id: 0, ok: false, error: { code: 'invalid_arguments' } });
    expect(client.closed).toBe(false);
    expect(calls(sent)).toHaveLength(1);
  });

  it('rejects a deadline setTimeout cannot represent', () => {
    const { relay, sent } = setup();
    const client = new FakeClient();
    relay.clientMessage(client, request(1, 'tabs', {}, MAX_TIMEOUT_MS + 1));
    expect(client.received).toMatchObject([{ id: 1, ok: false, error: { code: 'invalid_arguments', details: { field: 'timeoutMs' } } }]);
    expect(sent).toEqual([]);
  });

  it('answers a corrupt client stream with invalid_arguments, then closes it', () => {
    const { relay } = setup();
    const client = new FakeClient();
    relay.clientMessage(client, request(1, 'tabs'));
    relay.clientFrameFault(client, { kind: 'oversize', bytes: 70_000_000, limit: 67_108_864 });
    expect(client.received).toMatchObject([{ id: 0, ok: false, error: { code: 'invalid_arguments', details: { bytes: 70_000_000 } } }]);
    expect(client.closed).toBe(true);
    expect(relay.pendingCount).toBe(0);
  });

  it('fails the matching call with internal_error when the extension sends a malformed answer', () => {
    const { relay, sent, logs } = setup();
    const client = new FakeClient();
    relay.clientMessage(client, request(2, 'tabs'));
    relay.extensionInvalid({ type: 'result', id: calls(sent)[0]?.id, ok: 'yes' }, 'bad ok');
    expect(client.received).toMatchObject([{ id: 2, ok: false, error: { code: 'internal_error', tool: 'tabs' } }]);
    relay.extensionInvalid({ nonsense: true }, 'no type');
    expect(logs.filter((l) => l.includes('malformed'))).toHaveLength(2);
  });
});
