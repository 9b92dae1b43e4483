/**
 * HAR 1.2 from captured requests. Timings are not broken down (CDP's per-phase timing is not kept),
 * so each entry carries its total duration as `wait` and -1 for the phases we did not measure, as
 * the HAR spec allows. Bodies are not embedded: `network body <id>` fetches one on demand.
 */
import type { ToolResult } from '@chrome-relay/protocol';
import { redactHeaders } from './redact.js';

type NetworkEntry = ToolResult<'network'>['requests'][number];

interface HarHeader {
  name: string;
  value: string;
}

function headerList(headers: Record<string, string>, raw: boolean): HarHeader[] {
  return Object.entries(redactHeaders(headers, raw)).map(([name, value]) => ({ name, value }));
}

function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

export function buildHar(entries: readonly NetworkEntry[], raw: boolean, creatorVersion: string): Record<string, unknown> {
  return {
    log: {
      version: '1.2',
      creator: { name: 'chrome-relay', version: creatorVersion },
      pages: [],
      entries: entries.map((entry) => {
        const time = entry.durationMs ?? 0;
        return {
          startedDateTime: new Date(entry.startedAt).toISOString(),
          time,
          request: {
            method: entry.method,
            url: entry.url,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: headerList(entry.requestHeaders, raw),
            queryString: queryOf(entry.url),
            headersSize: -1,
            bodySize: -1,
          },
          response: {
            status: entry.status ?? 0,
            statusText: entry.failed ?? entry.statusText,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: headerList(entry.responseHeaders, raw),
            content: { size: entry.encodedBytes, mimeType: entry.mimeType || 'x-unknown' },
            redirectURL: entry.responseHeaders.location ?? entry.responseHeaders.Location ?? '',
            headersSize: -1,
            bodySize: entry.encodedBytes,
          },
          cache: {},
          timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: time, receive: 0, ssl: -1 },
          _requestId: entry.id,
          ...(entry.failed === undefined ? {} : { _error: entry.failed }),
        };
      }),
    },
  };
}
