import { describe, expect, it } from 'vitest';
import { contentText } from './generatedContent.js';

const noAttributes = (): string => '';

describe('contentText (computed CSS content → name text)', () => {
  it('reads strings, with CSS escapes decoded', () => {
    expect(contentText('"×"', noAttributes)).toBe('×');
    expect(contentText('"▶ "', noAttributes)).toBe('▶ ');
    expect(contentText('"a" "b"', noAttributes)).toBe('ab');
    expect(contentText('"\\d7"', noAttributes)).toBe('×');
    expect(contentText('"say \\"hi\\""', noAttributes)).toBe('say "hi"');
    expect(contentText("'single'", noAttributes)).toBe('single');
  });

  it('has no text for none, normal, images, counters and quote keywords', () => {
    for (const value of ['none', 'normal', '', 'url("x.png")', 'counter(item)', 'open-quote', 'no-close-quote']) {
      expect(contentText(value, noAttributes)).toBe('');
    }
    expect(contentText('url("a\\)b.png") "Next"', noAttributes)).toBe('Next');
  });

  it('reads attr() from the element', () => {
    expect(contentText('attr(data-label) ":"', (name) => (name === 'data-label' ? 'Close' : ''))).toBe('Close:');
  });

  it('prefers the alternative text after a slash', () => {
    expect(contentText('"★" / "Favourite"', noAttributes)).toBe('Favourite');
    expect(contentText('url(star.svg) / "Starred"', noAttributes)).toBe('Starred');
    expect(contentText('"★" / ""', noAttributes)).toBe('');
  });
});
