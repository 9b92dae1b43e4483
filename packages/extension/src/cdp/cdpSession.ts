/**
 * The only module that touches chrome.debugger. It keeps one debugger session per tab, attaches on
 * demand, types every command against devtools-protocol, and turns failures into RelayErrors that
 * name the CDP method that failed.
 *
 * Invariants:
 * - A tab is in `#attached` only after chrome.debugger.attach succeeded (or an old session of ours
 *   was proven usable). Concurrent attaches to one tab share one attempt.
 * - Every in-flight command is registered per tab and rejected as soon as that tab's session goes
 *   away (onDetach, tab closed, our own detach), so no caller waits for an answer that cannot come.
 * - Sessions outlive the service worker (CHROMIUM.md): after a restart our own old session shows up
 *   as "Another debugger is already attached"; we probe it before throwing it away.
 * - Every attach first passes the attach guard (the person's pause and site block list, policy/), so
 *   a paused extension or a blocked site never gets a session, whatever code path asks for one.
 * - Attach and detach of one tab never overlap: an attach waits for a detach in progress.
 *
 * In a person's own Chrome (no --silent-debugger-extension-api) an attached tab shows "chrome-relay
 * started debugging this browser" and loses 56 px of viewport until ≈ 5 s after the last detach, so
 * sessions are detached when idle (idleDetach.ts) and re-attached by the next command. A person who
 * presses Cancel on that bar detaches every session (onDetach reason canceled_by_user): in-flight
 * commands fail, and the next command attaches again.
 */
import type ProtocolMapping from 'devtools-protocol/types/protocol-mapping.js';
import { RelayError } from '@chrome-relay/protocol';
import { cdpKindOf, commandFailure, sessionClosed } from './failures.js';
import { IdleDetacher, type IdleClock } from './idleDetach.js';

type Commands = ProtocolMapping.Commands;

export interface CdpTarget {
  tabId: number;
  /** A flattened child session: an out-of-process iframe's own session. */
  sessionId?: string;
}

export interface CdpEvent {
  tabId: number;
  sessionId?: string;
  method: string;
  params: unknown;
}

/** What CdpSessions needs from chrome.debugger; faked in testing/fakeChrome.ts. */
export interface DebuggerTransport {
  attach(tabId: number): Promise<void>;
  detach(tabId: number): Promise<void>;
  sendCommand(target: CdpTarget, method: string, params: object | undefined): Promise<unknown>;
  /** Registers both listeners synchronously: Chrome only wakes a worker for listeners added at its top level. */
  listen(onEvent: (event: CdpEvent) => void, onDetach: (tabId: number, reason: string) => void): void;
}

/** Reason reported to onDetached listeners when chrome-relay itself detached. */
export const RELAY_DETACH_REASON = 'relay_detach';

const ALREADY_ATTACHED = /another debugger is already attached/i;
const NOT_ATTACHED = /debugger is not attached/i;
const NO_TAB = /no tab with (given )?id/i;
/**
 * Chrome refuses every command of an extension's debugger session while the tab shows a frame of another
 * extension (observed in Chromium 156: an iframe of a chrome-extension:// URL — even a blocked one — and
 * Runtime.evaluate, Page.getFrameTree, Page.getNavigationHistory… all fail with this text until the frame
 * is gone). chrome.debugger has no way to leave such frames out, so no retry can help: say why, once.
 */
const OTHER_EXTENSION_FRAME = /cannot access a chrome-extension:\/\/ url of different extension/i;
const SWAP_RETRIES = 20;
const SWAP_RETRY_MS = 25;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** chrome.debugger reports protocol errors as the JSON text of the CDP error object; unwrap it. */
export function cdpMessageOf(error: unknown): string {
  const text = messageOf(error);
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed && typeof parsed.message === 'string') {
      return parsed.message;
    }
  } catch {
    // Not JSON: an extension-API error such as "Debugger is not attached to the tab with id: 3."
  }
  return text;
}

function otherExtensionFrame(tabId: number, api: string, apiMessage: string, method?: string): RelayError {
  return new RelayError(
    'chrome_api_error',
    `Tab ${tabId} shows a page of another extension in a frame (chrome-extension://…), and Chrome lets no extension debug such a tab, so chrome-relay cannot act on it while that frame is there. Use another tab (\`chrome-relay navigate <url>\` opens one); retrying here only helps once the page drops that frame.`,
    { phase: 'resolve', retryable: false, details: { api, apiMessage, tab: tabId, restricted: true, cause: 'extension_frame', ...(method === undefined ? {} : { method }) } },
  );
}

