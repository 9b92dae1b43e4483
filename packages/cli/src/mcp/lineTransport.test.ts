import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineTransport, readLine } from './lineTransport.js';

describe('readLine', () => {
  it('a line that is not JSON is a parse error (-32700, id null)', () => {
    expect(readLine('{"jsonrpc": "2.0", "id": 1,')).toEqual({ answer: { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /) } } });
  });

  it('JSON that is not one JSON-RPC message is an invalid request (-32600), answered with its id when it has one', () => {
    expect(readLine('{"jsonrpc":"2.0","id":7}')).toEqual({ answer: { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid Request: a request needs a method' } } });
    expect(readLine('{"jsonrpc":"1.0","id":"a","method":"ping"}')).toMatchObject({ answer: { id: 'a', error: { code: -32600, message: 'Invalid Request: jsonrpc must be "2.0"' } } });
    expect(readLine('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toMatchObject({ answer: { id: null, error: { code: -32600, message: expect.stringContaining('batches') } } });
    expect(readLine('42')).toMatchObject({ answer: { id: null, error: { code: -32600 } } });
    expect(readLine('{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}')).toMatchObject({ answer: { id: null, error: { code: -32600 } } });
  });

  it('a message is handed on; a blank line is nothing; CRLF is fine', () => {
    expect(readLine('{"jsonrpc":"2.0","id":1,"method":"ping"}\r')).toEqual({ message: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect(readLine('  \r')).toBeNull();
  });
});

function harness(maxLineBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new LineTransport(input, output, maxLineBytes);
  const messages: unknown[] = [];
  let ended = 0;
  transport.onmessage = (message) => messages.push(message);
  transport.onInputEnd = () => ended++;
  const written = (): unknown[] =>
    String(output.read() ?? '')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as unknown);
  return { input, output, transport, messages, written, ended: () => ended };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('LineTransport', () => {
  it('joins a message split across chunks, splits several in one chunk, and answers a bad line without ending the session', async () => {
    const t = harness();
    await t.transport.start();
    t.input.write('{"jsonrpc":"2.0","id":1,');
    t.input.write('"method":"ping"}\nnot json\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await flush();
    expect(t.messages).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(t.written()).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } }]);
  });

  it('refuses a line over the limit (-32600) and reads the next one', async () => {
    const t = harness(64);
    await t.transport.start();
    t.input.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(100)}`);
    t.input.write('"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await flush();
    expect(t.written()).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('64 bytes') } }]);
    expect(t.messages).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('reports the end of stdin once, after handing on an unterminated last line; answers still go out until close', async () => {
    const t = harness();
    await t.transport.start();
    t.input.end('{"jsonrpc":"2.0","id":3,"method":"ping"}');
    await flush();
    expect(t.messages).toEqual([{ jsonrpc: '2.0', id: 3, method: 'ping' }]);
    expect(t.ended()).toBe(1);
    await t.transport.send({ jsonrpc: '2.0', id: 3, result: {} });
    await t.transport.drained();
    expect(t.written()).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]);
    let closed = 0;
    t.transport.onclose = () => closed++;
    await t.transport.close();
    await t.transport.close();
    expect(closed).toBe(1);
    expect(t.ended()).toBe(1);
  });
});
