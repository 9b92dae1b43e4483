/**
 * The host's core: turns client requests into extension calls and extension answers back into client
 * responses. It owns no I/O — sockets, stdio and timers come in as ports — so every rule below is
 * unit-tested with plain fakes.
 *
 * Rules:
 * - Each forwarded call gets a host-unique id; clients' own ids are only echoed back, so two clients
 *   may both use id 1 at once.
 * - Every call has exactly one outcome: the extension's answer, `timeout` at request.timeoutMs,
 *   `native_host_disconnected` when the extension side closes, `extension_not_connected` at once while
 *   the circuit is open (below), or nothing when the client left first.
 *   Whatever arrives after the outcome is dropped.
 * - The registry's entries say what the host does with a call (protocol toolSpec.ts), never a tool's name here:
 *   `answeredBy: 'host'` is answered here (HOST_ANSWERS has one answer each: `status`, from what the host knows even
 *   with no extension; `rearm`), `probe` is the tool the host pings the extension with, and `endsHost` is drained
 *   first (below). Every other call is forwarded.
 * - Circuit breaker (breaker.ts): after BREAKER_THRESHOLD extension timeouts in a row, calls fail fast
 *   with extension_not_connected (reason circuit_open) instead of each waiting out its deadline. While
 *   open, the host pings the extension every PROBE_EVERY_MS (half-open probe); any answer closes it.
 *   The probe tool (`ping`) is always forwarded (it is doctor's round trip). `rearm` (`chrome-relay reconnect`) is answered
 *   here: it pings the extension now and reports whether it answered — it restarts nothing and cuts no
 *   call in flight.
 * - `restart_host` (only `chrome-relay update` sends it: the extension drops its port so Chrome starts
 *   the newly installed host) cuts every call in flight, and any same-user process can send it — nothing
 *   between two processes of one user can prove which program a request came from (a secret `update`
 *   could show is readable by that same user, and a peer's pid or command line is theirs to fake). So the
 *   host makes it harmless instead: it first lets the calls in flight finish (up to RESTART_DRAIN_MS),
 *   refusing new ones meanwhile with native_host_disconnected at phase connect (they never started; retry
 *   in a second), and only then forwards it. If the extension refuses, or the host is still alive a while
 *   after the swap should have happened, calls are accepted again.
 * - A call a bridge relayed carries `via` (where it came from), handed to the extension with the call. When the
 *   person turned such calls off (the hello's `remoteAgents: false`), the tools answered here refuse them too.
 * - Tool params and results are not validated here (the extension and the CLI own that); only the
 *   envelope is.
 */
import {
  asInterrupted,
  ClientRequestSchema,
  describeIssues,
  isToolName,
  parseParams,
  probeTool,
  PROTOCOL_VERSION,
  RESTART_DRAIN_MS,
  reasonedError,
  RelayError,
  remoteAgentsOffError,
  toolLabel,
  TOOLS,
  VERSION,
  type Via,
  type ClientResponse,
  type ExtensionHello,
  type ExtensionToHost,
  type FrameError,
  type HostToExtension,
  type ToolName,
  type ToolResult, type CallTarget, type VersionInfo } from '@chrome-relay/protocol';
import { ExtensionBreaker } from './breaker.js';
import type { Log } from './log.js';

/** One connected CLI client, as the relay sees it. */
export interface ClientPort {
  /** Throws RelayError(invalid_arguments) when the encoded response exceeds the socket frame limit. */
  send(response: ClientResponse): void;
  /** Flush what was sent, then close the connection. */
  close(): void;
}

export interface RelayPorts {
  /** Throws RelayError(invalid_arguments, phase 'transport') when the frame exceeds Chrome's limit. */
  sendToExtension(message: HostToExtension): void;
  /** Returns a function that cancels the timer. */
  setTimer(ms: number, fire: () => void): () => void;
  /** Epoch ms, for round-trip times. */
  now(): number;
  log: Log;
}

