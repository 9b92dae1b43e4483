import { describe, expect, it } from 'vitest';
import { commonFlags, extraFlags } from './browserFlags.js';

describe('commonFlags', () => {
  it('is headless=new without a GPU unless headful', () => {
    expect(commonFlags(false)).toEqual(expect.arrayContaining(['--headless=new', '--disable-gpu', '--window-size=1280,720']));
    expect(commonFlags(true)).not.toContain('--headless=new');
  });
});

describe('extraFlags', () => {
  it('lists what a browser runs with beyond the common flags, with profile paths shortened', () => {
    const args = ['/usr/lib/chromium/chromium', '--no-first-run', '--hide-scrollbars', '--user-data-dir=/tmp/x/profile', 'about:blank'];
    expect(extraFlags(args, ['--no-first-run'])).toEqual(['--hide-scrollbars', '--user-data-dir=…']);
  });
});
