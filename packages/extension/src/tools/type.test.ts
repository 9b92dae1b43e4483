import { beforeAll, describe, expect, it } from 'vitest';
import { FakePages } from '../testing/fakePage.js';
import { createFakeEnvironment, type FakeEnvironment } from '../testing/fakeChrome.js';
import type { FocusReport } from '../injected/reads.js';
import { typeTool } from './type.js';
import { runTool } from '../testing/toolContext.js';


function focused(env: FakeEnvironment, tab: number, report: FocusReport): void {
  const page = new FakePages(env.debugger).open(tab, { focusReport: () => report });
  page.installed = true;
}

beforeAll(() => {
  (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
});

describe('type', () => {
  it('types key by key, with insertText for characters a US keyboard lacks', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    focused(env, tab, { editable: true, description: 'input#q' });
    expect(await runTool(typeTool, { text: 'aé', tab }, env.ctx)).toEqual({ tabId: tab, typed: 2, into: 'input#q' });
    const input = env.debugger.sent.filter((c) => c.method.startsWith('Input.')).map((c) => `${c.method}:${JSON.stringify(c.params)}`);
    expect(input).toHaveLength(3);
    expect(input[0]).toContain('"type":"keyDown"');
    expect(input[0]).toContain('"text":"a"');
    expect(input[2]).toBe('Input.insertText:{"text":"é"}');
  });

  it('refuses when nothing editable has focus, and types nothing', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    focused(env, tab, { editable: false, description: 'nothing (the page body)' });
    expect(await runTool(typeTool, { text: 'x', tab }, env.ctx).catch((e: unknown) => e)).toMatchObject({ code: 'element_not_found', details: { tab } });
    expect(env.debugger.methods().some((m) => m.startsWith('Input.'))).toBe(false);
  });
});
