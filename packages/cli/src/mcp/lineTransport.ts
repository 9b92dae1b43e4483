/**
 * MCP's stdio transport: one JSON-RPC message per line on stdin, one per line on stdout.
 *
 * The SDK's own stdio transport drops a line it cannot read without a word to the client, closes the
 * session on a line over its buffer limit, and never notices that stdin ended. This one owns the
 * framing and answers every line:
 * - a line that is not JSON: a -32700 (parse error) answer, id null;
 * - JSON that is not one JSON-RPC 2.0 message (a batch, a request without a method, a wrong
 *   `jsonrpc`, a line over MAX_LINE_BYTES): a -32600 (invalid request) answer, with the request's id
 *   when it has a usable one; the session goes on;
 * - blank lines are skipped; a trailing "\r" is dropped (a client writing CRLF);
 * - stdin ending (the client closed it or exited) is reported once through `onInputEnd`, after the
 *   last complete line and any unterminated last line were delivered. Closing the session is the
 *   server's decision (server.ts): its calls in flight still answer on stdout first.
 *
 * Chunks are kept in a list and joined only when a newline completes a line, so a long line costs
 * one copy, not one per chunk.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A message line longer than this is refused (-32600) and skipped to its end: a client bug, never a real call. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

type RequestId = string | number | null;

/** What one line is: a message to hand on, an error answer to send back, or nothing (a blank line). */
export type LineOutcome = { message: JSONRPCMessage } | { answer: JSONRPCMessage } | null;

function errorAnswer(id: RequestId, code: number, message: string): JSONRPCMessage {
  // The SDK's message type has no id null (it never answers a line it cannot read); JSON-RPC 2.0 requires it here.
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}

/** The id to answer an invalid message with: its own when usable, else null. */
function idOf(value: unknown): RequestId {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** Why a parsed value is not a JSON-RPC message, in a few words (the client's bug to fix). */
function whyInvalid(value: unknown): string {
  if (Array.isArray(value)) return 'batches are not supported; send one message per line';
  if (typeof value !== 'object' || value === null) return 'a message must be a JSON object';
  const record = value as Record<string, unknown>;
  if (record.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('method' in record && typeof record.method !== 'string') return 'method must be a string';
  if (!('method' in record) && !('result' in record) && !('error' in record)) return 'a request needs a method';
  return 'not a JSON-RPC 2.0 request, notification or response';
}

/** One complete line → what to do with it. Pure. */
export function readLine(line: string): LineOutcome {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { answer: errorAnswer(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`) };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { message: parsed.data };
  return { answer: errorAnswer(idOf(value), INVALID_REQUEST, `Invalid Request: ${whyInvalid(value)}`) };
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** stdin ended: no message will come any more. */
  onInputEnd?: () => void;

  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Inside a line over MAX_LINE_BYTES: dropping bytes up to its newline (already answered). */
  private skipping = false;
  private ended = false;
  private closed = false;
  /** Answers written but not yet flushed, and who waits for none to be left (drained). */
  private writing = 0;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxLineBytes: number = MAX_LINE_BYTES,
  ) {}

  start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    // A closed or broken stdin is the end of the input too ('end' may never come then).
    this.input.on('close', this.onEnd);
    this.input.on('error', this.onInputError);
    // A client that stopped reading: answers go nowhere, which is no reason to crash.
    this.output.on('error', this.onOutputError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.writing++;
    return new Promise((resolve) => {
      // Resolve on the write's own callback: an error (a closed pipe) is reported by onOutputError.
      this.output.write(`${JSON.stringify(message)}\n`, () => {
        this.writing--;
        if (this.writing === 0) for (const waiter of this.waiters.splice(0)) waiter();
        resolve();
      });
    });
  }

  /** Every answer sent so far is written out. */
  drained(): Promise<void> {
    if (this.writing === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.off('error', this.onInputError);
    // Without this, a stdin pipe still open at the other end keeps the process alive.
    this.input.pause();
    if ('unref' in this.input && typeof this.input.unref === 'function') (this.input as Readable & { unref(): void }).unref();
    this.chunks = [];
    this.buffered = 0;
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a)) {
      const head = data.subarray(0, newline);
      data = data.subarray(newline + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (this.buffered + head.length > this.maxLineBytes) {
        this.refuseLong();
        continue;
      }
      const line = this.chunks.length === 0 ? head : Buffer.concat([...this.chunks, head]);
      this.chunks = [];
      this.buffered = 0;
      this.deliver(line.toString('utf8'));
    }
    if (data.length === 0 || this.skipping) return;
    if (this.buffered + data.length > this.maxLineBytes) {
      this.refuseLong();
      this.skipping = true;
      return;
    }
    this.chunks.push(data);
    this.buffered += data.length;
  };

  private readonly onEnd = (): void => {
    if (this.ended || this.closed) return;
    this.ended = true;
    // An unterminated last line is still a message the client sent.
    if (this.chunks.length > 0 && !this.skipping) this.deliver(Buffer.concat(this.chunks).toString('utf8'));
    this.chunks = [];
    this.buffered = 0;
    this.onInputEnd?.();
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
    this.onEnd();
  };

  private readonly onOutputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private refuseLong(): void {
    this.chunks = [];
    this.buffered = 0;
    void this.send(errorAnswer(null, INVALID_REQUEST, `Invalid Request: a message line is limited to ${this.maxLineBytes} bytes`));
  }

  private deliver(line: string): void {
    const outcome = readLine(line);
    if (outcome === null) return;
    if ('answer' in outcome) void this.send(outcome.answer);
    else this.onmessage?.(outcome.message);
  }
}
