/**
 * HAR 1.2 from captured requests. Timings are not broken down (CDP's per-phase timing is not kept),
 * so each entry carries its total duration as `wait` and -1 for the phases we did not measure, as
 * the HAR spec allows. Bodies are not embedded: `network body <id>` fetches one on demand.
 * Entries come in already redacted (or raw, as asked): the query list is derived from the URL as given.
 */
import type { ToolResult } from '@chrome-relay/protocol';

type NetworkEntry = ToolResult<'network'>['requests'][number];

interface HarHeader {
  name: string;
  value: string;
}

function headerList(headers: Record<string, string>): HarHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** The query as name/value pairs, split by hand: URLSearchParams would decode a redaction marker's brackets. */
function queryOf(url: string): HarHeader[] {
  const query = /\?([^#]*)/.exec(url)?.[1];
  if (!query) return [];
  return query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      const [name, value] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
      return { name: decodeLoosely(name), value: decodeLoosely(value) };
    });
}

function decodeLoosely(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

export function buildHar(entries: readonly NetworkEntry[], creatorVersion: string): Record<string, unknown> {
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
            headers: headerList(entry.requestHeaders),
            queryString: queryOf(entry.url),
            headersSize: -1,
            bodySize: -1,
          },
          response: {
            status: entry.status ?? 0,
            statusText: entry.failed ?? entry.statusText,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: headerList(entry.responseHeaders),
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
