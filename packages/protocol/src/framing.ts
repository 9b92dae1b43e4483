/**
 * Frame codec shared by all three hops (CLI ↔ host socket, host ↔ extension stdio).
 *
 * Format: a 4-byte unsigned little-endian length, then that many bytes of UTF-8 JSON.
 * (Chrome native messaging uses native byte order; every platform Chrome ships on is little-endian.)
 *
 * Invariants:
 * - A chunk may hold part of a frame, exactly one frame, or several frames; the decoder buffers.
 * - Frames whose declared length exceeds the decoder's limit are rejected before buffering them,
 *   so a hostile or corrupt peer cannot make us allocate unbounded memory.
 * - Chrome kills the port if a host → extension message exceeds 1 MiB, so encodeFrame checks the
 *   caller's limit and throws a RelayError(invalid_arguments) instead of sending it.
 * - Nesting is bounded too (maxDepth): JSON.parse copes with any depth, but the first recursive walk
 *   after it (JSON.stringify when a message is forwarded, a validator, a renderer) overflows the stack
 *   somewhere below 5,000 levels. A deeper frame is reported as a fault before it is parsed, and the
 *   stream stays in sync: only an oversize length leaves the decoder unable to go on.
 */
import { RelayError } from './errors.js';

/** Chrome's limit for one native message from host to extension. */
export const MAX_TO_EXTENSION_BYTES = 1024 * 1024;
/** Chrome's limit for one native message from extension to host. */
export const MAX_FROM_EXTENSION_BYTES = 64 * 1024 * 1024;
/** Our limit for one frame on the local socket, either direction. */
export const MAX_SOCKET_FRAME_BYTES = 64 * 1024 * 1024;
/**
 * The host's limit for one request frame from a client. A request is forwarded to the extension, where
 * Chrome allows 1 MiB, so a larger one can never succeed; the margin lets such a request reach the exact
 * "exceeds Chrome's 1 MiB" answer instead of a bare transport refusal.
 */
export const MAX_SOCKET_REQUEST_BYTES = MAX_TO_EXTENSION_BYTES + 64 * 1024;
/**
 * Deepest nesting of arrays and objects a frame may carry. Results are nested (a snapshot tree takes two
 * levels per element), so this is generous; it stays well below where Node's JSON.stringify overflows.
 */
export const MAX_JSON_DEPTH = 2048;
/** Requests carry flat params (AGENTS.md): a client request never needs more than a few levels. */
export const MAX_REQUEST_DEPTH = 64;

const HEADER_BYTES = 4;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Encode one message. Pure (Uint8Array, no Node Buffer) so every package can share it. */
export function encodeFrame(message: unknown, maxBytes: number): Uint8Array {
  const body = encoder.encode(JSON.stringify(message));
  if (body.length > maxBytes) {
    throw new RelayError('invalid_arguments', `Message of ${body.length} bytes exceeds the ${maxBytes}-byte frame limit; send less data per call.`, {
      phase: 'transport',
      details: { bytes: body.length, limit: maxBytes },
    });
  }
  const frame = new Uint8Array(HEADER_BYTES + body.length);
  new DataView(frame.buffer).setUint32(0, body.length, true);
  frame.set(body, HEADER_BYTES);
  return frame;
}

export type FrameError =
  | { kind: 'oversize'; bytes: number; limit: number }
  | { kind: 'bad_json'; text: string }
  | { kind: 'too_deep'; limit: number };

/** One frame taken off the stream: its message, or why it has none. */
export type DecodedFrame = { message: unknown } | { fault: FrameError };

export class FrameDecoder {
  // Chunks are kept as a list and joined only once a whole frame has arrived, so a large frame delivered in
  // many small chunks costs one copy, not one copy per chunk (which grows with the square of its size).
  private chunks: Uint8Array[] = [];
  private total = 0;
  /** Set by an oversize length: the stream cannot be re-synchronised, so nothing more is decoded. */
  private stuck: FrameError | null = null;

  constructor(
    private readonly maxBytes: number,
    private readonly maxDepth: number = MAX_JSON_DEPTH,
  ) {}

