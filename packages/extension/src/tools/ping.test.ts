import { describe, expect, it } from 'vitest';
import { VERSION } from '@chrome-relay/protocol';
import { OPEN_DIALOGS_KEY } from '../pageState/dialogs.js';
import { SESSION_KEYS } from '../state/storage.js';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { pingTool } from './ping.js';

describe('ping', () => {
  it('answers from the worker alone without page, touching no tab', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ active: true }).id ?? 0;
    env.browser.session.set(SESSION_KEYS.currentTab, tab);
    expect(await pingTool.handle({}, env.ctx)).toEqual({ extensionVersion: VERSION });
    expect(env.debugger.sent).toEqual([]);
  });

  it('evaluates 1 in the tab chrome-relay last worked on', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    env.browser.session.set(SESSION_KEYS.currentTab, tab);
    env.debugger.handle('Runtime.evaluate', () => ({ result: { type: 'number', value: 1 } }));
    const result = await pingTool.handle({ page: true }, env.ctx);
    expect(result).toMatchObject({ extensionVersion: VERSION, page: { tabId: tab, url: 'https://a.test/', answered: true } });
    expect(env.debugger.sent.find((c) => c.method === 'Runtime.evaluate')).toMatchObject({ tabId: tab, params: { expression: '1' } });
  });

  it('never falls back to the active tab: no tab of its own (or a closed one) is page null', async () => {
    const env = createFakeEnvironment();
    env.browser.addTab({ active: true });
    expect(await pingTool.handle({ page: true }, env.ctx)).toEqual({ extensionVersion: VERSION, page: null });
    env.browser.session.set(SESSION_KEYS.currentTab, 999);
    expect(await pingTool.handle({ page: true }, env.ctx)).toEqual({ extensionVersion: VERSION, page: null });
    expect(env.debugger.sent).toEqual([]);
  });

  it('reports a page that does not answer by the deadline as data, not a throw', async () => {
    const env = createFakeEnvironment({ deadlineMs: 50 });
    const tab = env.browser.addTab().id ?? 0;
    env.browser.session.set(SESSION_KEYS.currentTab, tab);
    env.debugger.handle('Runtime.evaluate', () => new Promise(() => undefined));
    const result = await pingTool.handle({ page: true }, env.ctx);
    expect(result.page).toMatchObject({ tabId: tab, answered: false, problem: expect.stringContaining('did not evaluate') });
  });

  it('names an open dialog instead of evaluating behind it', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    env.browser.session.set(SESSION_KEYS.currentTab, tab);
    env.browser.session.set(OPEN_DIALOGS_KEY, { [tab]: { type: 'confirm', message: 'Sure?', url: '' } });
    const result = await pingTool.handle({ page: true }, env.ctx);
    expect(result.page).toMatchObject({ tabId: tab, answered: false, problem: expect.stringContaining(`chrome-relay dialog dismiss --tab ${tab}`) });
    expect(env.debugger.sent.filter((c) => c.method === 'Runtime.evaluate')).toEqual([]);
  });
});
