import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { createFakeEnvironment, type FakeEnvironment } from '../testing/fakeChrome.js';
import { aDialog, dialogOpenError, DialogTracker, OPEN_DIALOGS_KEY } from './dialogs.js';

const confirmOpening = { type: 'confirm', message: 'Sure?', url: 'https://a.test/', defaultPrompt: '', frameId: 'F', hasBrowserHandler: true };
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(): { env: FakeEnvironment; tab: number; tracker: DialogTracker } {
  const env = createFakeEnvironment({ deadlineMs: 2_000 });
  const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
  return { env, tab, tracker: new DialogTracker(env.cdp, env.browser) };
}

describe('DialogTracker', () => {
  it('records dialogs from Page events, persists them, and clears them on close', async () => {
    const { env, tab, tracker } = setup();
    await env.cdp.attach(tab);
    env.debugger.emit(tab, 'Page.javascriptDialogOpening', confirmOpening);
    expect(await tracker.current(tab)).toEqual({ type: 'confirm', message: 'Sure?', url: 'https://a.test/' });
    await tick();
    expect(env.browser.session.get(OPEN_DIALOGS_KEY)).toEqual({ [tab]: { type: 'confirm', message: 'Sure?', url: 'https://a.test/' } });
    env.debugger.emit(tab, 'Page.javascriptDialogClosed', { result: true, userInput: '' });
    expect(await tracker.current(tab)).toBeUndefined();
    await tick();
    expect(env.browser.session.get(OPEN_DIALOGS_KEY)).toEqual({});
  });

  it('a restarted worker reads the open dialog back from session storage', async () => {
    const { env, tab } = setup();
    env.browser.session.set(OPEN_DIALOGS_KEY, { [tab]: { type: 'alert', message: 'Hi', url: 'https://a.test/' } });
    const restarted = new DialogTracker(env.cdp, env.browser);
    expect(await restarted.current(tab)).toMatchObject({ type: 'alert', message: 'Hi' });
  });

  it('watch settles with the dialog while the action that opened it still hangs', async () => {
    const { env, tab, tracker } = setup();
    await env.cdp.attach(tab);
    env.debugger.handle('Input.dispatchKeyEvent', (_params, tabId) => {
      env.debugger.emit(tabId, 'Page.javascriptDialogOpening', confirmOpening);
      return new Promise(() => undefined);
    });
    const outcome = await tracker.watch(tab, () => env.cdp.send(tab, 'Input.dispatchKeyEvent', { type: 'keyDown' }));
    expect(outcome).toEqual({ dialog: { type: 'confirm', message: 'Sure?', url: 'https://a.test/' } });
  });

  it('reports an unresponsive page instead of hanging on Page.enable', async () => {
    const { env, tab, tracker } = setup();
    env.debugger.handle('Page.enable', () => new Promise(() => undefined));
    const started = Date.now();
    const error = await tracker.ensureEvents({ ...env.ctx, deadline: Date.now() + 100 }, tab, 'get').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ code: 'timeout', details: { tab, method: 'Page.enable' } });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('enables Page once per session, again after a detach', async () => {
    const { env, tab, tracker } = setup();
    await tracker.ensureEvents(env.ctx, tab, 'get');
    await tracker.ensureEvents(env.ctx, tab, 'get');
    expect(env.debugger.methods(tab).filter((m) => m === 'Page.enable')).toHaveLength(1);
    env.debugger.detachByChrome(tab, 'canceled_by_user');
    await tracker.ensureEvents(env.ctx, tab, 'get');
    expect(env.debugger.methods(tab).filter((m) => m === 'Page.enable')).toHaveLength(2);
  });
});

describe('dialog messages', () => {
  it('name the dialog with the right article', () => {
    expect(aDialog('alert')).toBe('an alert dialog');
    expect(aDialog('confirm')).toBe('a confirm dialog');
    expect(aDialog('beforeunload')).toBe('a beforeunload dialog');
    expect(dialogOpenError(3, { type: 'alert', message: 'Hi', url: '' }, 'click').message).toMatch(/^An alert dialog is open on tab 3/);
    expect(dialogOpenError(3, { type: 'prompt', message: '', url: '' }, 'click').message).toMatch(/^A prompt dialog is open on tab 3/);
  });
});