export interface RelayIdentity {
  pid: number;
  socket: string;
  browserPid: number | null;
  profile: string | null;
}

/** setTimeout fires at once (with only a warning) beyond this, which would turn into a false timeout. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * While the circuit is open, how often the host pings the extension (and how long each ping may take):
 * short enough that a worker that comes back is noticed within seconds, long enough that a wedged one
 * only queues a ping every few seconds.
 */
export const PROBE_EVERY_MS = 5_000;

/** The extension tool the host pings (the registry's `probe` entry): answered by the service worker itself, cheap, no page. */
const PING_TOOL = probeTool();

/** What the registry says the host does with a tool (toolSpec.ts); `forward` for a name it does not know. */
function hostPart(tool: string): 'answer' | 'drain' | 'forward' {
  if (!isToolName(tool)) return 'forward';
  const entry = TOOLS[tool];
  return entry.answeredBy === 'host' ? 'answer' : entry.endsHost === true ? 'drain' : 'forward';
}

/** Whether the extension answers `tool` while calls fail fast (the registry's `probe`). */
const passesOpenCircuit = (tool: string): boolean => isToolName(tool) && TOOLS[tool].probe === true;

/** How the host answers one of the tools the registry says it answers (`answeredBy: 'host'`). */
type HostAnswer = (relay: Relay, client: ClientPort, id: number, params: Record<string, unknown>, timeoutMs: number) => void;
/**
 * After the extension accepted restart_host it closes its port within a moment (which ends this host). Still
 * being alive this long after means the swap did not happen: accept calls again rather than refuse forever.
 */
export const RESTART_GIVE_UP_MS = 5_000;
/** Leave restart_host's own answer this much of its deadline after draining. */
const RESTART_ANSWER_RESERVE_MS = 2_000;

/** Why a client connection must end before its bytes make a request (socketServer.ts decides when). */
export type ClientFault =
  | FrameError
  | { kind: 'overloaded'; pendingBytes: number; limit: number }
  | { kind: 'idle'; idleMs: number; pendingBytes: number }
  /** A request on a named pipe without this user's proof (socketServer.ts): nothing of it was read. */
  | { kind: 'refused' };

interface PendingCall {
  client: ClientPort;
  clientId: number;
  tool: string;
  cancelTimer: () => void;
}

/** How a ping the host sent on its own behalf ended (an error answer is still an answer). */
type PingOutcome = 'answered' | 'timeout' | 'closed';

/** A ping the host sent itself (probe, rearm): no client waits on it directly. */
interface HostPing {
  cancelTimer: () => void;
  done: (outcome: PingOutcome) => void;
}

export class Relay {
  private hello: ExtensionHello | null = null;
  private extensionGone = false;
  private exitCause: HostExit = 'browser_closed';
  private nextCallId = 1;
  private readonly pending = new Map<number, PendingCall>();
  private readonly breaker = new ExtensionBreaker();
  private readonly hostPings = new Map<number, HostPing>();
  /** Cancels the next half-open probe; set only while the circuit is open. */
  private cancelProbe: (() => void) | null = null;
  /** Set while restart_host waits for calls in flight (or for the swap): new calls are refused meanwhile. */
  private replacing: { finishDrain: () => void } | null = null;

  constructor(
    private readonly ports: RelayPorts,
    private readonly identity: RelayIdentity,
  ) {}

