import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { FakeDebugger, protocolError } from '../testing/fakeChrome.js';
import { FakeClock, settle } from '../testing/fakeClock.js';
import { CdpSessions, cdpMessageOf, RELAY_DETACH_REASON, type CdpEvent } from './cdpSession.js';

function setup(): { fake: FakeDebugger; cdp: CdpSessions } {
  const fake = new FakeDebugger();
  const cdp = new CdpSessions(fake);
  cdp.start();
  return { fake, cdp };
}

async function rejection(promise: Promise<unknown>): Promise<RelayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw new Error(`expected a RelayError, got ${String(error)}`);
  }
  throw new Error('expected a rejection');
}

const FOCUS = 'Emulation.setFocusEmulationEnabled';

describe('CdpSessions', () => {
  it('attaches on first send and only once for concurrent sends', async () => {
    const { fake, cdp } = setup();
    fake.handle('Runtime.evaluate', () => ({ result: { type: 'number', value: 2 } }));
    const [a, b] = await Promise.all([
      cdp.send(7, 'Runtime.evaluate', { expression: '1+1' }),
      cdp.send({ tabId: 7 }, 'Page.enable'),
    ]);
    expect(a.result.value).toBe(2);
    expect(b).toEqual({});
    expect(fake.attachCalls).toBe(1);
    expect(cdp.isAttached(7)).toBe(true);
  });

  it('turns on focus emulation once per fresh session, so hidden background tabs take input', async () => {
    const { fake, cdp } = setup();
    await cdp.send(5, 'Page.enable');
    await cdp.send(5, 'Page.enable');
    expect(fake.methods(5)).toEqual([FOCUS, 'Page.enable', 'Page.enable']);
    expect(fake.sent[0]?.params).toEqual({ enabled: true });
  });

  it('passes the child session id through', async () => {
    const { fake, cdp } = setup();
    await cdp.send({ tabId: 3, sessionId: 'S1' }, 'Runtime.enable');
    expect(fake.sent.find((c) => c.method === 'Runtime.enable')).toEqual({ tabId: 3, sessionId: 'S1', method: 'Runtime.enable', params: undefined });
  });

  it('turns a protocol error into cdp_error naming the method', async () => {
    const { fake, cdp } = setup();
    fake.handle('DOM.describeNode', () => {
      throw protocolError('Could not find node with given id');
    });
    const error = await rejection(cdp.send(1, 'DOM.describeNode', { backendNodeId: 5 }));
    expect(error.code).toBe('cdp_error');
    expect(error.message).toBe('DOM.describeNode failed: Could not find node with given id');
    expect(error.details).toEqual({ method: 'DOM.describeNode', cdpMessage: 'Could not find node with given id' });
  });

  it('a tab showing another extension\'s frame: chrome_api_error that names the cause, never a retryable cdp_error', async () => {
    const { fake, cdp } = setup();
    fake.handle('Runtime.evaluate', () => {
      throw protocolError('Cannot access a chrome-extension:// URL of different extension');
    });
    const error = await rejection(cdp.send(4, 'Runtime.evaluate', { expression: '1' }));
    expect(error.toData()).toMatchObject({
      code: 'chrome_api_error',
      retryable: false,
      details: { cause: 'extension_frame', method: 'Runtime.evaluate', tab: 4, restricted: true },
    });
    expect(error.message).toMatch(/another extension in a frame .*Use another tab/);
    fake.unattachable.set(5, 'Cannot access a chrome-extension:// URL of different extension');
    expect((await rejection(cdp.attach(5))).details).toMatchObject({ cause: 'extension_frame', api: 'chrome.debugger.attach' });
  });

  it('unwraps the JSON text chrome.debugger uses for protocol errors', () => {
    expect(cdpMessageOf(protocolError('boom'))).toBe('boom');
    expect(cdpMessageOf(new Error('plain'))).toBe('plain');
  });

  it('keeps our own session from before a worker restart when it still answers', async () => {
    const { fake, cdp } = setup();
    fake.heldByOldSession.add(4);
    await cdp.send(4, 'Page.enable');
    expect(fake.detachCalls).toBe(0);
    expect(fake.methods(4)).toEqual(['Page.getNavigationHistory', FOCUS, 'Page.enable']);
  });

  it('detaches and re-attaches when the old session does not answer', async () => {
    const { fake, cdp } = setup();
    fake.heldByOldSession.add(4);
    fake.handle('Page.getNavigationHistory', () => {
      throw protocolError('Inspected target navigated or closed');
    });
    await cdp.attach(4);
    expect(fake.detachCalls).toBe(1);
    expect(fake.attached.has(4)).toBe(true);
  });

  it('reports a tab another debugger owns as chrome_api_error', async () => {
    const { fake, cdp } = setup();
    fake.heldByOther.add(9);
    const error = await rejection(cdp.attach(9));
    expect(error.code).toBe('chrome_api_error');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('another debugger');
    expect(cdp.isAttached(9)).toBe(false);
  });

  it('maps attach failures: missing tab → target_not_found, chrome:// → chrome_api_error that no retry can fix', async () => {
    const { fake, cdp } = setup();
    fake.missing.add(5);
    fake.unattachable.set(6, 'Cannot access a chrome:// URL');
    expect((await rejection(cdp.attach(5))).code).toBe('target_not_found');
    const restricted = await rejection(cdp.attach(6));
    expect(restricted.code).toBe('chrome_api_error');
    expect(restricted.retryable).toBe(false);
    expect(restricted.details['apiMessage']).toBe('Cannot access a chrome:// URL');
  });

  it('rejects in-flight commands when the tab detaches and tells listeners', async () => {
    const { fake, cdp } = setup();
    let release: (() => void) | undefined;
    fake.handle('Page.navigate', () => new Promise<void>((resolve) => (release = resolve)));
    const detached: Array<[number, string]> = [];
    cdp.onDetached((tabId, reason) => detached.push([tabId, reason]));
    const pending = cdp.send(2, 'Page.navigate', { url: 'https://example.com/' });
    await new Promise((r) => setTimeout(r, 0));
    fake.detachByChrome(2, 'canceled_by_user');
    const error = await rejection(pending);
    expect(error.code).toBe('cdp_error');
    expect(error.message).toContain('Cancel');
    expect(detached).toEqual([[2, 'canceled_by_user']]);
    expect(cdp.isAttached(2)).toBe(false);
    release?.();
  });

  it('rejects in-flight commands of a closed tab as target_not_found', async () => {
    const { fake, cdp } = setup();
    fake.handle('Runtime.evaluate', () => new Promise(() => undefined));
    const pending = cdp.send(2, 'Runtime.evaluate', { expression: '1' });
    await new Promise((r) => setTimeout(r, 0));
    cdp.forgetTab(2);
    expect((await rejection(pending)).code).toBe('target_not_found');
  });

  it('re-attaches once when Chrome says the session is gone, then sends again', async () => {
    const { fake, cdp } = setup();
    await cdp.attach(8);
    fake.attached.delete(8); // Chrome dropped it without an onDetach we saw.
    await cdp.send(8, 'Page.enable');
    expect(fake.attachCalls).toBe(2);
    expect(fake.methods(8)).toEqual([FOCUS, 'Page.enable', FOCUS, 'Page.enable']);
  });

  it('routes events to listeners until they unsubscribe', () => {
    const { fake, cdp } = setup();
    const seen: CdpEvent[] = [];
    const off = cdp.on((event) => seen.push(event));
    fake.emit(1, 'Page.loadEventFired', { timestamp: 1 });
    off();
    fake.emit(1, 'Page.loadEventFired', { timestamp: 2 });
    expect(seen).toEqual([{ tabId: 1, method: 'Page.loadEventFired', params: { timestamp: 1 } }]);
  });

  it('detach() ends the session and notifies with the relay reason', async () => {
    const { fake, cdp } = setup();
    const reasons: string[] = [];
    cdp.onDetached((_tab, reason) => reasons.push(reason));
    await cdp.attach(3);
    await cdp.detach(3);
    await cdp.detach(3); // idempotent
    expect(fake.attached.has(3)).toBe(false);
    expect(reasons).toEqual([RELAY_DETACH_REASON]);
  });

  it('retries a command that hit the page swap right after a cross-process commit', async () => {
    const { fake, cdp } = setup();
    let calls = 0;
    fake.handle('Page.getNavigationHistory', () => {
      calls++;
      if (calls < 3) throw protocolError('Not attached to an active page');
      return { currentIndex: 0, entries: [] };
    });
    expect(await cdp.send(1, 'Page.getNavigationHistory')).toEqual({ currentIndex: 0, entries: [] });
    expect(calls).toBe(3);
  });
});