function attachError(tabId: number, apiMessage: string): RelayError {
  if (OTHER_EXTENSION_FRAME.test(apiMessage)) return otherExtensionFrame(tabId, 'chrome.debugger.attach', apiMessage);
  if (NO_TAB.test(apiMessage)) {
    return new RelayError('target_not_found', `Tab ${tabId} does not exist (it may have been closed); run \`chrome-relay tabs\` to list live tabs.`, {
      phase: 'resolve',
      details: { tab: tabId, apiMessage },
    });
  }
  // Neither can succeed by repeating the call: the tab must change (DevTools closed, another page) first.
  if (ALREADY_ATTACHED.test(apiMessage)) {
    return new RelayError(
      'chrome_api_error',
      `Cannot debug tab ${tabId}: another debugger (DevTools or another extension) owns it. Close it, or pick another tab.`,
      { phase: 'resolve', retryable: false, details: { api: 'chrome.debugger.attach', apiMessage, tab: tabId } },
    );
  }
  return new RelayError(
    'chrome_api_error',
    `Cannot debug tab ${tabId}: ${apiMessage} (chrome:// pages, other extensions' pages and the Web Store cannot be automated; pick another tab).`,
    { phase: 'resolve', retryable: false, details: { api: 'chrome.debugger.attach', apiMessage, tab: tabId, restricted: true } },
  );
}

function detachedError(method: string, tabId: number, reason: string): RelayError {
  if (reason === 'target_closed') {
    return new RelayError('target_not_found', `${method} failed: tab ${tabId} was closed; run \`chrome-relay tabs\` to pick a live tab.`, {
      phase: 'act',
      details: { method, tab: tabId, reason },
    });
  }
  const why = reason === 'canceled_by_user' ? 'a person pressed Cancel on the "started debugging" bar' : `the debugger detached (${reason})`;
  return sessionClosed(`${method} failed: ${why}; retry to re-attach.`, { phase: 'act', details: { method, detached: reason, tab: tabId } });
}

/** Throws (a RelayError) when the tab must not get a debugger session now. */
export type AttachGuard = (tabId: number) => Promise<void>;

/**
 * Passes every Input.* command before it is sent: throws to refuse it, else returns what to call once it settled
 * (input/inputLanes.ts: input calls on one tab take turns, and a turn lasts while its input is in flight).
 */
export type InputGate = (tabId: number, method: string, params: object | undefined) => () => void;

export class CdpSessions {
  readonly #transport: DebuggerTransport;
  readonly #attached = new Set<number>();
  readonly #attaching = new Map<number, Promise<void>>();
  readonly #detaching = new Map<number, Promise<void>>();
  readonly #idle: IdleDetacher;
  readonly #keepers = new Set<(tabId: number) => boolean | Promise<boolean>>();
  #guard: AttachGuard | undefined;
  #inputGate: InputGate | undefined;
  /** Per tab: how to reject each in-flight command when the session goes away. */
  readonly #pending = new Map<number, Set<(reason: string) => void>>();
  readonly #eventListeners = new Set<(event: CdpEvent) => void>();
  readonly #detachListeners = new Set<(tabId: number, reason: string) => void>();
  #started = false;
  readonly #preparers = new Set<(tabId: number, send: (method: string, params?: object) => Promise<unknown>) => Promise<void>>();

  constructor(transport: DebuggerTransport, options: { clock?: IdleClock } = {}) {
    this.#transport = transport;
    this.#idle = new IdleDetacher({
      detach: (tabId) => this.detach(tabId),
      keep: (tabId) => this.#needed(tabId),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    });
  }