  /** Feed a chunk; returns every complete message. Throws a FrameDecodeError on the first faulty frame. */
  push(chunk: Uint8Array): unknown[] {
    const messages: unknown[] = [];
    for (const frame of this.decode(chunk)) {
      if ('fault' in frame) throw new FrameDecodeError(frame.fault);
      messages.push(frame.message);
    }
    return messages;
  }

  /**
   * Feed a chunk; returns every complete frame in order, faulty ones included, so a caller can answer a
   * bad frame and keep the good ones around it. After an `oversize` fault nothing more is decoded (the
   * fault is returned again on every call).
   */
  decode(chunk: Uint8Array): DecodedFrame[] {
    if (this.stuck) return [{ fault: this.stuck }];
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.total += chunk.length;
    }
    const frames: DecodedFrame[] = [];
    while (this.total >= HEADER_BYTES) {
      const header = this.peek(HEADER_BYTES);
      const length = new DataView(header.buffer, header.byteOffset, HEADER_BYTES).getUint32(0, true);
      if (length > this.maxBytes) {
        this.stuck = { kind: 'oversize', bytes: length, limit: this.maxBytes };
        // What is buffered can never become a frame: let it go.
        this.chunks = [];
        this.total = 0;
        frames.push({ fault: this.stuck });
        break;
      }
      if (this.total < HEADER_BYTES + length) break;
      const joined = this.flatten();
      const bytes = joined.subarray(HEADER_BYTES, HEADER_BYTES + length);
      const rest = joined.subarray(HEADER_BYTES + length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.total = rest.length;
      frames.push(this.parse(bytes));
    }
    return frames;
  }

  private parse(bytes: Uint8Array): DecodedFrame {
    if (jsonDepthExceeds(bytes, this.maxDepth)) return { fault: { kind: 'too_deep', limit: this.maxDepth } };
    let text = '';
    try {
      text = decoder.decode(bytes);
      return { message: JSON.parse(text) };
    } catch {
      return { fault: { kind: 'bad_json', text: text.slice(0, 200) } };
    }
  }

  /** Bytes of an incomplete frame still waiting for more data. */
  get pendingBytes(): number {
    return this.total;
  }

  private flatten(): Uint8Array {
    if (this.chunks.length === 1 && this.chunks[0]) return this.chunks[0];
    const out = new Uint8Array(this.total);
    let offset = 0;
    for (const c of this.chunks) {
      out.set(c, offset);
      offset += c.length;
    }
    this.chunks = [out];
    return out;
  }

  /** The first n buffered bytes, contiguous (joins only the few chunks a header can span). */
  private peek(n: number): Uint8Array {
    const first = this.chunks[0];
    if (first && first.length >= n) return first;
    return this.flatten();
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether UTF-8 JSON bytes nest arrays/objects deeper than `limit`, without parsing them. Bytes, not
 * text: no byte of a multi-byte UTF-8 sequence is ASCII, so quotes and brackets are found exactly.
 * Strings are skipped with a native indexOf, so a large payload (mostly string) costs little.
 * Malformed input is not judged here (JSON.parse does that next).
 */
export function jsonDepthExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] ?? 0;
    if (byte === QUOTE) {
      i = closingQuote(bytes, i + 1);
      if (i < 0) return false;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote that ends a string whose content starts at `from`, or -1 if it never ends. */
function closingQuote(bytes: Uint8Array, from: number): number {
  for (let at = bytes.indexOf(QUOTE, from); at >= 0; at = bytes.indexOf(QUOTE, at + 1)) {
    let backslashes = 0;
    while (at - 1 - backslashes >= from && bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

export class FrameDecodeError extends Error {
  constructor(readonly fault: FrameError) {
    super(describeFrameError(fault));
    this.name = 'FrameDecodeError';
  }
}

export function describeFrameError(fault: FrameError): string {
  switch (fault.kind) {
    case 'oversize':
      return `Frame of ${fault.bytes} bytes exceeds the ${fault.limit}-byte limit`;
    case 'bad_json':
      return `Frame is not valid JSON: ${fault.text}`;
    case 'too_deep':
      return `Frame nests arrays/objects deeper than ${fault.limit} levels`;
  }
}