  get extension(): ExtensionHello | null {
    return this.hello;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Whether calls fail fast because the extension stopped answering. */
  get circuitOpen(): boolean {
    return this.breaker.isOpen;
  }

  extensionMessage(message: ExtensionToHost): void {
    // Anything from the extension proves its worker runs: a hello (a restarted worker) or an answer.
    this.extensionAnswered();
    switch (message.type) {
      case 'hello':
        this.hello = message;
        return;
      case 'result':
        if (this.settleHostPing(message.id)) return;
        // The snapshot after the tool (a call's `snapshot`) travels back beside its result, untouched.
        this.settle(message.id, (call) => ({ id: call.clientId, ok: true, result: message.result, ...(message.snapshot === undefined ? {} : { snapshot: message.snapshot }), versions: this.versions() }));
        return;
      case 'error':
        if (this.settleHostPing(message.id)) return;
        this.settle(message.id, (call) => ({
          id: call.clientId,
          ok: false,
          error: { ...message.error, tool: message.error.tool || call.tool },
          versions: this.versions(),
        }));
        return;
    }
  }

  /** A frame from the extension that is JSON but not an ExtensionToHost message: a bug in the extension. */
  extensionInvalid(raw: unknown, problem: string): void {
    this.ports.log(`ignoring a malformed message from the extension (${problem}): ${preview(raw)}`);
    const id = numericField(raw, 'id');
    if (id === undefined) return;
    this.settle(id, (call) =>
      this.errorResponse(
        call.clientId,
        new RelayError('internal_error', `The extension sent a malformed answer for ${toolLabel(call.tool)} (${problem}).`, {
          tool: call.tool,
          phase: 'transport',
          details: { original: preview(raw) },
        }),
      ),
    );
  }

  /**
   * The host is going away (`why`: the browser closed stdin, the host was stopped, or it failed): fail
   * what is in flight, refuse what comes next.
   */
  extensionClosed(why: HostExit = 'browser_closed'): void {
    this.extensionGone = true;
    // The browser closing its side right after a restart_host is the swap itself, not a browser exit.
    this.exitCause = why === 'browser_closed' && this.replacing !== null ? 'replaced' : why;
    why = this.exitCause;
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) {
      call.cancelTimer();
      this.respond(call.client, this.errorResponse(call.clientId, hostGoneError(call.tool, why, 'host')));
    }
    this.stopProbing();
    const pings = [...this.hostPings.values()];
    this.hostPings.clear();
    for (const ping of pings) {
      ping.cancelTimer();
      ping.done('closed');
    }
  }

  clientMessage(client: ClientPort, raw: unknown): void {
    const parsed = ClientRequestSchema().safeParse(raw);
    if (!parsed.success) {
      const { field, message } = describeIssues(parsed.error);
      const tool = stringField(raw, 'tool') ?? '';
      const error = new RelayError('invalid_arguments', `Malformed request to the native host: ${message}.`, {
        tool,
        phase: 'transport',
        details: { field },
      });
      this.respond(client, this.errorResponse(numericField(raw, 'id') ?? 0, error));
      return;
    }
    const request = parsed.data;
    if (request.timeoutMs > MAX_TIMEOUT_MS) {
      const error = new RelayError('invalid_arguments', `timeoutMs must be at most ${MAX_TIMEOUT_MS} ms.`, {
        tool: request.tool,
        phase: 'transport',
        details: { field: 'timeoutMs', timeoutMs: request.timeoutMs },
      });
      this.respond(client, this.errorResponse(request.id, error));
      return;
    }
    const part = hostPart(request.tool);
    // What the host acts on itself (answers, or drains for) never waits for the extension's own check of the person's
    // choice (policy.ts) before it acts.
    if (request.via !== undefined && this.hello?.remoteAgents === false && part !== 'forward') {
      this.respond(client, this.errorResponse(request.id, remoteAgentsOffError(request.tool, request.via)));
      return;
    }
    if (part === 'answer') {
      const answer = isToolName(request.tool) ? HOST_ANSWERS[request.tool] : undefined;
      if (answer === undefined) {
        // The registry says the host answers it, and this host has no answer: a host of another build, or a bug.
        const error = new RelayError('internal_error', `This native host has no answer for ${toolLabel(request.tool)}, which the host is meant to answer itself.`, { tool: request.tool, phase: 'host' });
        this.respond(client, this.errorResponse(request.id, error));
        return;
      }
      answer(this, client, request.id, request.params, request.timeoutMs);
      return;
    }
    if (part === 'drain') {
      this.drainThenRestart(client, request.id, request.tool, request.params, request.timeoutMs);
      return;
    }
    this.forward(client, request.id, request.tool, request.params, request.timeoutMs, { target: request.target, agent: request.agent, client: request.client, snapshot: request.snapshot, via: request.via });
  }

