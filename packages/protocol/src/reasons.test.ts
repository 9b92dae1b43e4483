import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors.js';
import { ERROR_REASONS, REASONED_CODES, reasonedError, reasonRetryable, reasonsOf } from './reasons.js';

describe('error reasons', () => {
  it('covers exactly the codes that mean several situations', () => {
    expect([...REASONED_CODES].sort()).toEqual(['element_not_found', 'extension_not_connected', 'native_host_disconnected', 'stale_ref', 'target_conflict', 'timeout']);
    for (const code of REASONED_CODES) expect(ERROR_CODES).toContain(code);
  });

  it('every reason is snake_case with a meaning and a move', () => {
    for (const code of REASONED_CODES) {
      for (const reason of reasonsOf(code)) {
        expect(reason).toMatch(/^[a-z]+(_[a-z]+)*$/);
        const info = (ERROR_REASONS[code] as Record<string, { meaning: string; move: string }>)[reason];
        expect(info?.meaning.length).toBeGreaterThan(10);
        expect(info?.move.length).toBeGreaterThan(10);
      }
    }
  });

  it('reasonedError is retryable as its reason says, unless the caller says otherwise', () => {
    expect(reasonedError('element_not_found', 'no_match', 'm').retryable).toBe(true);
    expect(reasonedError('element_not_found', 'no_editable_focus', 'm').retryable).toBe(false);
    expect(reasonedError('timeout', 'promise_pending', 'm').retryable).toBe(false);
    expect(reasonedError('native_host_disconnected', 'browser_closed', 'm').retryable).toBe(false);
    expect(reasonedError('native_host_disconnected', 'host_exited', 'm').retryable).toBe(true);
    expect(reasonedError('native_host_disconnected', 'host_exited', 'm', { retryable: false }).retryable).toBe(false);
    for (const code of REASONED_CODES) for (const reason of reasonsOf(code)) expect(typeof reasonRetryable(code, reason)).toBe('boolean');
  });

  it('reasonedError puts the reason into details beside the rest', () => {
    const error = reasonedError('target_conflict', 'leased', 'Tab 3 is leased by agent a.', { details: { tab: 3 }, phase: 'resolve' });
    expect(error.toData()).toMatchObject({ code: 'target_conflict', phase: 'resolve', details: { tab: 3, reason: 'leased' }, retryable: false });
  });
});
