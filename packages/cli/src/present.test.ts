import { describe, expect, it } from 'vitest';
import { TOOLS } from '@chrome-relay/protocol';
import { actionText, batchText, listLines, statusText, toolText, valueText } from './present.js';

describe('the text of a result: everything an agent needs, short', () => {
  it('navigate says the HTTP status, and a 4xx/5xx says the server answered with an error page; a new tab says its id', () => {
    expect(actionText('navigate', { tabId: 7, url: 'https://a.test/x', title: 'Nope', ready: true, status: 404, newTab: false })).toBe(
      'navigated tab 7 to https://a.test/x (HTTP 404: the server answered with an error page) "Nope"',
    );
    expect(actionText('navigate', { tabId: 7, url: 'https://a.test/', title: 'A', ready: true, status: 200, newTab: false })).toBe('navigated tab 7 to https://a.test/ (200) "A"');
    expect(actionText('navigate', { tabId: 7, url: 'https://a.test/', title: '', ready: false, newTab: true })).toMatch(/^opened tab 7: https:\/\/a\.test\/; still loading/);
  });

  it('an action is one line, page strings quoted (a newline in them cannot start a line)', () => {
    expect(actionText('fill', { tabId: 3, ref: 'e9', value: 'a\nb', healed: false, formatted: false })).toBe('filled @e9');
    expect(actionText('fill', { tabId: 3, ref: 'e9', value: '1,234\n', formatted: true })).toBe('filled @e9 (the page formatted it as "1,234\\n")');
    expect(actionText('click', { clicked: true, tabId: 3, ref: 'e1', x: 1, y: 1, healed: true, navigated: true, url: 'https://b.test/' })).toBe(
      'clicked @e1 (found again: the page had re-rendered it); the page went to https://b.test/',
    );
    expect(actionText('click', { clicked: true, tabId: 3, ref: 'e1', x: 1, y: 1, acted: { what: 'opened', popup: { role: 'listbox', name: 'Time\nzone' } } })).toBe(
      'clicked @e1 (opened listbox "Time\\nzone")',
    );
    expect(actionText('click', { clicked: true, tabId: 3, ref: 'e1', x: 1, y: 1, dialog: { type: 'confirm', message: 'Sure?\nyes' } })).toBe(
      'clicked @e1; a confirm dialog opened: "Sure?\\nyes" (answer it: `chrome-relay dialog accept|dismiss`)',
    );
    // A URL that could end early (a space, a quote) is quoted.
    expect(actionText('navigate', { tabId: 1, url: 'https://a.test/a b" x', title: '', ready: true, newTab: false })).toBe('navigated tab 1 to "https://a.test/a b\\" x"');
    expect(actionText('dblclick', { tabId: 3, ref: 'e4', x: 1, y: 2, healed: false })).toBe('double-clicked @e4');
    // Every tool a command prints as an action has words of its own (none falls back to its fields).
    for (const [tool, entry] of Object.entries(TOOLS)) if (entry.cli?.output === 'action') expect(actionText(tool, { tabId: 1, ref: 'e1' }), tool).toBeDefined();
    expect(actionText('status', {})).toBeUndefined();
  });

  it('get and js print the value itself', () => {
    expect(valueText({ value: 'Example Domain' })).toBe('Example Domain');
    expect(valueText({ value: 3 })).toBe('3');
    expect(valueText({ value: null })).toBe('null');
    expect(valueText({ what: 'attr', value: null })).toBe('(no such attribute)');
    expect(valueText({ what: 'title', value: '' })).toBe('(empty)');
    expect(valueText({ value: '' })).toBe('""');
    expect(valueText({ value: { a: [1] } })).toBe('{"a":[1]}');
    expect(toolText('get', { tabId: 1, what: 'title', value: 'T' })).toBe('T');
  });

  it('status says who answers and what launch started', () => {
    const text = statusText({
      host: { version: '1.0.0', pid: 10, socket: '/s', protocolVersion: 1 },
      extension: { id: 'x', version: '1.0.0', protocolVersion: 1 },
      browser: { userAgent: 'Mozilla/5.0 HeadlessChrome/156.0.1.2 Safari/537.36', pid: 99 },
      profile: '/p',
      pausedSince: null,
      launched: [
        { profile: '/p', browserPid: 99, browserRunning: true, xvfb: null },
        { profile: '/q', browserPid: 98, browserRunning: false, xvfb: null },
      ],
    });
    expect(text).toBe('connected: headless Chromium 156.0.1.2 (pid 99), started by `chrome-relay launch`, profile /p; extension 1.0.0, host 1.0.0\nalso launched from this home: pid 98 not running, profile /q');
  });

  it('a batch: each step under its name, a step of several lines indented (no page line passes for a step)', () => {
    const text = batchText({
      stoppedAt: 2,
      results: [
        { index: 0, step: 'get text @e1', ok: true, result: 'a\n[1] fake: step' },
        { index: 1, step: 'click', ok: true, result: 'clicked @e2' },
        { index: 2, step: 'click @e9', ok: false, error: { code: 'stale_ref', message: 'gone' } },
      ],
    });
    expect(text.split('\n')).toEqual(['[0] get text @e1:', '  a', '  [1] fake: step', '[1] click: clicked @e2', '[2] click @e9 failed: stale_ref: gone', '(stopped at step 2: the steps after it did not run; --no-bail runs them all)']);
  });
});

