import { describe, expect, it } from 'vitest';
import { NetworkLog } from './networkLog.js';
import { RingBuffer } from './ringBuffer.js';
import { atLeast, fromConsoleApi } from './consoleEntry.js';
import { TabCaptures } from './captures.js';

describe('RingBuffer', () => {
  it('keeps the newest `cap` entries, counts the dropped, and ids survive clear', () => {
    const buffer = new RingBuffer<string>(2);
    buffer.push('a');
    buffer.push('b');
    buffer.push('c');
    expect(buffer.since().map((i) => [i.id, i.value])).toEqual([[2, 'b'], [3, 'c']]);
    expect(buffer.dropped).toBe(1);
    expect(buffer.since(2).map((i) => i.value)).toEqual(['c']);
    buffer.clear();
    expect(buffer.push('d')).toBe(4);
  });
});

describe('NetworkLog', () => {
  const sent = (requestId: string, url: string, extra: Record<string, unknown> = {}) => ({
    requestId, request: { url, method: 'GET', headers: { Accept: '*/*' } }, timestamp: 10, wallTime: 1_700_000_000, type: 'Fetch', ...extra,
  });
  const response = (status: number, headers: Record<string, string> = {}) => ({ status, statusText: 'OK', headers, mimeType: 'text/html', encodedDataLength: 5 });

  it('merges extra-info headers that arrive before their events, and times the request', () => {
    const log = new NetworkLog(10);
    log.handle('Network.requestWillBeSentExtraInfo', { requestId: '1', headers: { cookie: 'sid=1' } });
    log.handle('Network.requestWillBeSent', sent('1', 'http://x/a'));
    log.handle('Network.responseReceivedExtraInfo', { requestId: '1', headers: { 'Set-Cookie': 'sid=2' }, statusCode: 200 });
    log.handle('Network.responseReceived', { requestId: '1', type: 'Fetch', response: response(200, { 'set-cookie': 'filtered' }) });
    log.handle('Network.loadingFinished', { requestId: '1', timestamp: 10.25, encodedDataLength: 99 });
    const record = log.get('1');
    expect(record).toMatchObject({ status: 200, durationMs: 250, encodedBytes: 99, startedAt: 1_700_000_000_000 });
    expect(record?.requestHeaders).toMatchObject({ cookie: 'sid=1' });
    // One Set-Cookie, whatever the casing of the two sources.
    expect(Object.entries(record?.responseHeaders ?? {}).filter(([k]) => k.toLowerCase() === 'set-cookie')).toEqual([['Set-Cookie', 'sid=2']]);
  });

  it('keeps redirect hops under their own ids and the final hop under the plain id', () => {
    const log = new NetworkLog(10);
    log.handle('Network.requestWillBeSent', sent('7', 'http://x/old'));
    log.handle('Network.requestWillBeSent', sent('7', 'http://x/new', { redirectResponse: response(302) }));
    log.handle('Network.loadingFailed', { requestId: '7', timestamp: 11, errorText: 'net::ERR_FAILED', type: 'Fetch' });
    expect(log.get('7:1')).toMatchObject({ url: 'http://x/old', status: 302 });
    expect(log.get('7')).toMatchObject({ url: 'http://x/new', status: null, failed: 'net::ERR_FAILED' });
  });
});

describe('console entries', () => {
  it('joins args like the console does and maps levels', () => {
    const entry = fromConsoleApi({
      type: 'warning', executionContextId: 1, timestamp: 5,
      args: [{ type: 'string', value: 'n =' }, { type: 'number', value: 4 }, { type: 'object', subtype: 'null', value: null }, { type: 'object', description: 'Object' }],
    });
    expect(entry).toMatchObject({ level: 'warn', text: 'n = 4 null Object', source: 'console' });
    expect(atLeast('error', 'warn')).toBe(true);
    expect(atLeast('info', 'warn')).toBe(false);
  });
});

describe('TabCaptures after a re-attach', () => {
  const logged = (tabId: number, text: string, timestamp: number) => ({
    tabId,
    method: 'Runtime.consoleAPICalled',
    params: { type: 'log', args: [{ type: 'string', value: text }], timestamp, executionContextId: 1 },
  });

  it('drops the console messages Runtime.enable replays, keeps those logged while detached', () => {
    const captures = new TabCaptures();
    captures.handle(logged(1, 'a', 100));
    captures.handle(logged(1, 'b', 200));
    captures.sessionEnded(1);
    // The new session's Runtime.enable replays the page's stored messages with their own timestamps.
    captures.handle(logged(1, 'a', 100));
    captures.handle(logged(1, 'b', 200));
    captures.handle(logged(1, 'while detached', 300));
    captures.handle(logged(1, 'c', 400));
    expect(captures.console(1).since().map((e) => e.value.text)).toEqual(['a', 'b', 'while detached', 'c']);
  });
});
