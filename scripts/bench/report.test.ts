import { describe, expect, it } from 'vitest';
import { count, formatCell, formatMs, formatRatio, na, NONE, ratioText, renderSection, time, type Section } from './report.js';

const t = (median: number, min = median, max = median, n = 10) => time({ median, min, max, n });

describe('formatting', () => {
  it('prints small times with a decimal and large ones grouped', () => {
    expect(formatMs(3.24)).toBe('3.2 ms');
    expect(formatMs(280.4)).toBe('280 ms');
    expect(formatMs(1327)).toBe('1,327 ms');
  });

  it('prints a time cell as median [min–max], a count grouped, n/a and –', () => {
    expect(formatCell(t(280, 262, 1301))).toBe('280 ms [262–1,301 ms]');
    expect(formatCell(t(5.5, 5.5, 5.5, 1))).toBe('5.5 ms');
    expect(formatCell(count(21718))).toBe('21,718');
    expect(formatCell(na('why'))).toBe('n/a');
    expect(formatCell(NONE)).toBe('–');
  });

  it('prints ratios with sensible precision at every scale', () => {
    expect(formatRatio(0.3943)).toBe('0.39×');
    expect(formatRatio(2.524)).toBe('2.52×');
    expect(formatRatio(16.51)).toBe('16.5×');
    expect(formatRatio(1234.4)).toBe('1,234×');
    expect(formatRatio(0.0043)).toBe('0.0043×');
    expect(formatRatio(Number.POSITIVE_INFINITY)).toBe('–');
  });
});

describe('ratioText', () => {
  it('divides chrome-relay by the peer', () => {
    expect(ratioText({ label: 'x', relay: t(274), peer: t(16.6) })).toBe('16.5×');
    expect(ratioText({ label: 'x', relay: count(215), peer: count(149) })).toBe('1.44×');
  });

  it('divides by a named reference when the row has one', () => {
    expect(ratioText({ label: 'x', relay: t(136), peer: t(3), ratioTo: { name: 'node', value: 89 } })).toBe('1.53× node');
  });

  it('has no ratio when either side has no figure', () => {
    expect(ratioText({ label: 'x', relay: na('missing'), peer: t(3) })).toBe('–');
    expect(ratioText({ label: 'x', relay: t(3), peer: NONE })).toBe('–');
    expect(ratioText({ label: 'x', relay: t(3), peer: count(0) })).toBe('–');
  });
});

describe('renderSection', () => {
  const section: Section = {
    title: 'commands',
    rows: [
      { label: '`click @ref`', relay: t(274, 250, 300), peer: t(16.6, 15, 20) },
      { label: '`click --snapshot @ref`', relay: na('no --snapshot option'), peer: NONE },
      { label: '`tabs`', relay: t(151, 151, 151, 1), peer: t(3.2, 3.2, 3.2, 1), ratioTo: { name: 'node', value: 89 } },
    ],
  };

  it('prints an aligned markdown table with the peer and ratio columns, then the reasons for n/a', () => {
    const text = renderSection(section, { peers: true, peerName: 'agent-browser' });
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^\| commands +\| +chrome-relay \| +agent-browser \| +ratio \|$/);
    expect(lines[1]).toMatch(/^\|-+\|-+:\|-+:\|-+:\|$/);
    expect(lines[2]).toMatch(/^\| `click @ref` +\| +274 ms \[250–300 ms\] \| +17 ms \[15–20 ms\] \| +16\.5× \|$/);
    expect(lines[3]).toMatch(/\| +n\/a \| +– \| +– \|$/);
    expect(lines[4]).toMatch(/\| +151 ms \| +3\.2 ms \| +1\.70× node \|$/);
    expect(lines[5]).toBe('  n/a `click --snapshot @ref` (chrome-relay): no --snapshot option');
    // Every table line has the same width: it stays aligned in a terminal.
    expect(new Set(lines.slice(0, 5).map((l) => l.length)).size).toBe(1);
  });

  it('without peers drops the peer column but keeps ratios against a reference', () => {
    const lines = renderSection(section, { peers: false, peerName: 'agent-browser' }).split('\n');
    expect(lines[0]).toMatch(/^\| commands +\| +chrome-relay \| +ratio \|$/);
    expect(lines[2]).toMatch(/\| +274 ms \[250–300 ms\] \| +– \|$/);
    expect(lines[4]).toMatch(/\| +151 ms \| +1\.70× node \|$/);
  });

  it('keeps a section’s own second column (e.g. raw CDP) even without peers', () => {
    const raw: Section = { title: 'vs raw CDP', peerHeader: 'getFullAXTree', rows: [{ label: '`snapshot`', relay: t(350), peer: t(1000) }] };
    const lines = renderSection(raw, { peers: false, peerName: 'agent-browser' }).split('\n');
    expect(lines[0]).toMatch(/\| +chrome-relay \| +getFullAXTree \| +ratio \|$/);
    expect(lines[2]).toMatch(/\| +0\.35× \|$/);
  });

  it('prints a reason shared by several rows of a column once, naming the rows', () => {
    const failed: Section = {
      title: '50k',
      rows: [
        { label: '`snapshot`', relay: t(900), peer: na('page_wedged') },
        { label: 'output, characters', relay: count(10), peer: na('page_wedged') },
        { label: '`snapshot -i`', relay: na('timeout'), peer: na('other') },
      ],
    };
    const notes = renderSection(failed, { peers: true, peerName: 'agent-browser' }).split('\n').slice(5);
    expect(notes).toEqual([
      '  n/a `snapshot`, output, characters (agent-browser): page_wedged',
      '  n/a `snapshot -i` (chrome-relay): timeout',
      '  n/a `snapshot -i` (agent-browser): other',
    ]);
  });
});