describe('lists: one line per item', () => {
  it('tabs, with the marks that matter; the window only when there are several', () => {
    const one = { windows: [{ id: 1, focused: true, type: 'normal', tabs: [{ id: 11, windowId: 1, index: 0, url: 'https://a.test/', title: 'A "quoted"', active: true, status: 'complete', groupId: -1 }] }] };
    expect(listLines('tabs', one)).toEqual(['tab 11: "A \\"quoted\\"" — "https://a.test/" [active]']);
    const two = { windows: [...one.windows, { id: 2, focused: false, type: 'normal', tabs: [{ id: 12, windowId: 2, index: 0, url: 'about:blank', title: '', active: false, status: 'loading', groupId: 4 }] }] };
    expect(listLines('tabs', two)).toEqual(['tab 11: "A \\"quoted\\"" — "https://a.test/" [active] [window 1]', 'tab 12: (untitled) — "about:blank" [loading] [group 4] [window 2]']);
    expect(listLines('tabs', { windows: [] })).toEqual(['(no tabs agents may use)']);
    expect(listLines('tabs', { ...one, otherTabs: 2 })?.at(-1)).toBe('(2 other tabs open that agents may not use: counted, not listed)');
  });

  it('network: id, method, status, type and URL (a long one cut, its length said); headers only with --json', () => {
    const lines = listLines('network', {
      tabId: 5,
      dropped: 2,
      requests: [
        { id: 'R1', url: 'https://a.test/api', method: 'POST', type: 'XHR', status: 201, statusText: '', mimeType: '', requestHeaders: { cookie: 'x' }, responseHeaders: {}, startedAt: 0, durationMs: 12.4, encodedBytes: 0 },
        { id: 'R2', url: `data:image/png;base64,${'A'.repeat(500)}`, method: 'GET', type: 'Image', status: null, failed: 'net::ERR_ABORTED', statusText: '', mimeType: '', requestHeaders: {}, responseHeaders: {}, startedAt: 0, durationMs: null, encodedBytes: 0 },
      ],
    }) ?? [];
    expect(lines[1]).toBe('R1 POST 201 xhr "https://a.test/api" 12 ms');
    expect(lines[2]).toMatch(/^R2 GET failed image "data:image\/png;base64,A+…" \[522 chars\] "net::ERR_ABORTED"$/);
    expect(lines.join('\n')).not.toContain('cookie');
    expect(lines.at(-1)).toBe('(2 older requests were dropped: the buffer is full)');
  });

  it('console: level, source and text; an empty buffer says so', () => {
    expect(listLines('console', { tabId: 5, dropped: 0, entries: [{ id: 3, level: 'error', source: 'exception', text: 'boom', url: 'https://a.test/x.js', line: 7, timestamp: 0 }] })).toEqual([
      '#3 error exception: "boom" at "https://a.test/x.js":7',
    ]);
    expect(listLines('console', { tabId: 5, dropped: 0, entries: [] })).toEqual(['(no console messages)']);
  });
});
