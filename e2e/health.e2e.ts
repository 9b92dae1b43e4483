/**
 * Health an agent can trust (a stuck worker, the circuit, reconnect), through the built CLI. The fault is real and injected from the observation
 * side, like killing the worker in refs.e2e.ts: an endless loop started in the extension's service worker over
 * DevTools, so the worker stops answering while its native port (and the host's cached hello) stay up. Then:
 * calls time out; after 3 the host's circuit opens and calls fail at once; doctor's round trip fails and names
 * the fix; once the worker runs again (its loop terminated over DevTools, or the worker killed and woken) calls
 * work and `chrome-relay reconnect` re-arms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession } from 'puppeteer-core';
import { EXTENSION_ID, startRelay, until, type CliResult, type Relay } from './harness.js';
import { open } from './helpers.js';

/** Deadline of the calls that are meant to time out: short, but far above a healthy round trip. */
const SHORT_MS = '1500';
/** Deadline of the call that must fail fast: a fail-fast answer comes back in a small fraction of it. */
const LONG_MS = 30_000;

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

async function workerTarget() {
  return until(() => relay.devtools.targets().find((t) => t.type() === 'service_worker' && t.url().includes(EXTENSION_ID)) ?? null, 10_000, 'service worker');
}

/** Start an endless loop in the service worker; returns its DevTools session, which can still interrupt it. */
async function wedgeWorker(): Promise<CDPSession> {
  const worker = await (await workerTarget()).worker();
  if (!worker) throw new Error('no worker handle for the service worker target');
  // The loop starts after this evaluation has answered, so the DevTools call itself returns.
  await worker.evaluate('setTimeout(() => { for (;;) {} }, 0); 0');
  return worker.client;
}

/** Runtime.terminateExecution interrupts running JavaScript; the worker then runs its message loop again. */
async function unwedge(session: CDPSession): Promise<void> {
  await session.send('Runtime.terminateExecution');
}

async function timeOutThreeCalls(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const call = await relay.cli('--timeout', SHORT_MS, 'tabs');
    expect(call.error, call.stderr).toMatchObject({ code: 'timeout', tool: 'tabs', phase: 'host' });
  }
}

/** A call with a long deadline, and how long it took compared with that deadline. */
async function timedCall(): Promise<{ call: CliResult; fraction: number }> {
  const started = Date.now();
  const call = await relay.cli('--timeout', String(LONG_MS), 'tabs');
  return { call, fraction: (Date.now() - started) / LONG_MS };
}

describe('health: a wedged service worker', () => {
  it('reconnect is a command with an example', async () => {
    const help = await relay.cli('reconnect', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('cuts no call in flight');
    expect(help.stdout).toContain('$ chrome-relay reconnect');
  });

  it('healthy doctor does a real round trip to the extension and to chrome-relay\'s tab', async () => {
    const tab = await open(relay, '/button.html');
    const doctor = await relay.cli('doctor', '--profile', relay.profile);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(/\[ok\] {3}extension answering \(.*\): its service worker answered a ping in \d+ ms/);
    expect(doctor.stdout).toMatch(new RegExp(`\\[ok\\] {3}tab answering \\(.*\\): tab ${tab.tabId} \\(.*button\\.html.*\\) evaluated \`1\` in \\d+ ms`));
  });

  it('times out 3 calls, then fails fast with circuit_open; doctor fails naming the fix; reconnect re-arms once the worker answers', async () => {
    const session = await wedgeWorker();
    try {
      await timeOutThreeCalls();

      const { call: fast, fraction } = await timedCall();
      expect(fast.error, fast.stderr).toMatchObject({ code: 'extension_not_connected', tool: 'tabs', phase: 'host', details: { reason: 'circuit_open', consecutiveTimeouts: 3 } });
      expect(fast.error?.message).toContain('chrome-relay reconnect');
      expect(fraction).toBeLessThan(0.25);

      // The host still holds the extension's hello; only a real round trip shows it does not answer.
      const doctor = await relay.cli('doctor', '--profile', relay.profile);
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toMatch(/\[ok\] {3}extension connected/);
      expect(doctor.stdout).toMatch(/\[FAIL\] extension answering \(.*\): connected, but the extension did not answer a ping within 3000 ms/);
      expect(doctor.stdout).toMatch(/\n {7}fix: reload chrome-relay in chrome:\/\/extensions .*`chrome-relay reconnect`/);
      expect(doctor.error).toMatchObject({ code: 'timeout', tool: 'doctor', details: { reason: 'extension_unresponsive' } });

      // Re-arming while the worker is still stuck says so, within its own deadline, instead of pretending.
      const early = await relay.cli('--timeout', SHORT_MS, 'reconnect');
      expect(early.error, early.stderr).toMatchObject({ code: 'extension_not_connected', tool: 'reconnect', details: { reason: 'circuit_open' } });
    } finally {
      await unwedge(session);
    }

    const rearmed = await relay.cli('reconnect', '--json');
    expect(rearmed.code, rearmed.stderr).toBe(0);
    expect(rearmed.json).toMatchObject({ hosts: [{ profile: relay.profile, hostPid: relay.hostPid() }] });
    const tabs = await relay.cli('tabs');
    expect(tabs.code, tabs.stderr).toBe(0);
    const doctor = await relay.cli('doctor', '--profile', relay.profile);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
  });

  it('the circuit closes by itself once the worker runs again (no reconnect)', async () => {
    const hostPid = relay.hostPid();
    const session = await wedgeWorker();
    try {
      await timeOutThreeCalls();
      const { call: fast } = await timedCall();
      expect(fast.error?.details.reason).toBe('circuit_open');
    } finally {
      await unwedge(session);
    }
    await until(async () => (await relay.cli('--timeout', SHORT_MS, 'tabs')).code === 0, 15_000, 'calls flow again');
    // The same host recovered: nothing was restarted.
    expect(relay.hostPid()).toBe(hostPid);
  });

  it('a wedged worker that is killed comes back on the next browser event with a fresh host; reconnect confirms', async () => {
    const oldHost = relay.hostPid();
    await wedgeWorker();
    await timeOutThreeCalls();
    const worker = await workerTarget();
    const browserSession = await relay.devtools.target().createCDPSession();
    await browserSession.send('Target.closeTarget', { targetId: (worker as unknown as { _targetId: string })._targetId });
    // Any extension event wakes it: a tab update does (CHROMIUM.md).
    const wakePage = await relay.devtools.newPage();
    await wakePage.goto(relay.server.url('/other.html'));
    await until(async () => (await relay.cli('tabs')).code === 0, 15_000, 'worker and host back');
    expect(relay.hostPid()).not.toBe(oldHost);
    const rearmed = await relay.cli('reconnect', '--json');
    expect(rearmed.code, rearmed.stderr).toBe(0);
    expect(rearmed.json).toMatchObject({ hosts: [{ wasOpen: false }] });
  });
});
