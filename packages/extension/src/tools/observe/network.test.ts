import { describe, expect, it } from 'vitest';
import { buildHar } from '../../observe/har.js';
import type { NetworkRecord } from '../../observe/networkLog.js';
import { REDACTED } from '../../observe/redact.js';
import { filterRequests, toEntry } from './network.js';

const record: NetworkRecord = {
  id: '1',
  url: 'https://api.example/data?page=1&access_token=SECRET1#frag',
  method: 'GET',
  type: 'Fetch',
  status: 200,
  statusText: 'OK',
  mimeType: 'application/json',
  requestHeaders: { Referer: 'https://app.example/login?code=SECRET2&next=%2F', Authorization: 'Bearer SECRET3', Accept: '*/*' },
  responseHeaders: { Location: '/next?sig=SECRET4', 'Content-Type': 'application/json' },
  startedAt: 1_700_000_000_000,
  durationMs: 5,
  encodedBytes: 10,
  monotonicStart: 1,
};

describe('network redaction', () => {
  it('masks tokens in the URL, the Referer and Location, and credential headers; rawHeaders shows them', () => {
    const entry = toEntry(record, false);
    expect(JSON.stringify(entry)).not.toMatch(/SECRET/);
    expect(entry.url).toBe(`https://api.example/data?page=1&access_token=${REDACTED}#frag`);
    expect(entry.requestHeaders.Referer).toBe(`https://app.example/login?code=${REDACTED}&next=%2F`);
    expect(JSON.stringify(toEntry(record, true)).match(/SECRET\d/g)).toEqual(['SECRET1', 'SECRET2', 'SECRET3', 'SECRET4']);
  });

  it('filters on the URL the page really asked for, then masks what it returns', () => {
    const [entry] = filterRequests([record], { url: 'access_token=SECRET1' });
    expect(entry?.url).not.toMatch(/SECRET/);
    expect(filterRequests([record], { url: 'nothing' })).toEqual([]);
  });

  it('a HAR of masked entries carries no secret anywhere (url, queryString, headers, redirectURL)', () => {
    const har = buildHar([toEntry(record, false)], '0.1.0');
    const text = JSON.stringify(har);
    expect(text).not.toMatch(/SECRET/);
    expect(text).toContain(`{"name":"access_token","value":"${REDACTED}"}`);
    expect(text).toContain(`"redirectURL":"/next?sig=${REDACTED}"`);
    expect(JSON.stringify(buildHar([toEntry(record, true)], '0.1.0'))).toContain('SECRET4');
  });
});
