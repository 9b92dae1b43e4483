import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../observe/redact.js';
import { cookieValues, redactEntry } from './console.js';

describe('console redaction', () => {
  it('masks bearer strings, tokens and the tab\'s cookie values in the text, and tokens in the source URL', () => {
    const entry = redactEntry(
      { id: 1, level: 'log', source: 'console', text: 'sid=c00kieValue42; theme=dark Authorization: Bearer abcdefghijkl', url: 'https://x.example/app.js?token=t1', timestamp: 1 },
      ['c00kieValue42', 'dark'],
    );
    expect(entry.text).toBe(`sid=${REDACTED}; theme=dark Authorization: Bearer ${REDACTED}`);
    expect(entry.url).toBe(`https://x.example/app.js?token=${REDACTED}`);
  });

  it('reads the cookie values through CDP, and goes on without them when CDP cannot answer', async () => {
    expect(await cookieValues(async () => ({ cookies: [{ name: 'a', value: 'v1' }, { name: 'b', value: 2 }] }))).toEqual(['v1']);
    expect(await cookieValues(async () => Promise.reject(new Error('detached')))).toEqual([]);
  });
});