  /** The client's connection cannot go on (corrupt stream, over a limit, idle mid-frame): say why, then hang up. */
  clientFrameFault(client: ClientPort, fault: ClientFault): void {
    const response = this.errorResponse(0, clientFaultError(fault));
    // A refused client learns the refusal and nothing about the browser behind this host.
    if (fault.kind === 'refused') response.versions = { ...response.versions, extension: null };
    this.respond(client, response);
    this.clientClosed(client);
    client.close();
  }

  /** The client left: its pending calls are forgotten and their late answers dropped. */
  clientClosed(client: ClientPort): void {
    for (const [callId, call] of this.pending) {
      if (call.client !== client) continue;
      call.cancelTimer();
      this.pending.delete(callId);
    }
    this.callSettled();
  }

  /** `status`: what this host knows, answered even with no extension. */
  answerStatus(client: ClientPort, id: number, params: Record<string, unknown>): void {
    try {
      parseParams('status', params);
    } catch (error) {
      this.respond(client, this.errorResponse(id, RelayError.from(error, 'status', 'validate')));
      return;
    }
    const hello = this.hello;
    const result: ToolResult<'status'> = {
      host: { version: VERSION, protocolVersion: PROTOCOL_VERSION, pid: this.identity.pid, socket: this.identity.socket },
      extension: hello ? { id: hello.extension.id, version: hello.extension.version, protocolVersion: hello.extension.protocolVersion } : null,
      browser: hello ? { userAgent: hello.userAgent, pid: this.identity.browserPid } : null,
      profile: this.identity.profile,
      pausedSince: hello?.pausedSince ?? null,
    };
    this.respond(client, { id, ok: true, result, versions: this.versions() }, 'status');
  }

  private forward(
    client: ClientPort,
    clientId: number,
    tool: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    envelope: { target?: CallTarget | undefined; agent?: string | undefined; client?: VersionInfo | undefined; snapshot?: Record<string, unknown> | undefined; via?: Via | undefined } = {},
    restarting = false,
  ): void {
    if (this.extensionGone) {
      // Never forwarded: phase 'connect' says the call cannot have acted.
      this.respond(client, this.errorResponse(clientId, hostGoneError(tool, this.exitCause, 'connect')));
      return;
    }
    if (this.replacing !== null && !restarting) {
      this.respond(client, this.errorResponse(clientId, this.replacingError(tool)));
      return;
    }
    if (this.hello === null) {
      // Unreachable in practice (the socket opens after the hello), kept so a call can never hang.
      const error = reasonedError('extension_not_connected', 'starting', 'The extension has not greeted this native host yet; retry in a moment, and if it persists run `chrome-relay doctor`.', {
        tool,
        phase: 'host',
      });
      this.respond(client, this.errorResponse(clientId, error));
      return;
    }
    if (this.breaker.isOpen && !passesOpenCircuit(tool)) {
      this.respond(client, this.errorResponse(clientId, this.circuitOpenError(tool)));
      return;
    }
    const callId = this.nextCallId++;
    try {
      this.ports.sendToExtension({
        type: 'call',
        id: callId,
        tool,
        params,
        timeoutMs,
        ...(envelope.target === undefined ? {} : { target: envelope.target }),
        ...(envelope.agent === undefined ? {} : { agent: envelope.agent }),
        ...(envelope.client === undefined ? {} : { client: envelope.client }),
        ...(envelope.snapshot === undefined ? {} : { snapshot: envelope.snapshot }),
        ...(envelope.via === undefined ? {} : { via: envelope.via }),
      });
    } catch (error) {
      this.respond(client, this.errorResponse(clientId, RelayError.from(error, tool, 'transport')));
      return;
    }
    const cancelTimer = this.ports.setTimer(timeoutMs, () => {
      if (!this.pending.delete(callId)) return;
      const error = reasonedError('timeout', 'extension_unresponsive', `The extension did not answer ${tool} within ${timeoutMs} ms; run \`chrome-relay doctor\` if it keeps happening.`, {
        tool,
        phase: 'host',
        details: { timeoutMs, tool },
      });
      this.respond(client, this.errorResponse(clientId, asInterrupted(error)));
      this.extensionTimedOut();
      this.callSettled();
    });
    this.pending.set(callId, { client, clientId, tool, cancelTimer });
  }

