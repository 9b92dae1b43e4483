import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, FrameDecodeError, jsonDepthExceeds, MAX_JSON_DEPTH, MAX_REQUEST_DEPTH, MAX_SOCKET_REQUEST_BYTES, MAX_TO_EXTENSION_BYTES } from './framing.js';
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

describe('framing limits', () => {
  const frameOf = (text: string): Uint8Array => {
    const body = new TextEncoder().encode(text);
    const header = new Uint8Array(4);
    new DataView(header.buffer).setUint32(0, body.length, true);
    return concat(header, body);
  };

  it('reports a frame nested deeper than the limit before parsing it, and keeps the frames around it', () => {
    const deep = `{"a":${'['.repeat(65)}${']'.repeat(65)}}`;
    const decoder = new FrameDecoder(1 << 20, 64);
    const frames = decoder.decode(concat(frameOf('{"id":1}'), frameOf(deep), frameOf('{"id":2}')));
    expect(frames).toEqual([{ message: { id: 1 } }, { fault: { kind: 'too_deep', limit: 64 } }, { message: { id: 2 } }]);
    expect(decoder.pendingBytes).toBe(0);
    // Exactly at the limit is fine.
    expect(decoder.decode(frameOf(`${'['.repeat(64)}${']'.repeat(64)}`))).toHaveLength(1);
    expect(() => new FrameDecoder(1 << 20, 64).push(frameOf(deep))).toThrowError(/deeper than 64/);
  });

  it('counts brackets inside strings as text, escapes included', () => {
    expect(jsonDepthExceeds(new TextEncoder().encode(JSON.stringify({ s: '[[[[{{{{\\"[[[[', t: ['"]]]"'] })), 3)).toBe(false);
    expect(jsonDepthExceeds(new TextEncoder().encode('[[["\\\\"],[[[1]]]]]'), 4)).toBe(true);
    expect(jsonDepthExceeds(new TextEncoder().encode('[[["\\\\"],[[[1]]]]]'), 5)).toBe(false);
    expect(jsonDepthExceeds(new TextEncoder().encode('"unterminated [[[['), 1)).toBe(false);
  });

  it('decodes malformed deep input as a fault, never a stack overflow (200,000 levels)', () => {
    const decoder = new FrameDecoder(1 << 20);
    expect(decoder.decode(frameOf('['.repeat(200_000)))).toEqual([{ fault: { kind: 'too_deep', limit: MAX_JSON_DEPTH } }]);
    expect(decoder.decode(frameOf('{"ok":true}'))).toEqual([{ message: { ok: true } }]);
  });

  it('stops for good after an oversize length and lets go of what it buffered', () => {
    const decoder = new FrameDecoder(16);
    expect(decoder.decode(concat(frameOf('{"a":1}'), new Uint8Array([100, 0, 0, 0, 1, 2, 3])))).toEqual([
      { message: { a: 1 } },
      { fault: { kind: 'oversize', bytes: 100, limit: 16 } },
    ]);
    expect(decoder.pendingBytes).toBe(0);
    expect(decoder.decode(frameOf('{"b":2}'))).toEqual([{ fault: { kind: 'oversize', bytes: 100, limit: 16 } }]);
    expect(decoder.pendingBytes).toBe(0);
  });

  it('lets a request reach the exact "over Chrome\'s 1 MiB" answer, and nests requests shallowly', () => {
    expect(MAX_SOCKET_REQUEST_BYTES).toBeGreaterThan(MAX_TO_EXTENSION_BYTES);
    expect(MAX_REQUEST_DEPTH).toBeLessThan(MAX_JSON_DEPTH);
  });
});
