import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, FrameDecodeError, MAX_TO_EXTENSION_BYTES } from './framing.js';
import { RelayError } from './errors.js';

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

describe('framing', () => {
  it('round-trips a message with a little-endian length header', () => {
    const frame = encodeFrame({ a: 'é' }, 100);
    expect(Array.from(frame.slice(0, 4))).toEqual([10, 0, 0, 0]); // {"a":"é"} is 10 UTF-8 bytes
    expect(new FrameDecoder(100).push(frame)).toEqual([{ a: 'é' }]);
  });

  it('reassembles a frame split at every byte boundary', () => {
    const frame = encodeFrame({ hello: 'world', n: [1, 2, 3] }, 1000);
    for (let cut = 1; cut < frame.length; cut++) {
      const decoder = new FrameDecoder(1000);
      expect(decoder.push(frame.slice(0, cut))).toEqual([]);
      expect(decoder.push(frame.slice(cut))).toEqual([{ hello: 'world', n: [1, 2, 3] }]);
      expect(decoder.pendingBytes).toBe(0);
    }
  });

  it('splits several frames delivered in one chunk, keeping a trailing partial one', () => {
    const a = encodeFrame({ id: 1 }, 100);
    const b = encodeFrame({ id: 2 }, 100);
    const c = encodeFrame({ id: 3 }, 100);
    const decoder = new FrameDecoder(100);
    expect(decoder.push(concat(a, b, c.slice(0, 5)))).toEqual([{ id: 1 }, { id: 2 }]);
    expect(decoder.push(c.slice(5))).toEqual([{ id: 3 }]);
  });

  it('refuses to encode a message over the limit with invalid_arguments, not a crash', () => {
    const big = 'x'.repeat(MAX_TO_EXTENSION_BYTES);
    let caught: unknown;
    try {
      encodeFrame({ big }, MAX_TO_EXTENSION_BYTES);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RelayError);
    expect((caught as RelayError).code).toBe('invalid_arguments');
    expect((caught as RelayError).details).toMatchObject({ limit: MAX_TO_EXTENSION_BYTES });
  });

  it('accepts a message exactly at the limit', () => {
    const body = JSON.stringify('x'.repeat(98)); // 100 bytes with the quotes
    expect(encodeFrame('x'.repeat(98), 100).length).toBe(4 + body.length);
  });

  it('rejects an oversize declared length before buffering the body', () => {
    const header = new Uint8Array([0xff, 0xff, 0xff, 0x7f]);
    const decoder = new FrameDecoder(1024);
    expect(() => decoder.push(header)).toThrowError(FrameDecodeError);
  });

  it('rejects a frame whose body is not JSON', () => {
    const body = new TextEncoder().encode('{nope');
    const frame = concat(new Uint8Array([body.length, 0, 0, 0]), body);
    expect(() => new FrameDecoder(100).push(frame)).toThrowError(/not valid JSON/);
  });
});

describe('framing cost', () => {
  it('decodes a large frame fed in 64 KiB chunks', () => {
    const frame = encodeFrame({ blob: 'y'.repeat(4 * 1024 * 1024) }, 8 * 1024 * 1024);
    const decoder = new FrameDecoder(8 * 1024 * 1024);
    let out: unknown[] = [];
    // 64 KiB chunks, as a socket delivers a big frame: the frame must come out whole, exactly once.
    for (let i = 0; i < frame.length; i += 65536) out = out.concat(decoder.push(frame.subarray(i, i + 65536)));
    expect(out).toHaveLength(1);
    expect(decoder.pendingBytes).toBe(0);
  });
});