  /**
   * restart_host: refuse new calls, wait for those in flight (bounded), then forward it. The bound leaves
   * the request's own answer time to arrive, so a CLI that allows only a few seconds still hears back.
   */
  private drainThenRestart(client: ClientPort, id: number, tool: string, params: Record<string, unknown>, timeoutMs: number): void {
    const unavailable = this.unavailable(tool);
    if (unavailable) {
      this.respond(client, this.errorResponse(id, unavailable));
      return;
    }
    if (this.replacing !== null) {
      this.respond(client, this.errorResponse(id, this.replacingError(tool)));
      return;
    }
    const drainMs = Math.min(RESTART_DRAIN_MS, Math.max(0, timeoutMs - RESTART_ANSWER_RESERVE_MS));
    const started = this.ports.now();
    let cancelDrain: () => void = () => undefined;
    const finishDrain = (): void => {
      if (this.replacing?.finishDrain !== finishDrain) return;
      cancelDrain();
      this.replacing = { finishDrain: () => undefined };
      const left = this.pending.size;
      if (left > 0) this.ports.log(`${tool}: ${left} call(s) still in flight after ${drainMs} ms; restarting anyway`);
      this.forwardRestart(client, id, tool, params, Math.max(1, timeoutMs - (this.ports.now() - started)));
    };
    this.replacing = { finishDrain };
    this.ports.log(`${tool}: refusing new calls; waiting up to ${drainMs} ms for ${this.pending.size} call(s) in flight`);
    cancelDrain = this.ports.setTimer(drainMs, finishDrain);
    if (this.pending.size === 0) finishDrain();
  }

  private forwardRestart(client: ClientPort, id: number, tool: string, params: Record<string, unknown>, timeoutMs: number): void {
    // A proxy client: the extension's answer decides whether the swap goes ahead.
    const proxy: ClientPort = {
      send: (response) => {
        if (!response.ok) {
          this.replacing = null;
        } else {
          this.ports.setTimer(RESTART_GIVE_UP_MS, () => {
            if (this.extensionGone) return;
            this.ports.log(`${tool}: still connected ${RESTART_GIVE_UP_MS} ms after the extension accepted the swap; accepting calls again`);
            this.replacing = null;
          });
        }
        client.send(response);
      },
      close: () => client.close(),
    };
    this.forward(proxy, id, tool, params, timeoutMs, {}, true);
  }

  private replacingError(tool: string): RelayError {
    return reasonedError(
      'native_host_disconnected',
      'host_exited',
      `${toolLabel(tool)} was not started: \`chrome-relay update\` is replacing the native host right now, and the browser starts the new one: retry in a moment.`,
      { tool, phase: 'connect', details: { cause: 'replacing' } },
    );
  }

  /** A call that settled: if restart_host is waiting for the last one, it may go now. */
  private callSettled(): void {
    if (this.pending.size === 0) this.replacing?.finishDrain();
  }

