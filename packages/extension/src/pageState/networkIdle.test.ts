import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { InflightRequests, NETWORK_QUIET_MS } from './networkIdle.js';

describe('InflightRequests', () => {
  it('is idle only with nothing in flight for the quiet period', () => {
    const requests = new InflightRequests(0);
    requests.observe('Network.requestWillBeSent', { requestId: 'a' }, 100);
    requests.observe('Network.requestWillBeSent', { requestId: 'a' }, 150); // a redirect: still one
    expect(requests.count).toBe(1);
    expect(requests.isIdle(10_000, 0)).toBe(false);
    requests.observe('Network.loadingFinished', { requestId: 'a' }, 400);
    expect(requests.isIdle(400 + NETWORK_QUIET_MS - 1, 0)).toBe(false);
    expect(requests.isIdle(400 + NETWORK_QUIET_MS, 0)).toBe(true);
  });

  it('ignores the end of requests it never saw start, and measures quiet from quietFrom', () => {
    const requests = new InflightRequests(0);
    requests.observe('Network.loadingFailed', { requestId: 'unknown' }, 300);
    expect(requests.lastActivity).toBe(0);
    expect(requests.isIdle(600, 200)).toBe(false);
    expect(requests.isIdle(700, 200)).toBe(true);
  });
});

describe('NetworkActivity', () => {
  it('tracks requests of every tab from events and never disables Network', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    const activity = env.ctx.network;
    expect(await activity.ensureEnabled(env.ctx, tab)).toBe(true);
    expect(await activity.ensureEnabled(env.ctx, tab)).toBe(false);
    env.debugger.emit(tab, 'Network.requestWillBeSent', { requestId: 'r1' });
    expect(activity.requests(tab).count).toBe(1);
    expect(env.debugger.methods(tab)).not.toContain('Network.disable');
    env.debugger.detachByChrome(tab, 'canceled_by_user');
    expect(activity.requests(tab).count).toBe(0);
  });
});
