import { describe, expect, it } from 'vitest';
import { urlMatches } from './urlGlob.js';

describe('urlMatches', () => {
  it('matches the whole URL with * inside a segment and ** across segments', () => {
    expect(urlMatches('https://example.com/*', 'https://example.com/about')).toBe(true);
    expect(urlMatches('https://example.com/*', 'https://example.com/a/b')).toBe(false);
    expect(urlMatches('**/checkout/done', 'https://shop.test/en/checkout/done')).toBe(true);
    expect(urlMatches('**/checkout/done', 'https://shop.test/checkout/done?x=1')).toBe(false);
  });

  it('treats ? . and other regex characters literally', () => {
    expect(urlMatches('**/search?q=*', 'https://s.test/search?q=cats')).toBe(true);
    expect(urlMatches('**/search?q=*', 'https://s.test/searchXq=cats')).toBe(false);
    expect(urlMatches('https://a.test/x.html', 'https://a.test/xyhtml')).toBe(false);
    expect(urlMatches('https://a.test/(x)+[y]', 'https://a.test/(x)+[y]')).toBe(true);
  });
});