  /**
   * `rearm`: re-arm by proof, not by hope — ping the extension now; its answer closes the circuit
   * (extensionMessage does that for any answer) and is this tool's success. No answer within the
   * request's deadline leaves the circuit as the count says, and the client hears why.
   */
  answerRearm(client: ClientPort, id: number, params: Record<string, unknown>, timeoutMs: number): void {
    const tool = 'rearm';
    try {
      parseParams(tool, params);
    } catch (error) {
      this.respond(client, this.errorResponse(id, RelayError.from(error, tool, 'validate')));
      return;
    }
    const unavailable = this.unavailable(tool);
    if (unavailable) {
      this.respond(client, this.errorResponse(id, unavailable));
      return;
    }
    const wasOpen = this.breaker.isOpen;
    const started = this.ports.now();
    const failed = this.pingExtension(timeoutMs, (outcome) => {
      if (outcome === 'answered') {
        const result: ToolResult<'rearm'> = { wasOpen, roundTripMs: Math.max(0, Math.round(this.ports.now() - started)) };
        this.respond(client, { id, ok: true, result, versions: this.versions() }, tool);
      } else if (outcome === 'closed') {
        this.respond(client, this.errorResponse(id, hostGoneError(tool, this.exitCause, 'host')));
      } else {
        this.respond(client, this.errorResponse(id, this.stillSilentError(timeoutMs)));
      }
    });
    if (failed) this.respond(client, this.errorResponse(id, failed));
  }

  /** Why no call can be sent to the extension right now, or null when one can. */
  private unavailable(tool: string): RelayError | null {
    if (this.extensionGone) return hostGoneError(tool, this.exitCause, 'host');
    if (this.hello === null) {
      return reasonedError('extension_not_connected', 'starting', 'The extension has not greeted this native host yet; retry in a moment, and if it persists run `chrome-relay doctor`.', { tool, phase: 'host' });
    }
    return null;
  }

  /** Send the host's own ping; `done` gets exactly one outcome. Returns the error when it could not be sent. */
  private pingExtension(timeoutMs: number, done: (outcome: PingOutcome) => void): RelayError | null {
    const callId = this.nextCallId++;
    try {
      this.ports.sendToExtension({ type: 'call', id: callId, tool: PING_TOOL, params: {}, timeoutMs });
    } catch (error) {
      return RelayError.from(error, PING_TOOL, 'transport');
    }
    const cancelTimer = this.ports.setTimer(timeoutMs, () => {
      if (!this.hostPings.delete(callId)) return;
      this.extensionTimedOut();
      done('timeout');
    });
    this.hostPings.set(callId, { cancelTimer, done });
    return null;
  }

  /** True when `callId` was one of the host's own pings (now settled as answered). */
  private settleHostPing(callId: number): boolean {
    const ping = this.hostPings.get(callId);
    if (ping === undefined) return false;
    this.hostPings.delete(callId);
    ping.cancelTimer();
    ping.done('answered');
    return true;
  }

  private extensionTimedOut(): void {
    if (!this.breaker.timedOut()) return;
    this.ports.log(`circuit open: ${this.breaker.consecutiveTimeouts} calls in a row got no answer from the extension; failing calls fast and pinging it every ${PROBE_EVERY_MS} ms`);
    this.scheduleProbe();
  }

  private extensionAnswered(): void {
    if (!this.breaker.answered()) return;
    this.stopProbing();
    this.ports.log('circuit closed: the extension answers again');
  }

  /** Half-open probe: while the circuit is open, one ping every PROBE_EVERY_MS; an answer closes it. */
  private scheduleProbe(): void {
    this.cancelProbe = this.ports.setTimer(PROBE_EVERY_MS, () => {
      this.cancelProbe = null;
      if (!this.breaker.isOpen || this.extensionGone) return;
      const failed = this.pingExtension(PROBE_EVERY_MS, (outcome) => {
        if (outcome === 'timeout' && this.breaker.isOpen) this.scheduleProbe();
      });
      if (failed) {
        this.ports.log(`could not send a probe to the extension: ${failed.message}`);
        this.scheduleProbe();
      }
    });
  }

