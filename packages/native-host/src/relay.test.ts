import { describe, expect, it } from 'vitest';
import {
  ClientResponseSchema,
  encodeFrame,
  MAX_TO_EXTENSION_BYTES,
  parseResult,
  PROTOCOL_VERSION,
  RESTART_DRAIN_MS,
  type ClientResponse,
  type ExtensionHello,
  type HostToExtension,
  TOOL_NAMES,
  TOOLS,
} from '@chrome-relay/protocol';
import { BREAKER_THRESHOLD } from './breaker.js';
import { HOST_ANSWERS, MAX_TIMEOUT_MS, PROBE_EVERY_MS, Relay, RESTART_GIVE_UP_MS, type ClientPort } from './relay.js';

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
    ClientResponseSchema().parse(response);
    encodeFrame(response, this.maxBytes === Infinity ? Number.MAX_SAFE_INTEGER : this.maxBytes);
    this.received.push(response);
  }
  close(): void {
    this.closed = true;
  }
}

/** Timers on a virtual clock: `advance` fires what falls due, in order; `fireAll` fires everything set so far. */
class FakeTimers {
  private readonly timers = new Map<number, { ms: number; at: number; fire: () => void }>();
  private next = 1;
  clock = 0;
  now = (): number => this.clock;
  set = (ms: number, fire: () => void): (() => void) => {
    const id = this.next++;
    this.timers.set(id, { ms, at: this.clock + ms, fire });
    return () => this.timers.delete(id);
  };
  advance(ms: number): void {
    const until = this.clock + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= until).sort(([, a], [, b]) => a.at - b.at)[0];
      if (due === undefined) break;
      const [id, timer] = due;
      this.timers.delete(id);
      this.clock = timer.at;
      timer.fire();
    }
    this.clock = until;
  }
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
      now: timers.now,
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
    // The CLI's version rides along, so the extension can show the person which CLI acts.
    expect(callA).toMatchObject({ type: 'call', tool: 'tabs', params: {}, timeoutMs: 5000, client: CLIENT });
    expect(callB).toMatchObject({ type: 'call', tool: 'snapshot', params: { tab: 7 } });
    expect(callA?.id).not.toBe(callB?.id);

    // Answer out of order.
    relay.extensionMessage({ type: 'result', id: callB?.id ?? -1, ok: true, result: 'for b' });
    relay.extensionMessage({ type: 'result', id: callA?.id ?? -1, ok: true, result: 'for a' });
    expect(a.received).toEqual([
      { id: 1, ok: true, result: 'for a', versions: { host: { version: '0.1.0', protocolVersion: PROTOCOL_VERSION }, extension: { version: '0.2.0', protocolVersion: 1 } } },
    ]);
    expect(b.received).toMatchObject([{ id: 1, ok: true, result: 'for b' }]);
    expect(relay.pendingCount).toBe(0);
  });

  it('forwards a snapshot request with the call, and its answer beside the result, untouched', () => {
    const { relay, sent } = setup();
    const client = new FakeClient();
    relay.clientMessage(client, { ...request(5, 'click', { ref: 'e1' }), snapshot: { interactive: true } });
    const [call] = calls(sent);
    expect(call).toMatchObject({ type: 'call', tool: 'click', params: { ref: 'e1' }, snapshot: { interactive: true } });
    const snapshot = { ok: false as const, error: { code: 'timeout' as const, message: 'slow', tool: 'snapshot', phase: 'act' as const, details: { reason: 'navigating' }, retryable: true } };
    relay.extensionMessage({ type: 'result', id: call?.id ?? -1, ok: true, result: { tabId: 3 }, snapshot });
    expect(client.received).toMatchObject([{ id: 5, ok: true, result: { tabId: 3 }, snapshot }]);
    relay.clientMessage(client, request(6, 'tabs'));
    expect(calls(sent)[1]).not.toHaveProperty('snapshot');
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
      host: { version: '0.1.0', protocolVersion: PROTOCOL_VERSION, pid: 4242, socket: '/run/host-4242.sock' },
      extension: { id: HELLO.extension.id, version: '0.2.0', protocolVersion: 1 },
      browser: { userAgent: 'Mozilla/5.0 Test', pid: 100 },
      profile: '/profiles/a',
      pausedSince: null,
    });
  });

  it("passes on the person's pause from the extension's latest hello", () => {
    const { relay } = setup();
    const status = (): unknown => {
      const client = new FakeClient();
      relay.clientMessage(client, request(6, 'status'));
      const response = client.received[0];
      return response?.ok ? (response.result as { pausedSince: unknown }).pausedSince : undefined;
    };
    relay.extensionMessage({ ...HELLO, pausedSince: 1_700_000_000_000 });
    expect(status()).toBe(1_700_000_000_000);
    relay.extensionMessage({ ...HELLO, pausedSince: null });
    expect(status()).toBeNull();
  });

  it("hands a bridge's via to the extension with the call; refuses the tools it answers itself to bridged calls once the person turned them off", () => {
    const { relay, sent } = setup();
    const via = { kind: 'ssh' as const, label: '10.0.0.5' };
    const client = new FakeClient();
    relay.clientMessage(client, { ...request(1, 'tabs'), via });
    expect(calls(sent)[0]).toMatchObject({ tool: 'tabs', via });
    relay.clientMessage(client, { ...request(2, 'status'), via });
    expect(client.received.at(-1)).toMatchObject({ id: 2, ok: true });
    relay.extensionMessage({ ...HELLO, remoteAgents: false });
    for (const [id, tool] of [[3, 'status'], [4, 'rearm'], [5, 'restart_host']] as const) {
      relay.clientMessage(client, { ...request(id, tool), via });
      expect(client.received.at(-1)).toMatchObject({ id, ok: false, error: { code: 'target_conflict', details: { reason: 'remote_agents_off', via } } });
    }
    // A local client, and the extension's own tools (its dispatcher decides those), are not the host's to refuse.
    relay.clientMessage(client, request(6, 'status'));
    expect(client.received.at(-1)).toMatchObject({ id: 6, ok: true });
    relay.clientMessage(client, { ...request(7, 'tabs'), via });
    expect(calls(sent).at(-1)).toMatchObject({ tool: 'tabs', via });
  });

  it('answers exactly the tools the registry says the host answers, and never forwards one of them', () => {
    const answered = TOOL_NAMES.filter((tool) => TOOLS[tool].answeredBy === 'host');
    expect(Object.keys(HOST_ANSWERS).sort()).toEqual([...answered].sort());
    const { relay, sent } = setup();
    const client = new FakeClient();
    answered.forEach((tool, i) => relay.clientMessage(client, request(i + 1, tool)));
    expect(calls(sent).filter((call) => answered.includes(call.tool as (typeof answered)[number]))).toEqual([]);
  });

  it('dispatches by the entry, not the name: a tool the registry does not know is forwarded, for the extension to refuse', () => {
    const { relay, sent } = setup();
    relay.clientMessage(new FakeClient(), request(1, 'no_such_tool'));
    expect(calls(sent)).toMatchObject([{ tool: 'no_such_tool' }]);
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

  it('names each limit a client connection broke, with the code that fits', () => {
    const answerFor = (fault: Parameters<Relay['clientFrameFault']>[1]) => {
      const { relay } = setup();
      const client = new FakeClient();
      relay.clientFrameFault(client, fault);
      expect(client.closed).toBe(true);
      return client.received[0];
    };
    expect(answerFor({ kind: 'too_deep', limit: 64 })).toMatchObject({ id: 0, error: { code: 'invalid_arguments', message: expect.stringMatching(/deeper than 64 levels/), retryable: false } });
    expect(answerFor({ kind: 'bad_json', text: '{' })).toMatchObject({ error: { code: 'invalid_arguments', details: { original: '{' } } });
    expect(answerFor({ kind: 'idle', idleMs: 30_000, pendingBytes: 9 })).toMatchObject({ error: { code: 'invalid_arguments', message: expect.stringMatching(/incomplete after 30000 ms/) } });
    // Not the client's fault: it never started, so it may simply retry.
    expect(answerFor({ kind: 'overloaded', pendingBytes: 20, limit: 10 })).toMatchObject({
      error: { code: 'native_host_disconnected', phase: 'connect', retryable: true, details: { cause: 'overloaded' } },
    });
    // A client on a named pipe without the proof of this user's secret: told so, nothing more.
    expect(answerFor({ kind: 'refused' })).toMatchObject({
      id: 0,
      error: { code: 'extension_not_connected', phase: 'connect', details: { reason: 'client_not_authorized' } },
      versions: { extension: null },
    });
  });

  it('tells a refused client nothing about the browser behind the host', () => {
    const { relay } = setup();
    relay.extensionMessage({ type: 'hello', extension: { id: 'nplipfneioajmjoiadbinnjjicindjlf', version: '0.1.0', protocolVersion: 1 }, userAgent: 'UA' });
    const client = new FakeClient();
    relay.clientFrameFault(client, { kind: 'refused' });
    expect(JSON.stringify(client.received)).not.toMatch(/UA|nplipfneioajmjoiadbinnjjicindjlf/);
  });

  it('survives a malformed extension message too deep to print', () => {
    const { relay, logs } = setup();
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => relay.extensionInvalid(deep, 'too deep')).not.toThrow();
    expect(logs.at(-1)).toMatch(/unprintable/);
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

describe('Relay circuit breaker', () => {
  const CALL_MS = 1000;

  /** Send one call and let its deadline pass with no answer from the extension. */
  function timeOut(relay: Relay, timers: FakeTimers, client: FakeClient, id: number): void {
    relay.clientMessage(client, request(id, 'tabs', {}, CALL_MS));
    timers.advance(CALL_MS);
  }

  function openCircuit() {
    const env = setup();
    const client = new FakeClient();
    for (let id = 1; id <= BREAKER_THRESHOLD; id++) timeOut(env.relay, env.timers, client, id);
    return { ...env, client };
  }

  const answer = (relay: Relay, id: number | undefined, result: unknown = {}) => relay.extensionMessage({ type: 'result', id: id ?? -1, ok: true, result });

  it(`opens after ${BREAKER_THRESHOLD} extension timeouts in a row; each of those still answers timeout`, () => {
    const { relay, client, logs } = openCircuit();
    expect(client.received.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['timeout', 'timeout', 'timeout']);
    expect(relay.circuitOpen).toBe(true);
    expect(logs.join('\n')).toMatch(/circuit open: 3 calls in a row/);
  });

  it('stays closed below the threshold', () => {
    const { relay, timers } = setup();
    const client = new FakeClient();
    for (let id = 1; id < BREAKER_THRESHOLD; id++) timeOut(relay, timers, client, id);
    expect(relay.circuitOpen).toBe(false);
  });

  it('an answer between timeouts resets the count (an error answer is an answer too)', () => {
    const { relay, sent, timers } = setup();
    const client = new FakeClient();
    timeOut(relay, timers, client, 1);
    timeOut(relay, timers, client, 2);
    relay.clientMessage(client, request(3, 'tabs', {}, CALL_MS));
    answer(relay, calls(sent).at(-1)?.id);
    timeOut(relay, timers, client, 4);
    timeOut(relay, timers, client, 5);
    expect(relay.circuitOpen).toBe(false);
    relay.clientMessage(client, request(6, 'click', { ref: 'e1' }, CALL_MS));
    const error = { code: 'stale_ref' as const, message: 'gone', tool: 'click', phase: 'resolve' as const, details: { reason: 'vanished' }, retryable: false };
    relay.extensionMessage({ type: 'error', id: calls(sent).at(-1)?.id ?? -1, error });
    timeOut(relay, timers, client, 7);
    timeOut(relay, timers, client, 8);
    expect(relay.circuitOpen).toBe(false);
    timeOut(relay, timers, client, 9);
    expect(relay.circuitOpen).toBe(true);
  });

  it('fails fast while open: extension_not_connected, reason circuit_open, naming doctor and reconnect, without sending or waiting', () => {
    const { relay, sent, timers } = openCircuit();
    const before = calls(sent).length;
    const pendingTimers = timers.count;
    const late = new FakeClient();
    relay.clientMessage(late, request(10, 'snapshot', {}, 30_000));
    expect(late.received).toHaveLength(1);
    const response = late.received[0];
    expect(response).toMatchObject({ id: 10, ok: false, error: { code: 'extension_not_connected', tool: 'snapshot', phase: 'host', details: { reason: 'circuit_open', consecutiveTimeouts: 3 } } });
    const message = response && !response.ok ? response.error.message : '';
    expect(message).toContain('chrome-relay doctor');
    expect(message).toContain('chrome-relay reconnect');
    expect(calls(sent)).toHaveLength(before);
    expect(timers.count).toBe(pendingTimers);
    expect(relay.pendingCount).toBe(0);
  });

  it('still forwards ping while open: doctor gets a real round trip', () => {
    const { relay, sent } = openCircuit();
    const doctor = new FakeClient();
    relay.clientMessage(doctor, request(11, 'ping', { page: true }, 3000));
    const ping = calls(sent).at(-1);
    expect(ping).toMatchObject({ tool: 'ping', params: { page: true } });
    answer(relay, ping?.id, { extensionVersion: '0.2.0', page: null });
    expect(doctor.received).toMatchObject([{ id: 11, ok: true }]);
    expect(relay.circuitOpen).toBe(false);
  });

  it('rearm re-arms: it pings the extension, the answer closes the circuit, calls flow again', () => {
    const { relay, sent, timers } = openCircuit();
    timers.advance(1); // the round trip takes time on the clock
    const cli = new FakeClient();
    relay.clientMessage(cli, request(20, 'rearm', {}, 5000));
    const ping = calls(sent).at(-1);
    expect(ping).toMatchObject({ tool: 'ping', params: {}, timeoutMs: 5000 });
    timers.advance(7);
    answer(relay, ping?.id, { extensionVersion: '0.2.0' });
    expect(cli.received).toMatchObject([{ id: 20, ok: true, result: { wasOpen: true, roundTripMs: 7 } }]);
    expect(parseResult('rearm', cli.received[0]?.ok ? cli.received[0].result : undefined)).toEqual({ wasOpen: true, roundTripMs: 7 });
    expect(relay.circuitOpen).toBe(false);
    const agent = new FakeClient();
    relay.clientMessage(agent, request(21, 'tabs'));
    expect(calls(sent).at(-1)).toMatchObject({ tool: 'tabs' });
    expect(agent.received).toEqual([]);
  });

  it('rearm cuts no call in flight: another client\'s pending call still gets its own answer', () => {
    const { relay, sent } = setup();
    const agent = new FakeClient();
    relay.clientMessage(agent, request(1, 'snapshot', {}, 30_000));
    const snapshotCall = calls(sent).at(-1);
    const cli = new FakeClient();
    relay.clientMessage(cli, request(2, 'rearm', {}, 5000));
    answer(relay, calls(sent).at(-1)?.id, { extensionVersion: '0.2.0' });
    expect(cli.received).toMatchObject([{ id: 2, ok: true, result: { wasOpen: false } }]);
    expect(relay.pendingCount).toBe(1);
    answer(relay, snapshotCall?.id, 'the snapshot');
    expect(agent.received).toMatchObject([{ id: 1, ok: true, result: 'the snapshot' }]);
  });

  it('rearm fails while the extension stays silent: circuit_open when open, timeout when it was closed', () => {
    const { relay, timers } = openCircuit();
    const cli = new FakeClient();
    relay.clientMessage(cli, request(30, 'rearm', {}, 2000));
    timers.advance(2000);
    expect(cli.received).toMatchObject([{ id: 30, ok: false, error: { code: 'extension_not_connected', tool: 'rearm', details: { reason: 'circuit_open', timeoutMs: 2000 } } }]);
    expect(relay.circuitOpen).toBe(true);

    const fresh = setup();
    const other = new FakeClient();
    fresh.relay.clientMessage(other, request(31, 'rearm', {}, 2000));
    fresh.timers.advance(2000);
    expect(other.received).toMatchObject([{ id: 31, ok: false, error: { code: 'timeout', tool: 'rearm', details: { reason: 'extension_unresponsive' } } }]);
  });

  it('rearm rejects unknown params and reports a closed extension side', () => {
    const { relay } = setup();
    const cli = new FakeClient();
    relay.clientMessage(cli, request(40, 'rearm', { force: true }));
    expect(cli.received[0]).toMatchObject({ id: 40, ok: false, error: { code: 'invalid_arguments', details: { field: 'force' } } });
    relay.clientMessage(cli, request(41, 'rearm', {}));
    relay.extensionClosed();
    expect(cli.received[1]).toMatchObject({ id: 41, ok: false, error: { code: 'native_host_disconnected', tool: 'rearm' } });
  });

  it('a new hello (a restarted worker) closes it', () => {
    const { relay, sent } = openCircuit();
    relay.extensionMessage(HELLO);
    expect(relay.circuitOpen).toBe(false);
    relay.clientMessage(new FakeClient(), request(50, 'tabs'));
    expect(calls(sent).at(-1)).toMatchObject({ tool: 'tabs' });
  });

  it('a late answer to a timed-out call closes it: the worker runs again', () => {
    const { relay, sent, client } = openCircuit();
    answer(relay, calls(sent)[0]?.id, 'late');
    expect(relay.circuitOpen).toBe(false);
    expect(client.received).toHaveLength(3);
  });

  it('half-open probe: while open, a ping every PROBE_EVERY_MS until one is answered, then no more', () => {
    const { relay, sent, timers } = openCircuit();
    const pings = () => calls(sent).filter((c) => c.tool === 'ping');
    timers.advance(PROBE_EVERY_MS - 1);
    expect(pings()).toHaveLength(0);
    timers.advance(1);
    expect(pings()).toHaveLength(1);
    expect(pings()[0]).toMatchObject({ params: {}, timeoutMs: PROBE_EVERY_MS });
    // Unanswered: its deadline passes and the next probe is due one interval later.
    timers.advance(PROBE_EVERY_MS);
    timers.advance(PROBE_EVERY_MS);
    expect(pings()).toHaveLength(2);
    expect(relay.circuitOpen).toBe(true);
    answer(relay, pings()[1]?.id, { extensionVersion: '0.2.0' });
    expect(relay.circuitOpen).toBe(false);
    expect(timers.count).toBe(0);
    timers.advance(10 * PROBE_EVERY_MS);
    expect(pings()).toHaveLength(2);
  });

  it('stops probing when the extension side closes', () => {
    const { relay, sent, timers } = openCircuit();
    relay.extensionClosed();
    timers.advance(10 * PROBE_EVERY_MS);
    expect(calls(sent).filter((c) => c.tool === 'ping')).toEqual([]);
    expect(timers.count).toBe(0);
  });
});

describe('Relay restart_host (what `update` sends)', () => {
  const restart = (id = 9, timeoutMs = RESTART_DRAIN_MS + 5000) => request(id, 'restart_host', {}, timeoutMs);
  const ok = (relay: Relay, id: number | undefined, result: unknown) => relay.extensionMessage({ type: 'result', id: id ?? -1, ok: true, result });

  it('lets the calls in flight finish first, refusing new ones meanwhile as never started', () => {
    const { relay, sent, timers } = setup();
    const agent = new FakeClient();
    const updater = new FakeClient();
    const late = new FakeClient();
    relay.clientMessage(agent, request(1, 'click', { ref: 'e1' }));
    relay.clientMessage(updater, restart());
    expect(calls(sent).map((c) => c.tool)).toEqual(['click']);

    relay.clientMessage(late, request(2, 'snapshot'));
    expect(late.received).toMatchObject([{ id: 2, ok: false, error: { code: 'native_host_disconnected', phase: 'connect', retryable: true, details: { cause: 'replacing' } } }]);
    // status is still answered: the host is alive.
    relay.clientMessage(late, request(3, 'status'));
    expect(late.received[1]).toMatchObject({ id: 3, ok: true });

    timers.advance(1000);
    ok(relay, calls(sent)[0]?.id, { clicked: true });
    expect(agent.received).toMatchObject([{ id: 1, ok: true, result: { clicked: true } }]);
    // The click is done: now the swap goes out, and its answer reaches update.
    expect(calls(sent).map((c) => c.tool)).toEqual(['click', 'restart_host']);
    ok(relay, calls(sent)[1]?.id, { reconnectInMs: 50 });
    expect(updater.received).toMatchObject([{ id: 9, ok: true, result: { reconnectInMs: 50 } }]);
    // The browser then closes its side: that is the swap, and the message says so.
    relay.clientMessage(late, request(4, 'tabs'));
    relay.extensionClosed('browser_closed');
    relay.clientMessage(late, request(5, 'tabs'));
    expect(late.received.at(-1)).toMatchObject({ id: 5, error: { code: 'native_host_disconnected', message: expect.stringMatching(/update` replaced/) } });
  });

  it('goes ahead after RESTART_DRAIN_MS when a call outlasts it; that call hears why it was cut', () => {
    const { relay, sent, timers } = setup();
    const agent = new FakeClient();
    const updater = new FakeClient();
    relay.clientMessage(agent, request(1, 'wait', {}, 120_000));
    relay.clientMessage(updater, restart());
    timers.advance(RESTART_DRAIN_MS - 1);
    expect(calls(sent).map((c) => c.tool)).toEqual(['wait']);
    timers.advance(1);
    expect(calls(sent).map((c) => c.tool)).toEqual(['wait', 'restart_host']);
    ok(relay, calls(sent)[1]?.id, { reconnectInMs: 50 });
    relay.extensionClosed('browser_closed');
    expect(agent.received).toMatchObject([{ id: 1, ok: false, error: { code: 'native_host_disconnected', details: { cause: 'replaced' } } }]);
  });

  it('keeps within the deadline of an older update that allows only 5 s, and goes at once when idle', () => {
    const { relay, sent, timers } = setup();
    relay.clientMessage(new FakeClient(), request(1, 'wait', {}, 120_000));
    relay.clientMessage(new FakeClient(), restart(9, 5000));
    timers.advance(3000);
    expect(calls(sent).map((c) => c.tool)).toEqual(['wait', 'restart_host']);

    const idle = setup();
    idle.relay.clientMessage(new FakeClient(), restart());
    expect(calls(idle.sent).map((c) => c.tool)).toEqual(['restart_host']);
  });

  it('accepts calls again when the extension refuses the swap, or when the swap never happens', () => {
    const { relay, sent, timers } = setup();
    const updater = new FakeClient();
    relay.clientMessage(updater, restart());
    relay.extensionMessage({ type: 'error', id: calls(sent)[0]?.id ?? -1, error: { code: 'unsupported_tool', message: 'no', tool: 'restart_host', phase: 'dispatch', details: {}, retryable: false } });
    expect(updater.received).toMatchObject([{ ok: false, error: { code: 'unsupported_tool' } }]);
    relay.clientMessage(new FakeClient(), request(2, 'tabs'));
    expect(calls(sent).map((c) => c.tool)).toEqual(['restart_host', 'tabs']);

    const stuck = setup();
    stuck.relay.clientMessage(new FakeClient(), restart());
    ok(stuck.relay, calls(stuck.sent)[0]?.id, { reconnectInMs: 50 });
    const refused = new FakeClient();
    stuck.relay.clientMessage(refused, request(2, 'tabs'));
    expect(refused.received).toMatchObject([{ error: { code: 'native_host_disconnected', details: { cause: 'replacing' } } }]);
    stuck.timers.advance(RESTART_GIVE_UP_MS);
    stuck.relay.clientMessage(refused, request(3, 'tabs'));
    expect(calls(stuck.sent).map((c) => c.tool)).toEqual(['restart_host', 'tabs']);
  });

  it('a second restart_host while one is under way is refused, not queued', () => {
    const { relay } = setup();
    relay.clientMessage(new FakeClient(), request(1, 'wait', {}, 120_000));
    relay.clientMessage(new FakeClient(), restart(8));
    const second = new FakeClient();
    relay.clientMessage(second, restart(9));
    expect(second.received).toMatchObject([{ id: 9, error: { code: 'native_host_disconnected', details: { cause: 'replacing' } } }]);
  });
});
