import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, MAX_FROM_EXTENSION_BYTES, MAX_TO_EXTENSION_BYTES, RelayError, type ExtensionToHost } from '@chrome-relay/protocol';
import { createStdioChannel } from './stdioChannel.js';

function setup() {
  const input = new PassThrough();
  const output = new PassThrough();
  const events: string[] = [];
  const messages: ExtensionToHost[] = [];
  const channel = createStdioChannel(input, output, {
    onMessage: (m) => messages.push(m),
    onInvalid: (_raw, problem) => events.push(`invalid:${problem}`),
    onFault: (e) => events.push(`fault:${e.fault.kind}`),
    onEnd: (reason) => events.push(`end:${reason}`),
  });
  const written = new FrameDecoder(MAX_TO_EXTENSION_BYTES);
  const out: unknown[] = [];
  output.on('data', (chunk: Buffer) => out.push(...written.push(new Uint8Array(chunk))));
  return { input, output, channel, events, messages, out };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('stdio channel', () => {
  it('decodes and validates extension messages, reporting invalid ones without stopping', async () => {
    const { input, events, messages } = setup();
    const frames = [
      encodeFrame({ type: 'result', id: 1, ok: true, result: 42 }, 1000),
      encodeFrame({ type: 'result', id: 2, ok: 'yes' }, 1000),
      encodeFrame({ type: 'hello', extension: { id: 'x', version: '1', protocolVersion: 1 }, userAgent: 'UA' }, 1000),
    ];
    input.write(Buffer.concat(frames));
    await tick();
    expect(messages.map((m) => m.type)).toEqual(['result', 'hello']);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatch(/^invalid:/);
  });

  it('writes frames, and refuses one over Chrome’s 1 MiB limit without writing anything', async () => {
    const { channel, out } = setup();
    channel.send({ type: 'hello', host: { version: '0.1.0', protocolVersion: 1, pid: 1 } });
    expect(() => channel.send({ type: 'call', id: 1, tool: 'type', params: { t: 'x'.repeat(MAX_TO_EXTENSION_BYTES) }, timeoutMs: 1 })).toThrow(RelayError);
    channel.send({ type: 'call', id: 2, tool: 'tabs', params: {}, timeoutMs: 1 });
    await tick();
    expect(out).toEqual([
      { type: 'hello', host: { version: '0.1.0', protocolVersion: 1, pid: 1 } },
      { type: 'call', id: 2, tool: 'tabs', params: {}, timeoutMs: 1 },
    ]);
  });

  it('treats a framing fault as fatal and reports it once', async () => {
    const { input, events } = setup();
    const header = Buffer.alloc(4);
    header.writeUInt32LE(MAX_FROM_EXTENSION_BYTES + 1);
    input.write(header);
    input.write(encodeFrame({ type: 'result', id: 1, ok: true, result: 1 }, 100));
    input.end();
    await tick();
    expect(events).toEqual(['fault:oversize']);
  });

  it('reports a frame nested too deep without parsing it, and goes on with the next frames', async () => {
    const { input, events, messages } = setup();
    const body = Buffer.from(`{"type":"result","id":1,"ok":true,"result":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    const header = Buffer.alloc(4);
    header.writeUInt32LE(body.length);
    input.write(Buffer.concat([header, body, encodeFrame({ type: 'result', id: 2, ok: true, result: 2 }, 100)]));
    await tick();
    expect(events).toEqual(['invalid:Frame nests arrays/objects deeper than 2048 levels']);
    expect(messages).toMatchObject([{ id: 2 }]);
  });

  it('treats a malformed frame as fatal even when it is deeply nested', async () => {
    const { input, events } = setup();
    const body = Buffer.from('['.repeat(1000));
    const header = Buffer.alloc(4);
    header.writeUInt32LE(body.length);
    input.write(Buffer.concat([header, body]));
    await tick();
    expect(events).toEqual(['fault:bad_json']);
  });

  it('reports the end of stdin once', async () => {
    const { input, output, events } = setup();
    input.end();
    await tick();
    output.emit('error', new Error('EPIPE'));
    expect(events).toEqual(['end:stdin closed']);
  });
});
