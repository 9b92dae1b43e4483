import { describe, expect, it } from 'vitest';
import { actionText, compact, listLines, statusText, valueText } from './present.js';

describe('compact: one line for a program, without what carries nothing', () => {
  it('drops the false flags that only say nothing happened; keeps every other field a program may read (nulls and empty lists too)', () => {
    const click = { clicked: true, tabId: 5, ref: 'e3', x: 1, y: 2, healed: false, navigated: false, url: 'https://a.test/', dialog: undefined };
    expect(compact(click)).toEqual({ clicked: true, tabId: 5, ref: 'e3', x: 1, y: 2, url: 'https://a.test/' });
    expect(compact({ tabId: 5, what: 'attr', value: null })).toEqual({ tabId: 5, what: 'attr', value: null });
    expect(compact({ tabId: 5, checked: false, changed: false, ready: false })).toEqual({ tabId: 5, checked: false, changed: false, ready: false });
    expect(compact({ stopped: [], running: 'nothing' })).toEqual({ stopped: [], running: 'nothing' });
    expect(compact({ pid: 9, headless: false, alreadyRunning: false, xvfb: null, pausedSince: null })).toEqual({ pid: 9, headless: false, xvfb: null, pausedSince: null });
    expect(compact({ tabId: 1, target: { tag: 'a', id: undefined, healed: false } })).toEqual({ tabId: 1, target: { tag: 'a' } });
  });
});

describe("a person's text", () => {
  it('navigate says the HTTP status, and a 4xx/5xx says the server answered with an error page', () => {
    expect(actionText('navigate', { tabId: 7, url: 'https://a.test/x', title: 'Nope', ready: true, status: 404, newTab: false })).toBe(
      'tab 7: "Nope" "https://a.test/x" — HTTP 404: the server answered with an error page',
    );
    expect(actionText('navigate', { tabId: 7, url: 'https://a.test/', title: '', ready: false, newTab: true })).toMatch(/^tab 7 \(a new tab\): \(untitled\) "https:\/\/a\.test\/" — not ready yet/);
  });

  it('an action is one line, page strings quoted (a newline in them cannot start a line)', () => {
    const line = actionText('fill', { tabId: 3, ref: 'e9', value: 'a\nb', healed: false }) ?? '';
    expect(line).toBe('filled @e9 in tab 3: "a\\nb"');
    expect(actionText('click', { clicked: true, tabId: 3, ref: 'e1', x: 1, y: 1, healed: true, navigated: true, url: 'https://b.test/' })).toBe(
      'clicked @e1 in tab 3 (re-found after the page re-rendered it); the page went to "https://b.test/"',
    );
    expect(actionText('status', {})).toBeUndefined();
  });

  it('get and js print the value itself', () => {
    expect(valueText('Example Domain')).toBe('Example Domain');
    expect(valueText(3)).toBe('3');
    expect(valueText(null)).toBe('(null)');
    expect(valueText({ a: [1] })).toBe('{"a":[1]}');
  });

  it('status says who answers and what launch started', () => {
    const text = statusText({
      host: { version: '1.0.0', pid: 10, socket: '/s', protocolVersion: 1 },
      extension: { id: 'x', version: '1.0.0', protocolVersion: 1 },
      browser: { userAgent: 'Mozilla/5.0 HeadlessChrome/156.0.1.2 Safari/537.36', pid: 99 },
      profile: '/p',
      pausedSince: null,
      launched: [{ profile: '/p', browserPid: 99, browserRunning: true, xvfb: null }],
    });
    expect(text).toBe('connected: headless Chromium 156.0.1.2 (pid 99), profile /p; extension 1.0.0, host 1.0.0 (pid 10)\nlaunched from this home: pid 99 running, profile /p');
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
