/**
 * One tab's requests, assembled from the Network.* events of its debugger session.
 *
 * Why the ExtraInfo events: Network.requestWillBeSent / responseReceived carry the headers Blink
 * sees, which leave out Cookie and Set-Cookie; the real wire headers only arrive in
 * requestWillBeSentExtraInfo / responseReceivedExtraInfo, sometimes BEFORE the main event. They are
 * merged in (held briefly when early), so redaction sees — and masks — what was actually sent.
 *
 * A redirect reuses its requestId: the hop that was redirected is finished with the redirect's
 * status and kept under `<requestId>:<n>`; the new hop keeps the plain id (so `network body <id>`
 * reaches the final response).
 */
import type { ToolResult } from '@chrome-relay/protocol';
import type Protocol from 'devtools-protocol';
import { RingBuffer } from './ringBuffer.js';

export type NetworkEntry = ToolResult<'network'>['requests'][number];

export type NetworkRecord = NetworkEntry & {
  /** Monotonic seconds of requestWillBeSent, for the duration (Network timestamps are not epoch). */
  monotonicStart: number;
};

type Headers = Record<string, string>;

/** Extra-info events arriving before their request: kept at most this many per tab. */
const MAX_EARLY_EXTRA = 200;

function stringHeaders(headers: Protocol.Network.Headers): Headers {
  const out: Headers = {};
  for (const [key, value] of Object.entries(headers)) out[key] = typeof value === 'string' ? value : String(value);
  return out;
}

export class NetworkLog {
  readonly buffer: RingBuffer<NetworkRecord>;
  readonly #live = new Map<string, NetworkRecord>();
  readonly #redirects = new Map<string, number>();
  readonly #earlyRequestHeaders = new Map<string, Headers>();
  readonly #earlyResponseHeaders = new Map<string, Headers>();

  constructor(cap: number) {
    this.buffer = new RingBuffer(cap);
  }

  handle(method: string, params: unknown): void {
    switch (method) {
      case 'Network.requestWillBeSent':
        this.#willBeSent(params as Protocol.Network.RequestWillBeSentEvent);
        return;
      case 'Network.requestWillBeSentExtraInfo': {
        const event = params as Protocol.Network.RequestWillBeSentExtraInfoEvent;
        this.#mergeRequestHeaders(event.requestId, stringHeaders(event.headers));
        return;
      }
      case 'Network.responseReceived':
        this.#response(params as Protocol.Network.ResponseReceivedEvent);
        return;
      case 'Network.responseReceivedExtraInfo': {
        const event = params as Protocol.Network.ResponseReceivedExtraInfoEvent;
        this.#mergeResponseHeaders(event.requestId, stringHeaders(event.headers));
        return;
      }
      case 'Network.loadingFinished': {
        const event = params as Protocol.Network.LoadingFinishedEvent;
        const record = this.#live.get(event.requestId);
        if (!record) return;
        record.encodedBytes = event.encodedDataLength;
        record.durationMs = Math.max(0, Math.round((event.timestamp - record.monotonicStart) * 1000));
        this.#live.delete(event.requestId);
        return;
      }
      case 'Network.loadingFailed': {
        const event = params as Protocol.Network.LoadingFailedEvent;
        const record = this.#live.get(event.requestId);
        if (!record) return;
        record.failed = event.canceled ? `canceled (${event.errorText})` : event.errorText;
        record.durationMs = Math.max(0, Math.round((event.timestamp - record.monotonicStart) * 1000));
        this.#live.delete(event.requestId);
        return;
      }
      default:
        return;
    }
  }

  /** The record a body request names: the final hop of a request id. */
  get(id: string): NetworkRecord | undefined {
    return this.buffer.findLast((record) => record.id === id);
  }

  #willBeSent(event: Protocol.Network.RequestWillBeSentEvent): void {
    const previous = this.#live.get(event.requestId);
    if (previous && event.redirectResponse) {
      const hop = (this.#redirects.get(event.requestId) ?? 0) + 1;
      this.#redirects.set(event.requestId, hop);
      previous.id = `${event.requestId}:${hop}`;
      this.#applyResponse(previous, event.redirectResponse);
      previous.durationMs = Math.max(0, Math.round((event.timestamp - previous.monotonicStart) * 1000));
    }
    const record: NetworkRecord = {
      id: event.requestId,
      url: event.request.url + (event.request.urlFragment ?? ''),
      method: event.request.method,
      type: event.type ?? 'Other',
      status: null,
      statusText: '',
      mimeType: '',
      requestHeaders: stringHeaders(event.request.headers),
      responseHeaders: {},
      startedAt: Math.round(event.wallTime * 1000),
      durationMs: null,
      encodedBytes: 0,
      monotonicStart: event.timestamp,
    };
    const early = this.#earlyRequestHeaders.get(event.requestId);
    if (early) {
      mergeHeaders(record.requestHeaders, early);
      this.#earlyRequestHeaders.delete(event.requestId);
    }
    this.#live.set(event.requestId, record);
    this.buffer.push(record);
  }

  #response(event: Protocol.Network.ResponseReceivedEvent): void {
    const record = this.#live.get(event.requestId);
    if (!record) return;
    record.type = event.type;
    this.#applyResponse(record, event.response);
    const early = this.#earlyResponseHeaders.get(event.requestId);
    if (early) {
      mergeHeaders(record.responseHeaders, early);
      this.#earlyResponseHeaders.delete(event.requestId);
    }
  }

  #applyResponse(record: NetworkRecord, response: Protocol.Network.Response): void {
    record.status = response.status;
    record.statusText = response.statusText;
    record.mimeType = response.mimeType;
    record.encodedBytes = response.encodedDataLength;
    mergeHeaders(record.responseHeaders, stringHeaders(response.headers));
  }

  /** Live, or already finished (extra-info may trail loadingFinished). */
  #find(requestId: string): NetworkRecord | undefined {
    return this.#live.get(requestId) ?? this.get(requestId);
  }

  #mergeRequestHeaders(requestId: string, headers: Headers): void {
    const record = this.#find(requestId);
    if (record) mergeHeaders(record.requestHeaders, headers);
    else remember(this.#earlyRequestHeaders, requestId, headers);
  }

  #mergeResponseHeaders(requestId: string, headers: Headers): void {
    const record = this.#find(requestId);
    // Response extra-info usually arrives before responseReceived: hold it until then.
    if (record && record.status !== null) mergeHeaders(record.responseHeaders, headers);
    else remember(this.#earlyResponseHeaders, requestId, headers);
  }
}

/** Merge, replacing a header whose name differs only in case (the two event kinds spell names differently). */
function mergeHeaders(target: Headers, extra: Headers): void {
  for (const [key, value] of Object.entries(extra)) {
    for (const existing of Object.keys(target)) if (existing.toLowerCase() === key.toLowerCase()) delete target[existing];
    target[key] = value;
  }
}

function remember(map: Map<string, Headers>, key: string, headers: Headers): void {
  map.set(key, { ...(map.get(key) ?? {}), ...headers });
  // Extra-info for requests we never see (e.g. from a worker) must not pile up.
  if (map.size > MAX_EARLY_EXTRA) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}
