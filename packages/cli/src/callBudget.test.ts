import { describe, expect, it } from 'vitest';
import { WAIT_REPORT_MS } from '@chrome-relay/protocol';
import { withOwnBudget } from './callBudget.js';

describe('withOwnBudget', () => {
  it("puts the call's deadline around a wait's own budget, so a long wait is not cut by the call timeout", () => {
    expect(withOwnBudget('wait', { text: 'Done', timeoutMs: 40_000 }, 30_000)).toEqual({ params: { text: 'Done', timeoutMs: 40_000 }, timeoutMs: 40_000 + WAIT_REPORT_MS });
  });

  it('gives a wait without a budget the call timeout as its budget', () => {
    expect(withOwnBudget('wait', { text: 'Done' }, 5_000)).toEqual({ params: { text: 'Done', timeoutMs: 5_000 }, timeoutMs: 5_000 + WAIT_REPORT_MS });
  });

  it('leaves tools without a budget of their own as they are', () => {
    expect(withOwnBudget('click', { ref: 'e1' }, 30_000)).toEqual({ params: { ref: 'e1' }, timeoutMs: 30_000 });
  });
});
