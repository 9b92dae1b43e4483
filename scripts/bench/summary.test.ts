import { describe, expect, it } from 'vitest';
import { renderSummary } from './summary.js';

describe('renderSummary', () => {
  it('prints the long-standing ratio lines with their goals', () => {
    const text = renderSummary({ node: 80, version: 120, tabs: 100, click: 240, snapshot1500: 377, navigate1500: 350, loop1500: 1258, peerLoop1500: undefined });
    expect(text.split('\n')).toEqual([
      'ratios (same run):',
      '  --version / node -e 0 = 1.50×   (goal ≤ 1.10×)',
      '  tabs / node -e 0      = 1.25×   (goal ≤ 1.20×)',
      '  click / node -e 0     = 3.00×, +160 ms over it   (goal ≤ +30 ms)',
      '  snapshot 1,500 rows   = 377 ms; navigate = 350 ms; loop = 1,258 ms (agent-browser ≈ 1,500 ms; goal ≤ 750 ms)',
    ]);
  });

  it('quotes the peer’s loop from this run when it was measured, and n/a for missing figures', () => {
    const text = renderSummary({ node: 80, version: undefined, tabs: 100, click: undefined, snapshot1500: undefined, navigate1500: 350, loop1500: 1258, peerLoop1500: 2788 });
    expect(text).toContain('--version / node -e 0 = n/a');
    expect(text).toContain('click / node -e 0     = n/a, n/a over it');
    expect(text).toContain('snapshot 1,500 rows   = n/a;');
    expect(text).toContain('(agent-browser 2,788 ms in this run; goal ≤ 750 ms)');
  });

  it('adds the goals measured in pairs with node -e 0, and says why one is missing', () => {
    const text = renderSummary({
      node: 150,
      version: 83,
      tabs: 140,
      click: 151,
      snapshot1500: undefined,
      navigate1500: undefined,
      loop1500: undefined,
      peerLoop1500: undefined,
      paired: { version: { ratio: 1.02, overMs: 1.5 }, tabs: { ratio: 1.18, overMs: 21 }, click: 'could not set up the small page' },
    });
    expect(text.split('\n').slice(-4)).toEqual([
      'paired with node -e 0 (each run next to one node -e 0, alternating order; medians of the per-pair figures):',
      '  --version = 1.02× node, +1.5 ms over it   (goal ≤ 1.10×)',
      '  tabs      = 1.18× node, +21 ms over it   (goal ≤ 1.20×)',
      '  click     = n/a (could not set up the small page)   (goal ≤ +30 ms)',
    ]);
  });
});
