import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { SESSION_KEYS } from '../state/storage.js';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { closeTool } from './close.js';

async function rejection(promise: Promise<unknown>): Promise<RelayError> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof RelayError)) throw new Error(`expected a RelayError, got ${String(error)}`);
  return error;
}

describe('close', () => {
  it('closes every named tab', async () => {
    const env = createFakeEnvironment();
    const keep = env.browser.addTab().id ?? 0;
    const a = env.browser.addTab().id ?? 0;
    const b = env.browser.addTab().id ?? 0;
    expect(await closeTool.handle({ tabs: [a, b] }, env.ctx)).toEqual({ closed: [a, b] });
    expect([...env.browser.tabs.keys()]).toEqual([keep]);
  });

  it('closes nothing when one id does not exist', async () => {
    const env = createFakeEnvironment();
    env.browser.addTab();
    const a = env.browser.addTab().id ?? 0;
    const error = await rejection(closeTool.handle({ tabs: [a, 999] }, env.ctx));
    expect(error).toMatchObject({ code: 'target_not_found', details: { missing: [999] } });
    expect(env.browser.tabs.has(a)).toBe(true);
  });

  it('without ids closes only the tab chrome-relay last used; none, or a closed one, is target_not_found', async () => {
    const env = createFakeEnvironment();
    const active = env.browser.addTab({ active: true }).id ?? 0;
    const current = env.browser.addTab().id ?? 0;
    expect(await rejection(closeTool.handle({}, env.ctx))).toMatchObject({ code: 'target_not_found', details: { tab: null } });
    env.browser.session.set(SESSION_KEYS.currentTab, current);
    expect(await closeTool.handle({}, env.ctx)).toEqual({ closed: [current] });
    expect(await rejection(closeTool.handle({}, env.ctx))).toMatchObject({ code: 'target_not_found', details: { tab: current } });
    expect(env.browser.tabs.has(active)).toBe(true);
  });
});
