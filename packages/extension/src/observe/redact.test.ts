import { describe, expect, it } from 'vitest';
import { REDACTED, redactHeaders, redactText, redactUrl } from './redact.js';

const R = REDACTED;

describe('redactUrl', () => {
  it('masks the values of sensitive query parameters, leaving the rest of the URL as it was', () => {
    expect(redactUrl('https://api.example/v1/items?page=2&token=abc123&api_key=K&access_token=T&password=p&sig=s&code=c&X-Amz-Signature=z&q=a%20b')).toBe(
      `https://api.example/v1/items?page=2&token=${R}&api_key=${R}&access_token=${R}&password=${R}&sig=${R}&code=${R}&X-Amz-Signature=${R}&q=a%20b`,
    );
  });

  it('masks tokens in the fragment (OAuth implicit flow) and a user-info password', () => {
    expect(redactUrl('https://app.example/cb#access_token=T&token_type=bearer&state=xyz')).toBe(`https://app.example/cb#access_token=${R}&token_type=${R}&state=xyz`);
    expect(redactUrl('https://user:hunter2@host.example/path?x=1')).toBe(`https://user:${R}@host.example/path?x=1`);
    expect(redactUrl('https://host.example/path#section-2')).toBe('https://host.example/path#section-2');
  });

  it('keeps URLs without secrets byte for byte, and masks pairs in text that is not a URL', () => {
    for (const url of ['http://127.0.0.1:8080/a?b=1&c', 'data:text/plain,hello', 'about:blank', 'https://x.example/?=odd&&k']) expect(redactUrl(url)).toBe(url);
    expect(redactUrl('/relative?token=abc')).toBe(`/relative?token=${R}`);
  });
});

describe('redactHeaders', () => {
  it('masks credentials by exact name and by token/secret/key patterns, case-insensitively', () => {
    const out = redactHeaders({ Cookie: 'a', 'set-cookie': 'b', Authorization: 'c', 'X-CSRF-Token': 'd', 'x-goog-api-key': 'e', 'Content-Type': 'text/html' }, false);
    expect(out).toEqual({ Cookie: R, 'set-cookie': R, Authorization: R, 'X-CSRF-Token': R, 'x-goog-api-key': R, 'Content-Type': 'text/html' });
    expect(redactHeaders({ Cookie: 'a' }, true)).toEqual({ Cookie: 'a' });
  });

  it('masks secrets in headers that carry a URL (Referer, Location), unless raw', () => {
    expect(redactHeaders({ Referer: 'https://a.example/?token=t&x=1', location: '/next?code=c' }, false)).toEqual({ Referer: `https://a.example/?token=${R}&x=1`, location: `/next?code=${R}` });
    expect(redactHeaders({ Referer: 'https://a.example/?token=t' }, true)).toEqual({ Referer: 'https://a.example/?token=t' });
  });
});

describe('redactText', () => {
  it('masks bearer and basic credentials and JSON Web Tokens', () => {
    expect(redactText('auth header: Bearer abcdefghijk.lmn and basic  dXNlcjpwYXNz')).toBe(`auth header: Bearer ${R} and basic  ${R}`);
    expect(redactText('jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-part_1 end')).toBe(`jwt ${R} end`);
  });

  it('masks sensitive name=value and "name": "value" pairs, and URLs inside the text', () => {
    expect(redactText('session=abc; theme=dark; csrftoken=x9')).toBe(`session=${R}; theme=dark; csrftoken=${R}`);
    expect(redactText('{"password":"p@ss","user":"ann"} {apiKey: \'k\'}')).toBe(`{"password":"${R}","user":"ann"} {apiKey: '${R}'}`);
    expect(redactText('GET https://x.example/cb?code=abc&state=1 failed')).toBe(`GET https://x.example/cb?code=${R}&state=1 failed`);
    // Outside a URL, short names are usually not secrets.
    expect(redactText('exit code=1 key=value')).toBe('exit code=1 key=value');
  });

  it('masks exact values known to be secret (the tab\'s cookies), longest first, ignoring tiny ones', () => {
    expect(redactText('uid=u-93f1a2b3c4; pref=abcdefgh-long; x=1', ['u-93f1a2b3c4', 'abcdefgh', 'abcdefgh-long', '1'])).toBe(`uid=${R}; pref=${R}; x=1`);
  });

  it('is idempotent: masking twice changes nothing more', () => {
    const once = redactText('token=abc Bearer abcdefghijk https://h/?sig=1');
    expect(redactText(once)).toBe(once);
  });
});
