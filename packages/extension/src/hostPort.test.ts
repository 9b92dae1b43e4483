import type { ExtensionHello, ExtensionToHost } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import type { CallMessage } from './dispatcher.js';
import { createHostPort, RECONNECT, type HostLink, type NativePort } from './hostPort.js';

class FakePort implements NativePort {
  readonly posted: ExtensionToHost[] = [];
  connected = true;
  #onMessage: ((message: unknown) => void) | undefined;
  #onDisconnect: ((errorMessage: string | undefined) => void) | undefined;

  postMessage(message: ExtensionToHost): void {
    if (!this.connected) throw new Error('Attempting to use a disconnected port object');
    this.posted.push(message);
  }
  onMessage(listener: (message: unknown) => void): void {
    this.#onMessage = listener;
  }
  onDisconnect(listener: (errorMessage: string | undefined) => void): void {
    this.#onDisconnect = listener;
  }
  deliver(message: unknown): void {
    this.#onMessage?.(message);
  }
  drop(errorMessage?: string): void {
    this.connected = false;
    this.#onDisconnect?.(errorMessage);
  }
  disconnect(): void {
    // Chrome does not fire onDisconnect for the side that called disconnect().
    this.connected = false;
  }
}

const HELLO: ExtensionHello = {
  type: 'hello',
  extension: { id: 'nplipfneioajmjoiadbinnjjicindjlf', version: '0.1.0', protocolVersion: 1 },
  userAgent: 'test',
};

