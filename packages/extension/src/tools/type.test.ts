import { describe, expect, it } from 'vitest';
import { createFakeEnvironment, type FakeEnvironment } from '../testing/fakeChrome.js';
import { typeTool, type FocusReport } from './type.js';


function focused(env: FakeEnvironment, report: FocusReport): void {
  env.debugger.handle('Page.getFrameTree', () => ({ frameTree: { frame: { id: 'MAIN', loaderId: 'L', url: '', securityOrigin: '', mimeType: 'text/html' } } }));
  env.debugger.handle('Page.createIsolatedWorld', () => ({ executionContextId: 3 }));
  env.debugger.handle('Runtime.callFunctionOn', () => ({ result: { type: 'object', value: report } }));
}

describe('type', () => {
  it('types key by key, with insertText for characters a US keyboard lacks', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    focused(env, { editable: true, description: 'input#q' });
    expect(await typeTool.handle({ text: 'aé', tab }, env.ctx)).toEqual({ tabId: tab, typed: 2, into: 'input#q' });
    const input = env.debugger.sent.filter((c) => c.method.startsWith('Input.')).map((c) => `${c.method}:${JSON.stringify(c.params)}`);
    expect(input).toHaveLength(3);
    expect(input[0]).toContain('"type":"keyDown"');
    expect(input[0]).toContain('"text":"a"');
    expect(input[2]).toBe('Input.insertText:{"text":"é"}');
  });

  it('refuses when nothing editable has focus, and types nothing', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    focused(env, { editable: false, description: 'nothing (the page body)' });
    expect(await typeTool.handle({ text: 'x', tab }, env.ctx).catch((e: unknown) => e)).toMatchObject({ code: 'element_not_found', details: { tab } });
    expect(env.debugger.methods().some((m) => m.startsWith('Input.'))).toBe(false);
  });
});