  /** Wire the transport's events. Call once, synchronously, at the top level of the worker. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#transport.listen(
      (event) => this.#emit(event),
      (tabId, reason) => this.#forget(tabId, reason),
    );
  }

  /**
   * Attach if not attached. "Another debugger is already attached" right after a worker restart is
   * our own earlier session: probe it and keep it if it answers, else detach and attach afresh.
   */
  attach(tabId: number): Promise<void> {
    const inflight = this.#attaching.get(tabId);
    if (inflight) return inflight;
    const detaching = this.#detaching.get(tabId);
    // A session being detached (idle, pause) is no session: wait for the detach, then attach afresh.
    if (this.#attached.has(tabId) && !detaching) return Promise.resolve();
    const attempt = (detaching ? detaching.catch(() => undefined).then(() => this.#attachNow(tabId)) : this.#attachNow(tabId)).finally(() => {
      if (this.#attaching.get(tabId) === attempt) this.#attaching.delete(tabId);
    });
    this.#attaching.set(tabId, attempt);
    return attempt;
  }

  isAttached(tabId: number): boolean {
    return this.#attached.has(tabId);
  }

  /**
   * Typed send; attaches first if needed. Failures become cdp_error naming the method (details
   * {method, cdpMessage}); a command cut off by a detach is rejected right away.
   */
  async send<M extends keyof Commands>(
    target: number | CdpTarget,
    method: M,
    ...params: Commands[M]['paramsType']
  ): Promise<Commands[M]['returnType']> {
    const resolved: CdpTarget = typeof target === 'number' ? { tabId: target } : target;
    const commandParams: object | undefined = params[0];
    // Synchronously, before any await: the gate counts what is in flight from the moment the sender asked.
    const settled = method.startsWith('Input.') ? this.#inputGate?.(resolved.tabId, method, commandParams) : undefined;
    try {
      return await this.#send(resolved, method, commandParams);
    } finally {
      settled?.();
    }
  }

  async #send<M extends keyof Commands>(resolved: CdpTarget, method: M, commandParams: object | undefined): Promise<Commands[M]['returnType']> {
    await this.attach(resolved.tabId);
    this.#idle.used(resolved.tabId);
    let reattached = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.#sendOnce(resolved, method, commandParams)) as Commands[M]['returnType'];
      } catch (error) {
        if (error instanceof RelayError) throw error;
        if (!reattached && NOT_ATTACHED.test(messageOf(error))) {
          // Chrome dropped the session without telling us (e.g. its onDetach fired while this worker
          // was down). The command was never delivered, so re-attaching and sending it again is safe.
          reattached = true;
          this.#forget(resolved.tabId, 'lost');
          await this.attach(resolved.tabId);
          continue;
        }
        if (attempt < SWAP_RETRIES && cdpKindOf(cdpMessageOf(error)) === 'swapping') {
          // Right after a cross-process navigation commits, the session briefly has no page to
          // talk to (observed on Page.getNavigationHistory just after Page.navigate answered). The
          // command was not delivered; it succeeds once the new renderer is attached.
          await new Promise((resolve) => setTimeout(resolve, SWAP_RETRY_MS));
          continue;
        }
        throw this.#commandError(method, error, resolved.tabId);
      }
    }
  }

  /**
   * Run `preparer` on every fresh session, after focus emulation and before any tool command. It gets
   * a raw send (going through `send` would wait for the attach it is part of). Failures are logged.
   */
  onSessionPrepare(preparer: (tabId: number, send: (method: string, params?: object) => Promise<unknown>) => Promise<void>): () => void {
    this.#preparers.add(preparer);
    return () => this.#preparers.delete(preparer);
  }

  /** Subscribe to every CDP event of every attached tab. Returns the unsubscribe function. */
  on(listener: (event: CdpEvent) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  /** Called whenever a tab's session ends: Chrome detached it, the tab closed, or we detached. */
  onDetached(listener: (tabId: number, reason: string) => void): () => void {
    this.#detachListeners.add(listener);
    return () => this.#detachListeners.delete(listener);
  }

  detach(tabId: number): Promise<void> {
    const running = this.#detaching.get(tabId);
    if (running) return running;
    const attempt = this.#detachNow(tabId).finally(() => {
      if (this.#detaching.get(tabId) === attempt) this.#detaching.delete(tabId);
    });
    this.#detaching.set(tabId, attempt);
    return attempt;
  }

  /** Detach every session (the person paused chrome-relay). Failures of single tabs are logged. */
  async detachAll(): Promise<void> {
    const tabs = new Set([...this.#attached, ...this.#attaching.keys()]);
    await Promise.all(
      [...tabs].map((tabId) =>
        this.detach(tabId).catch((error: unknown) => console.error(`chrome-relay: detaching tab ${tabId} failed`, error)),
      ),
    );
  }

  /** Tabs with a session of ours right now. */
  attachedTabs(): number[] {
    return [...this.#attached];
  }

  /** Refuse attaching when `guard` throws (policy: pause, site block list). One guard; a new one replaces it. */
  setAttachGuard(guard: AttachGuard | undefined): void {
    this.#guard = guard;
  }

  /** Pass every Input.* command through `gate` first. One gate; a new one replaces it. */
  setInputGate(gate: InputGate | undefined): void {
    this.#inputGate = gate;
  }

  /** Idle time after which an unused session is detached; 0 keeps sessions. */
  setIdleDetachMs(ms: number): void {
    this.#idle.setIdleMs(ms);
  }

  /** Keep the tab's session while a call runs ('all': a call that may open a tab). Returns the release. */
  hold(tabs: readonly number[] | 'all'): () => void {
    return this.#idle.hold(tabs);
  }

  /** Never idle-detach a tab while `needed` says its session is in use (a dialog, a recording…). */
  keepAttachedIf(needed: (tabId: number) => boolean | Promise<boolean>): () => void {
    this.#keepers.add(needed);
    return () => this.#keepers.delete(needed);
  }

  async #needed(tabId: number): Promise<boolean> {
    if ((this.#pending.get(tabId)?.size ?? 0) > 0 || this.#attaching.has(tabId)) return true;
    for (const needed of [...this.#keepers]) if (await needed(tabId)) return true;
    return false;
  }

  async #detachNow(tabId: number): Promise<void> {
    const inflight = this.#attaching.get(tabId);
    if (inflight) await inflight.catch(() => undefined);
    if (!this.#attached.has(tabId)) return;
    try {
      await this.#transport.detach(tabId);
    } catch (error) {
      // Already gone (tab closed, or Chrome detached first): the end state is what we wanted.
      if (!NOT_ATTACHED.test(messageOf(error)) && !NO_TAB.test(messageOf(error))) {
        throw new RelayError('chrome_api_error', `chrome.debugger.detach failed for tab ${tabId}: ${messageOf(error)}`, {
          phase: 'act',
          details: { api: 'chrome.debugger.detach', apiMessage: messageOf(error), tab: tabId },
        });
      }
    }
    this.#forget(tabId, RELAY_DETACH_REASON);
  }

  /** The tab was closed (tabs.onRemoved): drop its session without talking to Chrome. */
  forgetTab(tabId: number): void {
    this.#forget(tabId, 'target_closed');
  }

  async #attachNow(tabId: number): Promise<void> {
    if (this.#guard) await this.#guard(tabId);
    try {
      await this.#transport.attach(tabId);
    } catch (error) {
      const apiMessage = messageOf(error);
      if (!ALREADY_ATTACHED.test(apiMessage)) throw attachError(tabId, apiMessage);
      if (!(await this.#isOurUsableSession(tabId))) {
        try {
          await this.#transport.detach(tabId);
        } catch {
          // We cannot detach a session that is not ours: someone else (another extension) holds the tab.
          throw attachError(tabId, apiMessage);
        }
        try {
          await this.#transport.attach(tabId);
        } catch (retryError) {
          throw attachError(tabId, messageOf(retryError));
        }
      }
    }
    this.#attached.add(tabId);
    this.#idle.attached(tabId);
    await this.#prepareSession(tabId);
  }

  /**
   * Settings every session needs before a tool uses it. Focus emulation: a background tab in a real
   * (headful) window is hidden, and a hidden page does not process input — Input.dispatchMouseEvent
   * then hangs and the click never lands (observed in Chromium 156 under Xvfb; headless shows every
   * tab as visible, which hides the problem). Emulated focus makes the page handle trusted input
   * without activating the tab or raising the window, so agents never steal the human's focus.
   */
  async #prepareSession(tabId: number): Promise<void> {
    // Sent together: the session handles them in order anyway, and a re-attach after an idle detach
    // pays one round trip instead of one per step.
    const focus = this.#transport.sendCommand({ tabId }, 'Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => {
      // Not fatal: pages that cannot take it (e.g. some internal pages) still work when visible.
    });
    const preparers = [...this.#preparers].map((preparer) =>
      preparer(tabId, (method, params) => this.#transport.sendCommand({ tabId }, method, params)).catch((error: unknown) => {
        console.error('chrome-relay: session preparer failed', error);
      }),
    );
    await Promise.all([focus, ...preparers]);
  }

  /**
   * A command only succeeds on a session this extension owns. Page.getNavigationHistory is answered
   * by the browser side, changes nothing, and — unlike Runtime.evaluate — still answers while a
   * JavaScript dialog blocks the page: probing with evaluate would fail there, we would re-attach,
   * and a new session can neither see nor answer the old dialog. The time limit covers a hung tab.
   */
  async #isOurUsableSession(tabId: number): Promise<boolean> {
    const probe = this.#transport.sendCommand({ tabId }, 'Page.getNavigationHistory', {}).then(
      () => true,
      () => false,
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), 1000);
    });
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  #sendOnce(target: CdpTarget, method: string, params: object | undefined): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let pending = this.#pending.get(target.tabId);
      if (!pending) {
        pending = new Set();
        this.#pending.set(target.tabId, pending);
      }
      const cutOff = (reason: string): void => reject(detachedError(method, target.tabId, reason));
      const registry = pending;
      registry.add(cutOff);
      this.#transport
        .sendCommand(target, method, params)
        .then(resolve, reject)
        .finally(() => registry.delete(cutOff));
    });
  }

  #commandError(method: string, error: unknown, tabId: number): RelayError {
    if (error instanceof RelayError) return error;
    const cdpMessage = cdpMessageOf(error);
    if (OTHER_EXTENSION_FRAME.test(cdpMessage)) return otherExtensionFrame(tabId, 'chrome.debugger.sendCommand', cdpMessage, method);
    return commandFailure(method, cdpMessage);
  }

  #forget(tabId: number, reason: string): void {
    const wasKnown = this.#attached.delete(tabId);
    this.#idle.forgotten(tabId);
    const pending = this.#pending.get(tabId);
    this.#pending.delete(tabId);
    if (pending) for (const cutOff of pending) cutOff(reason);
    if (!wasKnown) return;
    for (const listener of [...this.#detachListeners]) {
      try {
        listener(tabId, reason);
      } catch (error) {
        console.error('chrome-relay: onDetached listener threw', error);
      }
    }
  }

  #emit(event: CdpEvent): void {
    for (const listener of [...this.#eventListeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error(`chrome-relay: listener for ${event.method} threw`, error);
      }
    }
  }
}

