import { describe, expect, it } from 'vitest';
import { diffLines, renderSnapshot, renderSnapshotDiff, truncateSnapshot } from './renderSnapshot.js';

describe('renderSnapshot', () => {
  it('renders roles, quoted names, state and refs as indented lines', () => {
    const text = renderSnapshot([
      { role: 'heading', name: 'Title', level: 1 },
      {
        role: 'list',
        children: [
          { role: 'listitem', children: [{ role: 'link', name: 'Home', ref: 'e3', url: '/home' }] },
          { role: 'listitem', children: [{ role: 'text', name: 'plain words' }] },
        ],
      },
      { role: 'checkbox', name: 'Agree', checked: 'true', ref: 'e4' },
      { role: 'textbox', name: 'Say "hi"', value: 'hello', ref: 'e5', disabled: true },
    ]);
    expect(text).toBe(
      [
        '- heading "Title" [level=1]',
        '- list:',
        '  - listitem:',
        '    - link "Home" [ref=e3]',
        '  - listitem:',
        '    - text: plain words',
        '- checkbox "Agree" [checked] [ref=e4]',
        '- textbox "Say \\"hi\\"" [disabled] [ref=e5]: "hello"',
      ].join('\n'),
    );
  });

  it('adds link targets only when asked', () => {
    expect(renderSnapshot([{ role: 'link', name: 'Home', ref: 'e3', url: '/home' }], { urls: true })).toBe('- link "Home" [ref=e3] -> /home');
  });
});

describe('snapshot text tools', () => {
  it('renders elision markers as plain lines', () => {
    expect(renderSnapshot([{ role: 'elided', name: '3 more' }])).toBe('- … 3 more');
  });

  it('truncates at a line boundary with a loud marker', () => {
    const text = Array.from({ length: 50 }, (_, i) => `- button "B${i}" [ref=e${i + 1}]`).join('\n');
    const cut = truncateSnapshot(text, 200);
    const lines = cut.split('\n');
    expect(lines.at(-1)).toMatch(/^!!! TRUNCATED: showing \d+ of \d+ characters \(\d+ of 50 lines\)\..*--scope/);
    expect(lines.slice(0, -1).every((line) => /^- button "B\d+" \[ref=e\d+\]$/.test(line))).toBe(true);
    expect(truncateSnapshot('short', 200)).toBe('short');
  });

  it('diffs lines minimally', () => {
    expect(diffLines(['a', 'b', 'c'], ['a', 'x', 'c'])).toEqual([
      { op: ' ', line: 'a' },
      { op: '-', line: 'b' },
      { op: '+', line: 'x' },
      { op: ' ', line: 'c' },
    ]);
    expect(diffLines([], ['a'])).toEqual([{ op: '+', line: 'a' }]);
    expect(diffLines(['a'], [])).toEqual([{ op: '-', line: 'a' }]);
  });

  it('shows only changed lines under their nearest unchanged ancestor', () => {
    const before = [{ role: 'form', name: 'Login', children: [{ role: 'button', name: 'Sign in', ref: 'e2' }] }, { role: 'link', name: 'Help', ref: 'e3' }];
    const after = [{ role: 'form', name: 'Login', children: [{ role: 'button', name: 'Sign in', ref: 'e2' }, { role: 'button', name: 'Forgot', ref: 'e9' }] }];
    expect(renderSnapshotDiff(before, after)).toBe(
      ['(1 lines added, 1 removed since the previous snapshot)', '- - link "Help" [ref=e3]', '  - form "Login":', '+   - button "Forgot" [ref=e9]'].join('\n'),
    );
    expect(renderSnapshotDiff(before, before)).toBe('(no changes since the previous snapshot)');
    expect(renderSnapshotDiff(null, after)).toMatch(/^\(no previous snapshot/);
  });
});