function setup(resultFor: (tool: string) => unknown = (tool) => ({ echoed: tool })) {
  const ports: FakePort[] = [];
  const timers: Array<{ ms: number; run: () => void }> = [];
  const calls: CallMessage[] = [];
  const logs: string[] = [];
  let clock = 0;
  const hostPort = createHostPort({
    connect: () => {
      const port = new FakePort();
      ports.push(port);
      return port;
    },
    dispatch: async (call) => {
      calls.push(call);
      return { type: 'result', id: call.id, ok: true, result: resultFor(call.tool) };
    },
    hello: () => HELLO,
    now: () => clock,
    setTimer: (run, ms) => void timers.push({ run, ms }),
    log: (message) => void logs.push(message),
  });
  const fireTimer = () => {
    const timer = timers.shift();
    if (!timer) throw new Error('no timer scheduled');
    timer.run();
    return timer.ms;
  };
  return { hostPort, ports, timers, calls, logs, fireTimer, advance: (ms: number) => (clock += ms) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('hostPort', () => {
  it('connects once and says hello first', () => {
    const { hostPort, ports } = setup();
    hostPort.ensureConnected();
    hostPort.ensureConnected();
    expect(ports).toHaveLength(1);
    expect(ports[0]?.posted).toEqual([HELLO]);
    expect(hostPort.isConnected()).toBe(true);
  });

  it('dispatches a valid call and replies on the same port', async () => {
    const { hostPort, ports, calls } = setup();
    hostPort.ensureConnected();
    const port = ports[0];
    port?.deliver({ type: 'call', id: 5, tool: 'tabs', params: {}, timeoutMs: 1000 });
    await flush();
    expect(calls.map((c) => c.id)).toEqual([5]);
    expect(port?.posted[1]).toEqual({ type: 'result', id: 5, ok: true, result: { echoed: 'tabs' } });
  });

  it('replies to a call whose result Chrome could not carry with an error naming the limit, at once', async () => {
    const { hostPort, ports } = setup(() => 'x'.repeat(70_000_000));
    hostPort.ensureConnected();
    const port = ports[0];
    port?.deliver({ type: 'call', id: 8, tool: 'js', params: { code: "'x'.repeat(7e7)" }, timeoutMs: 30_000 });
    await flush();
    expect(port?.posted[1]).toMatchObject({ type: 'error', id: 8, error: { code: 'invalid_arguments', tool: 'js', retryable: false, details: { bytes: expect.any(Number), mayHaveActed: true } } });
  });

  it('ignores the host hello and answers a malformed call with internal_error', async () => {
    const { hostPort, ports, calls } = setup();
    hostPort.ensureConnected();
    const port = ports[0];
    port?.deliver({ type: 'hello', host: { version: '0.1.0', protocolVersion: 1, pid: 10 } });
    port?.deliver({ type: 'call', id: 6, tool: 'tabs', params: {} }); // no timeoutMs
    port?.deliver('garbage');
    await flush();
    expect(calls).toHaveLength(0);
    expect(port?.posted).toHaveLength(2);
    expect(port?.posted[1]).toMatchObject({ type: 'error', id: 6, error: { code: 'internal_error', phase: 'transport', tool: 'tabs' } });
  });

  it('reconnects with doubling backoff capped at 5 s and logs the reason', () => {
    const { hostPort, ports, logs, fireTimer } = setup();
    hostPort.ensureConnected();
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      ports[ports.length - 1]?.drop('Specified native messaging host not found.');
      delays.push(fireTimer());
    }
    expect(delays).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000]);
    expect(logs).toContain('native host disconnected: Specified native messaging host not found.');
  });

  it('resets the backoff after a connection lived 10 s', () => {
    const { hostPort, ports, fireTimer, advance } = setup();
    hostPort.ensureConnected();
    ports[0]?.drop();
    fireTimer(); // 100
    ports[1]?.drop();
    fireTimer(); // 200
    advance(RECONNECT.resetAfterMs);
    ports[2]?.drop();
    expect(fireTimer()).toBe(RECONNECT.initialMs);
  });

  it('lets a pending backoff stand when a wake-up asks to connect', () => {
    const { hostPort, ports, timers } = setup();
    hostPort.ensureConnected();
    ports[0]?.drop();
    hostPort.ensureConnected();
    expect(ports).toHaveLength(1);
    expect(timers).toHaveLength(1);
    expect(hostPort.isConnected()).toBe(false);
  });

  it('survives a reply to a port that died meanwhile', async () => {
    const { hostPort, ports, logs } = setup();
    hostPort.ensureConnected();
    const port = ports[0];
    port?.deliver({ type: 'call', id: 7, tool: 'tabs', params: {}, timeoutMs: 1000 });
    port?.drop();
    await flush();
    expect(logs.some((line) => line.startsWith('could not send result'))).toBe(true);
  });

  it('reconnect closes the current port after the delay and opens a new one with a hello', () => {
    const { hostPort, ports, fireTimer, timers } = setup();
    hostPort.ensureConnected();
    hostPort.reconnect(50);
    expect(ports).toHaveLength(1);
    expect(timers[0]?.ms).toBe(50);
    fireTimer();
    expect(ports[0]?.connected).toBe(false);
    expect(ports).toHaveLength(2);
    expect(ports[1]?.posted).toEqual([HELLO]);
    // No extra backoff reconnect was scheduled by the closed port.
    expect(timers).toHaveLength(0);
    expect(hostPort.isConnected()).toBe(true);
  });
});

describe('host status for the toolbar icon', () => {
  it('connected once the host greets us, not connected when the port goes', () => {
    const statuses: HostLink[] = [];
    const ports: FakePort[] = [];
    const hostPort = createHostPort({
      connect: () => {
        const port = new FakePort();
        ports.push(port);
        return port;
      },
      dispatch: async (call) => ({ type: 'result', id: call.id, ok: true, result: {} }),
      hello: () => HELLO,
      setTimer: () => undefined,
      log: () => undefined,
      onStatus: (status) => void statuses.push(status),
    });
    hostPort.ensureConnected();
    expect(statuses).toEqual([]);
    ports[0]?.deliver({ type: 'hello', host: { version: '0.1.0', protocolVersion: 1, pid: 77 } });
    ports[0]?.drop('Native host has exited.');
    expect(statuses).toEqual([
      { connected: true, host: { version: '0.1.0', protocolVersion: 1, pid: 77 } },
      { connected: false, host: null },
    ]);
  });
});