/** chrome.debugger behind DebuggerTransport. `chrome` is only read when a method runs. */
export const chromeDebuggerTransport: DebuggerTransport = {
  attach: (tabId) => chrome.debugger.attach({ tabId }, '1.3'),
  detach: (tabId) => chrome.debugger.detach({ tabId }),
  sendCommand: (target, method, params) =>
    chrome.debugger.sendCommand(
      target.sessionId === undefined ? { tabId: target.tabId } : { tabId: target.tabId, sessionId: target.sessionId },
      method,
      params,
    ),
  listen(onEvent, onDetach) {
    chrome.debugger.onEvent.addListener((source, method, params) => {
      // We only ever attach to tabs; anything else is not ours to route.
      if (source.tabId === undefined) return;
      const event: CdpEvent = { tabId: source.tabId, method, params };
      if (source.sessionId !== undefined) event.sessionId = source.sessionId;
      onEvent(event);
    });
    chrome.debugger.onDetach.addListener((source, reason) => {
      if (source.tabId !== undefined) onDetach(source.tabId, reason);
    });
  },
};


/**
 * Debugger sessions of the person's own controls (policy/agentPages.ts), apart from the agents' sessions, their
 * attach guard and their queue: a page frozen or woken for Pause (a session of a moment), a worker held paused
 * while Pause lasts (the session is the hold). Nothing an agent asks for goes through here.
 */