describe('CdpSessions: idle detach, attach guard, pause', () => {
  function withClock(idleMs = 15_000) {
    const fake = new FakeDebugger();
    const clock = new FakeClock();
    const cdp = new CdpSessions(fake, { clock });
    cdp.start();
    cdp.setIdleDetachMs(idleMs);
    return { fake, clock, cdp };
  }

  it('detaches a tab idle for the configured time and re-attaches on the next command', async () => {
    const { fake, clock, cdp } = withClock();
    const reasons: string[] = [];
    cdp.onDetached((_tab, reason) => reasons.push(reason));
    await cdp.send(3, 'Page.enable');
    await clock.advance(15_000);
    expect(fake.attached.has(3)).toBe(false);
    expect(cdp.isAttached(3)).toBe(false);
    expect(reasons).toEqual([RELAY_DETACH_REASON]);
    await cdp.send(3, 'Runtime.evaluate', { expression: '1' });
    expect(fake.attachCalls).toBe(2);
    expect(fake.methods(3)).toEqual([FOCUS, 'Page.enable', FOCUS, 'Runtime.evaluate']);
  });

  it('keeps a session while a command is in flight on it', async () => {
    const { fake, clock, cdp } = withClock(1_000);
    let release: (() => void) | undefined;
    fake.handle('Runtime.evaluate', () => new Promise<void>((resolve) => (release = resolve)));
    const pending = cdp.send(3, 'Runtime.evaluate', { expression: 'slow()' });
    await clock.advance(5_000);
    expect(fake.attached.has(3)).toBe(true);
    release?.();
    await pending;
  });

  it('keeps a session a keeper needs (an open dialog, a recording)', async () => {
    const { fake, clock, cdp } = withClock(1_000);
    let needed = true;
    cdp.keepAttachedIf((tabId) => tabId === 3 && needed);
    await cdp.attach(3);
    await clock.advance(10_000);
    expect(fake.attached.has(3)).toBe(true);
    needed = false;
    await clock.advance(1_000);
    expect(fake.attached.has(3)).toBe(false);
  });

  it('a held tab keeps its session for the whole call', async () => {
    const { fake, clock, cdp } = withClock(1_000);
    await cdp.attach(3);
    const release = cdp.hold([3]);
    await clock.advance(10_000);
    expect(fake.attached.has(3)).toBe(true);
    release();
    await clock.advance(1_000);
    expect(fake.attached.has(3)).toBe(false);
  });

  it('the attach guard refuses before chrome.debugger.attach is called', async () => {
    const { fake, cdp } = withClock();
    cdp.setAttachGuard(async (tabId) => {
      if (tabId === 9) throw new RelayError('target_conflict', 'blocked', { details: { reason: 'site_blocked' } });
    });
    const error = await rejection(cdp.send(9, 'Page.enable'));
    expect(error.details['reason']).toBe('site_blocked');
    expect(fake.attachCalls).toBe(0);
    expect(cdp.isAttached(9)).toBe(false);
    await cdp.send(8, 'Page.enable');
    expect(fake.attached.has(8)).toBe(true);
  });

  it('detachAll ends every session and cuts the commands in flight', async () => {
    const { fake, cdp } = withClock();
    fake.handle('Runtime.evaluate', () => new Promise(() => undefined));
    await cdp.attach(1);
    await cdp.attach(2);
    const pending = cdp.send(1, 'Runtime.evaluate', { expression: 'wait()' });
    await settle();
    await cdp.detachAll();
    expect([...fake.attached]).toEqual([]);
    expect(cdp.attachedTabs()).toEqual([]);
    expect((await rejection(pending)).code).toBe('cdp_error');
  });

  it('an attach during a detach waits for it, then attaches afresh', async () => {
    const { fake, cdp } = withClock();
    await cdp.attach(4);
    const detaching = cdp.detach(4);
    const sending = cdp.send(4, 'Page.enable');
    await detaching;
    await sending;
    expect(fake.attached.has(4)).toBe(true);
    expect(cdp.isAttached(4)).toBe(true);
    expect(fake.attachCalls).toBe(2);
  });

  it('after a person presses Cancel on the debugging bar, the next command attaches again', async () => {
    const { fake, cdp } = withClock();
    await cdp.send(5, 'Page.enable');
    fake.detachByChrome(5, 'canceled_by_user');
    expect(cdp.isAttached(5)).toBe(false);
    await cdp.send(5, 'Page.enable');
    expect(fake.attached.has(5)).toBe(true);
    expect(fake.attachCalls).toBe(2);
  });
});
