import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { SESSION_KEYS } from './state/storage.js';
import { rememberedTab, rememberTab } from './targets.js';
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

describe('the remembered tab', () => {
  it('is the tab last remembered, written only when it changes', async () => {
    const { browser } = createFakeEnvironment();
    browser.addTab({ active: true });
    const worked = browser.addTab({}).id ?? 0;
    let writes = 0;
    const set = browser.storageSessionSet.bind(browser);
    browser.storageSessionSet = (items) => {
      writes++;
      return set(items);
    };
    await rememberTab(worked, browser);
    await rememberTab(worked, browser);
    expect(writes).toBe(1);
    expect(await rememberedTab(browser)).toBe(worked);
  });

  it('never falls back to the active tab when the remembered tab was closed: target_not_found naming it', async () => {
    const { browser } = createFakeEnvironment();
    browser.addTab({ active: true });
    const worked = browser.addTab({}).id ?? 0;
    await rememberTab(worked, browser);
    browser.closeTab(worked);
    const error = await rejection(rememberedTab(browser));
    expect(error.code).toBe('target_not_found');
    expect(error.details).toMatchObject({ tab: worked, remembered: true });
    expect(error.message).toMatch(/`chrome-relay tabs`.*`chrome-relay navigate <url>`/);
  });

  it('ignores a remembered value of the wrong shape, and then has no tab', async () => {
    const { browser } = createFakeEnvironment();
    browser.addTab({ active: true });
    browser.session.set(SESSION_KEYS.currentTab, 'seven');
    const error = await rejection(rememberedTab(browser));
    expect(error.code).toBe('target_not_found');
    expect(error.details).toMatchObject({ tab: null });
    expect(error.message).toContain('--tab');
  });
});
