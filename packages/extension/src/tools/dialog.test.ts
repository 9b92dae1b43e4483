import { describe, expect, it } from 'vitest';
import { createFakeEnvironment, protocolError } from '../testing/fakeChrome.js';
import { dialogTool } from './dialog.js';
import { runTool } from '../testing/toolContext.js';

describe('dialog', () => {
  it('answers the open dialog with its text and reports which one it was', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    await env.cdp.attach(tab);
    env.debugger.emit(tab, 'Page.javascriptDialogOpening', { type: 'prompt', message: 'Name?', url: 'https://a.test/', defaultPrompt: 'x' });
    const result = await runTool(dialogTool, { action: 'accept', text: 'Ada', tab }, env.ctx);
    expect(result).toEqual({ tabId: tab, action: 'accept', dialog: { type: 'prompt', message: 'Name?', url: 'https://a.test/', defaultPrompt: 'x' } });
    expect(env.debugger.sent.find((c) => c.method === 'Page.handleJavaScriptDialog')?.params).toEqual({ accept: true, promptText: 'Ada' });
    expect(await env.ctx.dialogs.current(tab)).toBeUndefined();
  });

  it('refuses --text for anything but accepting a prompt', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    await env.cdp.attach(tab);
    env.debugger.emit(tab, 'Page.javascriptDialogOpening', { type: 'alert', message: 'Hi', url: 'https://a.test/' });
    expect(await runTool(dialogTool, { action: 'accept', text: 'x', tab }, env.ctx).catch((e: unknown) => e)).toMatchObject({ code: 'invalid_arguments', details: { field: 'text' } });
    expect(await runTool(dialogTool, { action: 'dismiss', text: 'x', tab }, env.ctx).catch((e: unknown) => e)).toMatchObject({ code: 'invalid_arguments', details: { field: 'text' } });
    expect(env.debugger.methods()).not.toContain('Page.handleJavaScriptDialog');
  });

  it("turns Chrome's 'No dialog is showing' into target_not_found", async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    env.debugger.handle('Page.handleJavaScriptDialog', () => {
      throw protocolError('No dialog is showing', -32602);
    });
    expect(await runTool(dialogTool, { action: 'dismiss', tab }, env.ctx).catch((e: unknown) => e)).toMatchObject({ code: 'target_not_found', details: { tab } });
  });
});
