import { describe, expect, it } from 'vitest';
import { createFakeEnvironment, type FakeEnvironment } from '../testing/fakeChrome.js';
import { jsTool } from './js.js';
import { runTool } from '../testing/toolContext.js';

function evaluateAnswers(env: FakeEnvironment, reply: unknown): void {
  env.debugger.handle('Runtime.evaluate', () => reply);
}

describe('js', () => {
  it('returns the deep-serialized value as JSON, and no value for undefined', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    evaluateAnswers(env, { result: { type: 'object', deepSerializedValue: { type: 'array', value: [{ type: 'number', value: 1 }] } } });
    expect(await runTool(jsTool, { expression: '[1]', tab }, env.ctx)).toEqual({ tabId: tab, value: [1] });
    const sent = env.debugger.sent.find((c) => c.method === 'Runtime.evaluate')?.params;
    expect(sent).toMatchObject({ expression: '[1]', awaitPromise: true, replMode: true, serializationOptions: { serialization: 'deep' } });
    evaluateAnswers(env, { result: { type: 'undefined', deepSerializedValue: { type: 'undefined' } } });
    expect(await runTool(jsTool, { expression: 'void 0', tab }, env.ctx)).toEqual({ tabId: tab });
  });

  it('maps compile errors, page exceptions and unserializable values to closed codes', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    evaluateAnswers(env, {
      result: { type: 'object' },
      exceptionDetails: { exceptionId: 1, text: 'Uncaught', lineNumber: 0, columnNumber: 8, exception: { type: 'object', className: 'SyntaxError', description: "SyntaxError: Unexpected token ';'" } },
    });
    expect(await runTool(jsTool, { expression: 'let x = ;', tab }, env.ctx).catch((e: unknown) => e)).toMatchObject({ code: 'invalid_arguments', details: { field: 'expression' } });
    evaluateAnswers(env, {
      result: { type: 'object' },
      exceptionDetails: {
        exceptionId: 2,
        text: 'Uncaught',
        lineNumber: 0,
        columnNumber: 0,
        stackTrace: { callFrames: [] },
        exception: { type: 'object', className: 'Error', description: 'Error: boom\n    at <anonymous>:1:7' },
      },
    });
    expect(await runTool(jsTool, { expression: 'boom()', tab }, env.ctx).catch((e: unknown) => e)).toMatchObject({ code: 'cdp_error', retryable: false, details: { exception: 'Error: boom' } });
    // A value JSON cannot carry: the expression is what to change, and it ran, so it may have acted.
    evaluateAnswers(env, { result: { type: 'object', subtype: 'node', deepSerializedValue: { type: 'node', value: {} } } });
    expect(await runTool(jsTool, { expression: 'document.body', tab }, env.ctx).catch((e: unknown) => e)).toMatchObject({
      code: 'invalid_arguments',
      retryable: false,
      details: { field: 'expression', path: 'result', mayHaveActed: true },
    });
  });

  it('awaits a promise the expression returns and gives its value; a rejection is the page exception', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    evaluateAnswers(env, { result: { type: 'object', subtype: 'promise', objectId: 'p1', deepSerializedValue: { type: 'promise' } } });
    env.debugger.handle('Runtime.callFunctionOn', () => ({ result: { type: 'number', deepSerializedValue: { type: 'number', value: 5 } } }));
    expect(await runTool(jsTool, { expression: 'Promise.resolve(5)', tab }, env.ctx)).toEqual({ tabId: tab, value: 5 });
    expect(env.debugger.sent.find((c) => c.method === 'Runtime.callFunctionOn')?.params).toMatchObject({ objectId: 'p1', awaitPromise: true, serializationOptions: { serialization: 'deep' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(env.debugger.sent.find((c) => c.method === 'Runtime.releaseObject')?.params).toEqual({ objectId: 'p1' });

    // A rejection with a SyntaxError (JSON.parse) and no stack still ran: cdp_error, not invalid_arguments.
    env.debugger.handle('Runtime.callFunctionOn', () => ({
      result: { type: 'object' },
      exceptionDetails: { exceptionId: 3, text: 'Uncaught (in promise)', lineNumber: 0, columnNumber: 0, exception: { type: 'object', className: 'SyntaxError', description: 'SyntaxError: bad JSON' } },
    }));
    expect(await runTool(jsTool, { expression: "fetch('/x').then((r) => r.json())", tab }, env.ctx).catch((e: unknown) => e)).toMatchObject({
      code: 'cdp_error',
      retryable: false,
      details: { exception: 'SyntaxError: bad JSON' },
    });
  });

  it('returns the dialog an expression opened instead of waiting for its value', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    env.debugger.handle('Runtime.evaluate', (_params, tabId) => {
      env.debugger.emit(tabId, 'Page.javascriptDialogOpening', { type: 'alert', message: 'hi', url: 'https://a.test/' });
      return new Promise(() => undefined);
    });
    expect(await runTool(jsTool, { expression: "alert('hi')", tab }, env.ctx)).toEqual({ tabId: tab, dialog: { type: 'alert', message: 'hi', url: 'https://a.test/' } });
  });
});
