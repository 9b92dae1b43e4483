/**
 * Hand-written fakes for unit tests: a scriptable chrome.debugger behind DebuggerTransport, and the environment a
 * tool test starts from (a FakeBrowser, fakeBrowser.ts, with a CdpSessions over this fake and a ToolContext). They
 * fail the way Chrome does (same error texts), so the real error mapping is what the tests exercise.
 */
import { CdpSessions, type CdpEvent, type CdpTarget, type DebuggerTransport } from '../cdp/cdpSession.js';
import type { ToolContext } from '../actions/toolContext.js';
import { FakeBrowser } from './fakeBrowser.js';
import { fakeServices } from './toolContext.js';

export interface SentCommand {
  tabId: number;
  sessionId?: string;
  method: string;
  params: object | undefined;
}

/** Reply to one CDP method. Throw `protocolError(...)` to fail like Chrome does. */
export type CommandHandler = (params: object | undefined, tabId: number) => unknown;

/** The error chrome.debugger.sendCommand rejects with for a CDP protocol error. */
export function protocolError(message: string, code = -32000): Error {
  return new Error(JSON.stringify({ code, message }));
}

export class FakeDebugger implements DebuggerTransport {
  readonly sent: SentCommand[] = [];
  /** Tabs with a live session of this extension, as Chrome sees it. */
  readonly attached = new Set<number>();
  /** Our sessions from before a (simulated) worker restart: usable, but attach says "already attached". */
  readonly heldByOldSession = new Set<number>();
  /** Tabs someone else (DevTools, another extension) debugs: attach fails, commands fail. */
  readonly heldByOther = new Set<number>();
  /** Tabs that cannot be debugged at all, with Chrome's message. */
  readonly unattachable = new Map<number, string>();
  /** Tabs that do not exist. */
  readonly missing = new Set<number>();
  attachCalls = 0;
  detachCalls = 0;
  readonly #handlers = new Map<string, CommandHandler>();
  #onEvent: ((event: CdpEvent) => void) | undefined;
  #onDetach: ((tabId: number, reason: string) => void) | undefined;

  handle(method: string, handler: CommandHandler): this {
    this.#handlers.set(method, handler);
    return this;
  }

  /** Deliver a CDP event, as chrome.debugger.onEvent would. */
  emit(tabId: number, method: string, params: unknown = {}): void {
    this.#onEvent?.({ tabId, method, params });
  }

  /** Chrome ends the session (tab closed, user pressed Cancel…). */
  detachByChrome(tabId: number, reason: string): void {
    this.attached.delete(tabId);
    this.heldByOldSession.delete(tabId);
    this.#onDetach?.(tabId, reason);
  }

  methods(tabId?: number): string[] {
    return this.sent.filter((c) => tabId === undefined || c.tabId === tabId).map((c) => c.method);
  }

  async attach(tabId: number): Promise<void> {
    this.attachCalls++;
    if (this.missing.has(tabId)) throw new Error(`No tab with given id ${tabId}.`);
    const refusal = this.unattachable.get(tabId);
    if (refusal) throw new Error(refusal);
    if (this.attached.has(tabId) || this.heldByOldSession.has(tabId) || this.heldByOther.has(tabId)) {
      throw new Error(`Another debugger is already attached to the tab with id: ${tabId}.`);
    }
    this.attached.add(tabId);
  }

  async detach(tabId: number): Promise<void> {
    this.detachCalls++;
    if (!this.attached.has(tabId) && !this.heldByOldSession.has(tabId)) {
      throw new Error(`Debugger is not attached to the tab with id: ${tabId}.`);
    }
    this.attached.delete(tabId);
    this.heldByOldSession.delete(tabId);
  }

  async sendCommand(target: CdpTarget, method: string, params: object | undefined): Promise<unknown> {
    const command: SentCommand = { tabId: target.tabId, method, params };
    if (target.sessionId !== undefined) command.sessionId = target.sessionId;
    this.sent.push(command);
    if (!this.attached.has(target.tabId) && !this.heldByOldSession.has(target.tabId)) {
      throw new Error(`Debugger is not attached to the tab with id: ${target.tabId}.`);
    }
    const handler = this.#handlers.get(method);
    return handler ? await handler(params, target.tabId) : {};
  }

  listen(onEvent: (event: CdpEvent) => void, onDetach: (tabId: number, reason: string) => void): void {
    this.#onEvent = onEvent;
    this.#onDetach = onDetach;
  }
}

export interface FakeEnvironment {
  browser: FakeBrowser;
  debugger: FakeDebugger;
  cdp: CdpSessions;
  ctx: ToolContext;
}

/** A browser with one focused normal window, a started CdpSessions over a FakeDebugger, and a ToolContext. */
export function createFakeEnvironment(options: { deadlineMs?: number } = {}): FakeEnvironment {
  const browser = new FakeBrowser();
  browser.addWindow({ focused: true });
  const fakeDebugger = new FakeDebugger();
  const cdp = new CdpSessions(fakeDebugger);
  cdp.start();
  const ctx: ToolContext = { ...fakeServices(cdp, browser), deadline: Date.now() + (options.deadlineMs ?? 5_000), target: { kind: 'none' }, refs: new Map() };
  return { browser, debugger: fakeDebugger, cdp, ctx };
}