  private stopProbing(): void {
    this.cancelProbe?.();
    this.cancelProbe = null;
  }

  private circuitOpenError(tool: string): RelayError {
    const count = this.breaker.consecutiveTimeouts;
    return reasonedError(
      'extension_not_connected',
      'circuit_open',
      `The extension has not answered the last ${count} calls (its service worker is stuck or busy), so the native host fails calls at once instead of letting each wait out its deadline. Run \`chrome-relay doctor\`; \`chrome-relay reconnect\` re-arms the connection once the extension answers again (no browser restart needed).`,
      { tool, phase: 'host', details: { consecutiveTimeouts: count } },
    );
  }

  /** rearm's ping went unanswered. */
  private stillSilentError(timeoutMs: number): RelayError {
    const tool = 'rearm';
    const details = { timeoutMs, consecutiveTimeouts: this.breaker.consecutiveTimeouts };
    const fix = 'Reload chrome-relay in chrome://extensions (that restarts its service worker, not the browser), then run `chrome-relay reconnect` again (`chrome-relay doctor` says more).';
    if (this.breaker.isOpen) {
      return reasonedError('extension_not_connected', 'circuit_open', `The extension still does not answer (no answer to a ping within ${timeoutMs} ms), so calls keep failing fast. ${fix}`, { tool, phase: 'host', details });
    }
    return reasonedError('timeout', 'extension_unresponsive', `The extension did not answer a ping within ${timeoutMs} ms. ${fix}`, { tool, phase: 'host', details });
  }

  private settle(callId: number, build: (call: PendingCall) => ClientResponse): void {
    const call = this.pending.get(callId);
    if (call === undefined) {
      this.ports.log(`dropping an answer for call ${callId}: it timed out, or its client left`);
      return;
    }
    this.pending.delete(callId);
    call.cancelTimer();
    this.respond(call.client, build(call), call.tool);
    this.callSettled();
  }

  private respond(client: ClientPort, response: ClientResponse, tool = ''): void {
    try {
      client.send(response);
      return;
    } catch (error) {
      if (!response.ok) {
        this.ports.log(`could not send an error response: ${String(error)}`);
        return;
      }
      // The result is too big for one socket frame: the client still gets exactly one answer.
      const failure = this.errorResponse(response.id, RelayError.from(error, tool, 'transport'));
      try {
        client.send(failure);
      } catch (again) {
        this.ports.log(`could not send an error response: ${String(again)}`);
      }
    }
  }

  private errorResponse(id: number, error: RelayError): ClientResponse {
    return { id, ok: false, error: error.toData(), versions: this.versions() };
  }

  private versions(): ClientResponse['versions'] {
    const hello = this.hello;
    return {
      host: { version: VERSION, protocolVersion: PROTOCOL_VERSION },
      extension: hello ? { version: hello.extension.version, protocolVersion: hello.extension.protocolVersion } : null,
    };
  }
}

/**
 * The host's answer to each tool the registry says it answers (`answeredBy: 'host'`), by name, as the extension's
 * registry holds its tools' handlers: relay.test.ts holds every such entry to having one here.
 */
export const HOST_ANSWERS: Partial<Record<ToolName, HostAnswer>> = {
  status: (relay, client, id, params) => relay.answerStatus(client, id, params),
  rearm: (relay, client, id, params, timeoutMs) => relay.answerRearm(client, id, params, timeoutMs),
};

/** Why the host is going away: it decides what native_host_disconnected may claim. */
export type HostExit = 'browser_closed' | 'stopped' | 'failed' | 'replaced';

const EXIT_CAUSE: Readonly<Record<HostExit, string>> = {
  browser_closed: "the browser closed its connection to the native host (chrome-relay's service worker stopped or the extension reloaded, or the browser itself is closing)",
  stopped: 'the native host was stopped by a signal',
  failed: 'the native host failed (see its log) and is exiting',
  replaced: '`chrome-relay update` replaced the native host with the installed one (this call outlasted the wait for calls in flight)',
};

