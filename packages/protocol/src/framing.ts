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
 */
import { RelayError } from './errors.js';

/** Chrome's limit for one native message from host to extension. */
export const MAX_TO_EXTENSION_BYTES = 1024 * 1024;
/** Chrome's limit for one native message from extension to host. */
export const MAX_FROM_EXTENSION_BYTES = 64 * 1024 * 1024;
/** Our limit for one frame on the local socket, either direction. */
export const MAX_SOCKET_FRAME_BYTES = 64 * 1024 * 1024;

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

export type FrameError = { kind: 'oversize'; bytes: number; limit: number } | { kind: 'bad_json'; text: string };

export class FrameDecoder {
  // Chunks are kept as a list and joined only once a whole frame has arrived, so a large frame delivered in
  // many small chunks costs one copy, not one copy per chunk (which grows with the square of its size).
  private chunks: Uint8Array[] = [];
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  /** Feed a chunk; returns every complete message. Throws a FrameDecodeError on a fatal framing fault. */
  push(chunk: Uint8Array): unknown[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.total += chunk.length;
    }
    const messages: unknown[] = [];
    while (this.total >= HEADER_BYTES) {
      const header = this.peek(HEADER_BYTES);
      const length = new DataView(header.buffer, header.byteOffset, HEADER_BYTES).getUint32(0, true);
      if (length > this.maxBytes) {
        throw new FrameDecodeError({ kind: 'oversize', bytes: length, limit: this.maxBytes });
      }
      if (this.total < HEADER_BYTES + length) break;
      const joined = this.flatten();
      const bytes = joined.subarray(HEADER_BYTES, HEADER_BYTES + length);
      const rest = joined.subarray(HEADER_BYTES + length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.total = rest.length;
      let text = '';
      try {
        text = decoder.decode(bytes);
        messages.push(JSON.parse(text));
      } catch {
        throw new FrameDecodeError({ kind: 'bad_json', text: text.slice(0, 200) });
      }
    }
    return messages;
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

export class FrameDecodeError extends Error {
  constructor(readonly fault: FrameError) {
    super(fault.kind === 'oversize' ? `Frame of ${fault.bytes} bytes exceeds the ${fault.limit}-byte limit` : `Frame is not valid JSON: ${fault.text}`);
    this.name = 'FrameDecodeError';
  }
}

