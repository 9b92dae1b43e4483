import { describe, expect, it } from 'vitest';
import { setupPageHtml } from './setupPage.js';

describe('the page setup opens', () => {
  it('shows the three steps with the folder, escaped', () => {
    const html = setupPageHtml('/home/a&b/<x>/dist/extension');
    expect(html).toContain('chrome://extensions');
    expect(html).toContain('Developer mode');
    expect(html).toContain('Load unpacked');
    expect(html).toContain('/home/a&amp;b/&lt;x&gt;/dist/extension');
    expect(html).not.toContain('<x>');
  });
});