export const chromeLifecycleDebugger = {
  /** Set a tab's page lifecycle; false when the tab cannot be debugged (another debugger, a browser page). */
  async setTabLifecycle(tabId: number, state: 'frozen' | 'active'): Promise<boolean> {
    let ours = false;
    try {
      await chrome.debugger.attach({ tabId }, '1.3');
      ours = true;
    } catch (error) {
      // Already attached by this extension: the command goes through that session. By another debugger: it fails below.
      if (!ALREADY_ATTACHED.test(messageOf(error))) return false;
    }
    try {
      await chrome.debugger.sendCommand({ tabId }, 'Page.setWebLifecycleState', { state });
      return true;
    } catch {
      return false;
    } finally {
      if (ours) await chrome.debugger.detach({ tabId }).catch(() => undefined);
    }
  },
  /** Every worker target of a web page (service and shared workers; the debugger lists both as "worker"). */
  async workers(): Promise<{ id: string; url: string }[]> {
    return (await chrome.debugger.getTargets())
      .filter((target) => target.type === 'worker' && /^(blob:)?https?:/i.test(target.url))
      .map((target) => ({ id: target.id, url: target.url }));
  },
  /** Stop a worker's JavaScript at its next statement; it stays stopped until the session ends. */
  async holdWorker(targetId: string): Promise<boolean> {
    try {
      await chrome.debugger.attach({ targetId }, '1.3');
    } catch {
      return false;
    }
    try {
      await chrome.debugger.sendCommand({ targetId }, 'Debugger.enable', {});
      await chrome.debugger.sendCommand({ targetId }, 'Debugger.pause', {});
      return true;
    } catch {
      await chrome.debugger.detach({ targetId }).catch(() => undefined);
      return false;
    }
  },
  /** End the hold: detaching resumes the worker. */
  async releaseWorker(targetId: string): Promise<void> {
    await chrome.debugger.detach({ targetId });
  },
};
