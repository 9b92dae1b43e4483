import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { keysTool } from './keys.js';
import { runTool } from '../testing/toolContext.js';

const confirmOpening = { type: 'confirm', message: 'Sure?', url: 'https://a.test/' };

describe('keys', () => {
  it('sends every combination in order and reports them canonically', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    expect(await runTool(keysTool, { keys: ['ctrl+a', 'Backspace'], tab }, env.ctx)).toEqual({ tabId: tab, pressed: ['Control+a', 'Backspace'] });
    const keys = env.debugger.sent.filter((c) => c.method === 'Input.dispatchKeyEvent').map((c) => (c.params as { type: string; key: string }).key);
    expect(keys).toEqual(['Control', 'a', 'a', 'Control', 'Backspace', 'Backspace']);
  });

  it('presses nothing when any name is unknown', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    const error = await runTool(keysTool, { keys: ['a', 'Nope'], tab }, env.ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_arguments', details: { field: 'keys', value: 'Nope' } });
    expect(env.debugger.methods()).not.toContain('Input.dispatchKeyEvent');
  });

  it('returns the dialog the last key opened, and refuses to go on past a dialog', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    env.debugger.handle('Input.dispatchKeyEvent', (params, tabId) => {
      if ((params as { key: string; type: string }).key !== 'Enter' || (params as { type: string }).type === 'keyUp') return {};
      env.debugger.emit(tabId, 'Page.javascriptDialogOpening', confirmOpening);
      return new Promise(() => undefined);
    });
    expect(await runTool(keysTool, { keys: ['a', 'Enter'], tab }, env.ctx)).toEqual({ tabId: tab, pressed: ['a', 'Enter'], dialog: confirmOpening });
    env.debugger.emit(tab, 'Page.javascriptDialogClosed', { result: true, userInput: '' });
    const error = await runTool(keysTool, { keys: ['Enter', 'b'], tab }, env.ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ code: 'partial_success_disallowed', details: { applied: ['Enter'], failed: ['b'] } });
  });
});