/**
 * What the host can tell of its going: the browser side closing is a stopped worker unless the browser itself is
 * going, which only the CLI can find out afterwards (cli lostHost.ts looks, and says browser_closed).
 */
const EXIT_MOVE: Readonly<Record<HostExit, { reason: 'host_exited' | 'worker_stopped'; move: string }>> = {
  browser_closed: { reason: 'worker_stopped', move: 'retry in a moment; if it keeps failing run `chrome-relay doctor`' },
  stopped: { reason: 'host_exited', move: 'while the browser runs, the extension starts a new host within a second: retry in a moment' },
  failed: { reason: 'host_exited', move: 'while the browser runs, the extension starts a new host within a second: retry in a moment' },
  replaced: { reason: 'host_exited', move: 'the browser starts the installed host: retry in a moment' },
};

/** What a client hears before the host hangs up on its connection. */
function clientFaultError(fault: ClientFault): RelayError {
  switch (fault.kind) {
    case 'oversize':
      return new RelayError('invalid_arguments', `Request of ${fault.bytes} bytes exceeds the ${fault.limit}-byte request limit (Chrome carries at most 1 MiB to the extension); send less data per call.`, {
        phase: 'transport',
        details: { bytes: fault.bytes, limit: fault.limit },
      });
    case 'bad_json':
      return new RelayError('invalid_arguments', 'Request frame is not valid UTF-8 JSON.', { phase: 'transport', details: { original: fault.text } });
    case 'too_deep':
      return new RelayError('invalid_arguments', `Request nests arrays/objects deeper than ${fault.limit} levels; tool params are flat (see \`chrome-relay <command> --help\`).`, {
        phase: 'transport',
        details: { limit: fault.limit },
      });
    case 'overloaded':
      return reasonedError(
        'native_host_disconnected',
        'host_busy',
        `The native host is holding ${fault.pendingBytes} bytes of unfinished requests (limit ${fault.limit}), so it closed this connection before reading its request: nothing was started. Retry in a moment, with fewer calls at once.`,
        { phase: 'connect', details: { cause: 'overloaded', pendingBytes: fault.pendingBytes, limit: fault.limit } },
      );
    case 'idle':
      return new RelayError('invalid_arguments', `The request frame was still incomplete after ${fault.idleMs} ms (${fault.pendingBytes} bytes of it arrived), so the host closed the connection; send each request whole.`, {
        phase: 'transport',
        details: { idleMs: fault.idleMs, pendingBytes: fault.pendingBytes },
      });
    case 'refused':
      return reasonedError(
        'extension_not_connected',
        'client_not_authorized',
        "The native host refused this client: it did not prove it can read this user's chrome-relay secret. Run chrome-relay as the user whose browser runs the host; if you are that user, run `chrome-relay doctor` (restart the browser if the secret file changed).",
        { phase: 'connect' },
      );
  }
}

/** What a call in flight (or arriving) hears when the host is going away: what the host can tell of why. */
export function hostGoneError(tool: string, why: HostExit, phase: 'host' | 'connect'): RelayError {
  const { reason, move } = EXIT_MOVE[why];
  const error = reasonedError('native_host_disconnected', reason, `${toolLabel(tool)} did not finish: ${EXIT_CAUSE[why]}; ${move}.`, {
    tool,
    phase,
    details: { cause: why },
  });
  return asInterrupted(error);
}

function numericField(raw: unknown, key: string): number | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value: unknown = (raw as Record<string, unknown>)[key];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function stringField(raw: unknown, key: string): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value: unknown = (raw as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

function preview(raw: unknown): string {
  try {
    return (JSON.stringify(raw) ?? String(raw)).slice(0, 200);
  } catch (error) {
    // Too deep to stringify (or a cycle): say so instead of taking the host down.
    return `(unprintable: ${error instanceof Error ? error.message : String(error)})`;
  }
}
