import { describe, expect, it } from 'vitest';
import { scrubText, scrubValue } from './scrub.js';
import { parseSiteRules } from './sitePatterns.js';

const { rules } = parseSiteRules(['bank.test', 'localhost/secret*']);

describe('scrub: nothing of a blocked site reaches an agent', () => {
  it('cuts URLs on blocked sites to their origin, in any text, and leaves the others alone', () => {
    expect(scrubText('GET https://bank.test/acct/4711?id=9 302 → https://shop.test/cart', rules)).toBe('GET https://bank.test/[blocked] 302 → https://shop.test/cart');
    expect(scrubText('"location":"http://localhost:8080/secret/x"', rules)).toBe('"location":"http://localhost:8080/[blocked]"');
    expect(scrubText('see http://localhost:8080/public', rules)).toBe('see http://localhost:8080/public');
    expect(scrubText('Failed to load https://eu.bank.test/x.js (net::ERR_BLOCKED_BY_CLIENT)', rules)).toBe('Failed to load https://eu.bank.test/[blocked] (net::ERR_BLOCKED_BY_CLIENT)');
  });

  it('walks a whole result, keeping what did not change as it was', () => {
    const result = { entries: [{ url: 'https://bank.test/a', status: 200 }, { url: 'https://ok.test/b', status: 200 }], total: 2 };
    const scrubbed = scrubValue(result, rules);
    expect(scrubbed).toEqual({ entries: [{ url: 'https://bank.test/[blocked]', status: 200 }, { url: 'https://ok.test/b', status: 200 }], total: 2 });
    expect(scrubbed.entries[1]).toBe(result.entries[1]);
    const clean = { a: ['x', { b: 'https://ok.test/' }] };
    expect(scrubValue(clean, rules)).toBe(clean);
    expect(scrubValue(result, [])).toBe(result);
  });

  it('redacts credentials in every other URL, with or without block rules', () => {
    const answer = { url: 'https://app.test/cb?code=abc123&state=x#access_token=tok-9', text: '# "App" — "https://me:hunter2@app.test/?password=pw"' };
    expect(scrubValue(answer, [])).toEqual({
      url: 'https://app.test/cb?code=[redacted]&state=x#access_token=[redacted]',
      text: '# "App" — "https://me:[redacted]@app.test/?password=[redacted]"',
    });
    // A link as the page wrote it, relative.
    expect(scrubText('- link "Reset" [ref=e5] -> "/reset?reset_token=abc&lang=en"', [])).toBe('- link "Reset" [ref=e5] -> "/reset?reset_token=[redacted]&lang=en"');
    expect(scrubText('a/b and 1/2 and /path/only stay', [])).toBe('a/b and 1/2 and /path/only stay');
    // Already redacted (a network entry): the same again, not mangled.
    const redacted = '"url": "http://127.0.0.1:1/api/secret?access_token=[redacted]&x=1" and /r?code=[redacted]';
    expect(scrubText(redacted, [])).toBe(redacted);
    expect(scrubText('http://[::1]:8080/x?token=abc', [])).toBe('http://[::1]:8080/x?token=[redacted]');
  });
});
