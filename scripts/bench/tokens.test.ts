import { describe, expect, it } from 'vitest';
import { countTokens, TOKEN_ENCODING, tokenizerVersion } from './tokens.js';

describe('countTokens', () => {
  it('counts with the o200k_base BPE (known counts, not characters or words)', () => {
    expect(TOKEN_ENCODING).toBe('o200k_base');
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    // A snapshot line: punctuation and the ref split into several tokens.
    expect(countTokens('- button "Increment" [ref=e2]')).toBe(10);
  });

  it('grows with repeated text roughly linearly', () => {
    const line = '- link "Details 1" [ref=e12]\n';
    expect(countTokens(line.repeat(100))).toBe(100 * countTokens(line));
  });

  it('treats special-token lookalikes in page text as plain text instead of throwing', () => {
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('reports the installed tokenizer version', () => {
    expect(tokenizerVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
