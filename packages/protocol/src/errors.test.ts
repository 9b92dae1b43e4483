import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TABLE, formatErrorForStderr, NOTICE_CODES, oneLine, parseRelayErrorData, RelayError } from './errors.js';

describe('error table', () => {
  it('is exactly the 15 closed codes', () => {
    expect([...ERROR_CODES].sort()).toEqual(
      [
        'stale_ref', 'click_intercepted', 'element_not_found', 'target_conflict', 'target_not_found', 'invalid_arguments',
        'timeout', 'cdp_error', 'chrome_api_error', 'extension_not_connected', 'native_host_disconnected',
        'external_dependency_missing', 'partial_success_disallowed', 'unsupported_tool', 'internal_error',
      ].sort(),
    );
    expect(Object.keys(ERROR_TABLE).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('gives every code a meaning, a default retryable and an agent move', () => {
    for (const code of ERROR_CODES) {
      const info = ERROR_TABLE[code];
      expect(info.meaning.length, code).toBeGreaterThan(20);
      expect(info.move.length, code).toBeGreaterThan(15);
      expect(typeof info.retryable, code).toBe('boolean');
    }
    expect(ERROR_TABLE.native_host_disconnected.retryable).toBe(true);
    expect(ERROR_TABLE.stale_ref.retryable).toBe(false);
    expect(ERROR_TABLE.stale_ref.move).toMatch(/snapshot/);
  });

  it('has the four notices', () => {
    expect([...NOTICE_CODES].sort()).toEqual(['browser_started', 'cli_outdated', 'deprecated', 'extension_outdated', 'target_overridden']);
  });
});

describe('RelayError on the wire', () => {
  it('round-trips through data with the default retryable of its code', () => {
    const error = new RelayError('timeout', 'took too long', { tool: 'click', phase: 'act', details: { ms: 5 } });
    expect(error.retryable).toBe(true);
    const back = RelayError.fromData(JSON.parse(JSON.stringify(error.toData())));
    expect(back.toData()).toEqual(error.toData());
  });

  it('wraps anything foreign as internal_error keeping the original text', () => {
    const wrapped = RelayError.from(new TypeError('x is undefined'), 'snapshot');
    expect(wrapped.code).toBe('internal_error');
    expect(wrapped.tool).toBe('snapshot');
    expect(wrapped.details).toEqual({ original: 'x is undefined' });
  });

  it('turns malformed error data into internal_error rather than trusting it', () => {
    expect(parseRelayErrorData({ code: 'made_up', message: 'x' }).code).toBe('internal_error');
  });

  it('formats stderr as one human line then the relayError block', () => {
    const text = formatErrorForStderr(new RelayError('stale_ref', 'Ref e5 is stale.', { tool: 'click', phase: 'resolve' }).toData());
    const [human, block, rest] = text.split('\n');
    expect(human).toBe('chrome-relay: stale_ref: Ref e5 is stale.');
    expect(JSON.parse(block ?? '')).toEqual({
      relayError: { code: 'stale_ref', message: 'Ref e5 is stale.', tool: 'click', phase: 'resolve', details: {}, retryable: false },
    });
    expect(rest).toBe('');
  });
});

describe('one human line', () => {
  it('folds any line break in the message into a space on the human line; the block keeps the message exactly', () => {
    const message = "unknown command 'clik'\n(Did you mean click?) page said: a\r\nb\u2028c";
    const [human, block, rest] = formatErrorForStderr(new RelayError('invalid_arguments', message, { tool: 'clik', phase: 'cli' }).toData()).split('\n');
    expect(human).toBe("chrome-relay: invalid_arguments: unknown command 'clik' (Did you mean click?) page said: a b c");
    expect((JSON.parse(block ?? '') as { relayError: { message: string } }).relayError.message).toBe(message);
    expect(block).not.toMatch(/[\u0085\u2028\u2029]/);
    expect(rest).toBe('');
    expect(oneLine('  a \n\n b ')).toBe('a b');
  });
});
