import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { SESSION_KEYS } from './state/storage.js';
import { resolveTab, setCurrentTab } from './targets.js';
import { createFakeEnvironment } from './testing/fakeChrome.js';

async function rejection(promise: Promise<unknown>): Promise<RelayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('resolveTab', () => {
  it('accepts an existing explicit tab and makes it current', async () => {
    const { browser, ctx } = createFakeEnvironment();
    const tab = browser.addTab({ url: 'https://a.test/' });
    expect(await resolveTab(tab.id, ctx)).toBe(tab.id);
    expect(browser.session.get(SESSION_KEYS.currentTab)).toBe(tab.id);
  });

  it('rejects a missing explicit tab with target_not_found and details.tab', async () => {
    const { ctx } = createFakeEnvironment();
    const error = await rejection(resolveTab(999, ctx));
    expect(error.code).toBe('target_not_found');
    expect(error.details['tab']).toBe(999);
  });

  it('uses the current tab when none is given', async () => {
    const { browser, ctx } = createFakeEnvironment();
    browser.addTab({ active: true });
    const worked = browser.addTab({});
    await setCurrentTab(worked.id ?? 0, browser);
    expect(await resolveTab(undefined, ctx)).toBe(worked.id);
  });

  it('never falls back to the active tab when the remembered tab was closed: target_not_found naming it', async () => {
    const { browser, ctx } = createFakeEnvironment();
    browser.addTab({ active: true });
    const worked = browser.addTab({});
    await setCurrentTab(worked.id ?? 0, browser);
    browser.closeTab(worked.id ?? 0);
    const error = await rejection(resolveTab(undefined, ctx));
    expect(error.code).toBe('target_not_found');
    expect(error.details).toMatchObject({ tab: worked.id, remembered: true });
    expect(error.message).toMatch(/`chrome-relay tabs`.*`chrome-relay navigate <url>`/);
  });

  it('ignores a remembered value of the wrong shape, and then has no tab', async () => {
    const { browser, ctx } = createFakeEnvironment();
    browser.addTab({ active: true });
    browser.session.set(SESSION_KEYS.currentTab, 'seven');
    const error = await rejection(resolveTab(undefined, ctx));
    expect(error.code).toBe('target_not_found');
    expect(error.details).toMatchObject({ tab: null });
  });

  it('without a tab ever used, it is target_not_found even with an active tab around', async () => {
    const { browser, ctx } = createFakeEnvironment();
    browser.addTab({ active: true });
    const error = await rejection(resolveTab(undefined, ctx));
    expect(error.code).toBe('target_not_found');
    expect(error.message).toContain('--tab');
  });
});

