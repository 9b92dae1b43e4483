/**
 * `network`, `network_body`, `network_har`: the tab's captured requests. Credentials in headers and URLs
 * (query/fragment tokens, Referer, Location) are redacted unless rawHeaders (observe/redact.ts). Filters
 * match the real URL, so `--url` finds a request by what the page actually asked for.
 */
import { RelayError, VERSION, type ToolParams } from '@chrome-relay/protocol';
import { callTab } from '../../context/call.js';
import type { NetworkEntry } from '../../observe/networkLog.js';
import { buildHar } from '../../observe/har.js';
import type { NetworkRecord } from '../../observe/networkLog.js';
import { redactHeaders, redactUrl } from '../../observe/redact.js';
import { rawSend } from '../../observe/wire.js';
import { defineTool } from '../defineTool.js';

export function matchesStatus(entry: NetworkEntry, status: string | undefined): boolean {
  if (status === undefined) return true;
  if (status === 'failed') return entry.failed !== undefined;
  if (status === 'pending') return entry.status === null && entry.failed === undefined;
  if (entry.status === null) return false;
  if (/^[1-5]xx$/.test(status)) return Math.floor(entry.status / 100) === Number(status[0]);
  return entry.status === Number(status);
}

export function toEntry(record: NetworkRecord, raw: boolean): NetworkEntry {
  const { monotonicStart: _internal, ...entry } = record;
  return {
    ...entry,
    url: raw ? entry.url : redactUrl(entry.url),
    requestHeaders: redactHeaders(entry.requestHeaders, raw),
    responseHeaders: redactHeaders(entry.responseHeaders, raw),
  };
}

export function filterRequests(records: readonly NetworkRecord[], params: Pick<ToolParams<'network'>, 'url' | 'status' | 'method' | 'rawHeaders'>): NetworkEntry[] {
  const method = params.method?.toUpperCase();
  return records
    .filter((record) => (params.url === undefined || record.url.includes(params.url)) && (method === undefined || record.method === method) && matchesStatus(record, params.status))
    .map((record) => toEntry(record, params.rawHeaders ?? false));
}

export const networkTool = defineTool({
  name: 'network',
  uses: ['captures'],
  async handle(params, ctx) {
    const tabId = callTab(ctx);
    await ctx.captures.arm(tabId, rawSend(ctx.cdp, tabId));
    const log = ctx.captures.network(tabId);
    return { tabId, requests: filterRequests(log.buffer.since().map((item) => item.value), params), dropped: log.buffer.dropped };
  },
});

export const networkBodyTool = defineTool({
  name: 'network_body',
  uses: ['captures'],
  async handle(params, ctx) {
    const tabId = callTab(ctx);
    const record = ctx.captures.network(tabId).get(params.id);
    if (!record) {
      throw new RelayError('invalid_arguments', `No captured request ${params.id} in tab ${tabId}; run \`chrome-relay network --tab ${tabId}\` for the ids it holds.`, {
        phase: 'validate',
        details: { field: 'id', id: params.id, tab: tabId },
      });
    }
    const body = await ctx.cdp.send(tabId, 'Network.getResponseBody', { requestId: params.id });
    return { tabId, id: params.id, mimeType: record.mimeType, base64Encoded: body.base64Encoded, body: body.body };
  },
});

export const networkHarTool = defineTool({
  name: 'network_har',
  uses: ['captures'],
  async handle(params, ctx) {
    const tabId = callTab(ctx);
    await ctx.captures.arm(tabId, rawSend(ctx.cdp, tabId));
    const entries = ctx.captures.network(tabId).buffer.since().map((item) => toEntry(item.value, params.rawHeaders ?? false));
    return { tabId, entries: entries.length, har: buildHar(entries, VERSION) };
  },
});
