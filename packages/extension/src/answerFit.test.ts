import { describe, expect, it } from 'vitest';
import { MAX_FROM_EXTENSION_BYTES, type ExtensionToHost } from '@chrome-relay/protocol';
import { fitAnswer, MAX_ANSWER_BYTES } from './answerFit.js';

const result = (value: unknown): ExtensionToHost => ({ type: 'result', id: 7, ok: true, result: value });

describe('fitAnswer', () => {
  it('passes an answer that can travel untouched, including one far over Chrome\'s 1 MiB inbound limit', () => {
    const big = result({ value: 'x'.repeat(2_000_000) });
    expect(fitAnswer(big, 'js')).toBe(big);
    expect(MAX_ANSWER_BYTES).toBeLessThan(MAX_FROM_EXTENSION_BYTES);
  });

  it('turns a result over the limit into invalid_arguments for the same call, naming the limit and the narrower request', () => {
    const answer = fitAnswer(result({ value: 'x'.repeat(5000) }), 'snapshot', 4096);
    expect(answer).toMatchObject({
      type: 'error',
      id: 7,
      error: { code: 'invalid_arguments', tool: 'snapshot', phase: 'transport', retryable: false, details: { limit: 4096, bytes: expect.any(Number) } },
    });
    expect(answer.type === 'error' && answer.error.message).toMatch(/over the 4096 .*`-s <ref or selector>`/);
  });

  it('a mutating tool ran: the error says its effect stands', () => {
    const answer = fitAnswer(result('y'.repeat(5000)), 'js', 4096);
    expect(answer).toMatchObject({ error: { details: { mayHaveActed: true } } });
    expect(answer.type === 'error' && answer.error.message).toMatch(/^`js` ran .*`\.slice\(0, 1e6\)`/);
  });

  it('refuses a result nested deeper than the host accepts, and one too deep even to stringify', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(fitAnswer(result(deep), 'js', MAX_ANSWER_BYTES, 50)).toMatchObject({ error: { code: 'invalid_arguments', details: { limit: 50 } } });
    let abyss: unknown = 1;
    for (let i = 0; i < 200_000; i++) abyss = { a: abyss };
    expect(fitAnswer(result(abyss), 'js')).toMatchObject({ type: 'error', error: { code: 'invalid_arguments' } });
  });

  it('checks error answers too (a page string inside one can be huge)', () => {
    const error: ExtensionToHost = { type: 'error', id: 3, error: { code: 'cdp_error', message: 'm'.repeat(5000), tool: 'js', phase: 'act', details: {}, retryable: false } };
    expect(fitAnswer(error, 'js', 4096)).toMatchObject({ id: 3, error: { code: 'invalid_arguments' } });
  });
});
