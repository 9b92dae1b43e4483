/**
 * The native messaging channel to the extension: frames on stdin (from Chrome) and stdout (to Chrome).
 *
 * Invariants:
 * - stdout carries frames and nothing else; one stray byte desynchronises Chrome's reader, so all
 *   logging goes to stderr (see log.ts).
 * - Every outgoing message is encoded against Chrome's 1 MiB limit before a single byte is written:
 *   an oversize frame throws a RelayError to the caller and the channel stays usable (Chrome would
 *   otherwise kill the port).
 * - A framing fault on input (oversize length, bad JSON) is fatal: the stream can no longer be
 *   trusted, so the caller exits and the extension reconnects to a fresh host.
 * - A frame that is valid JSON but not an ExtensionToHost message is reported, not fatal: the stream
 *   is still in sync and one bad message must not take every other call down. So is a frame nested
 *   deeper than MAX_JSON_DEPTH (never parsed: walking it could overflow the stack); the extension
 *   checks its own answers against that limit, so this only guards against a bug.
 * - `onEnd` fires exactly once: stdin closed (browser exited or port disconnected), stdin failed, or
 *   stdout failed (nobody is reading us any more).
 */
import type { Readable, Writable } from 'node:stream';
import {
  describeFrameError,
  encodeFrame,
  ExtensionToHostSchema,
  FrameDecodeError,
  FrameDecoder,
  MAX_FROM_EXTENSION_BYTES,
  MAX_TO_EXTENSION_BYTES,
  type ExtensionToHost,
  type HostToExtension,
} from '@chrome-relay/protocol';

export interface StdioHandlers {
  onMessage(message: ExtensionToHost): void;
  /** Valid JSON that is not an ExtensionToHost message. */
  onInvalid(raw: unknown, problem: string): void;
  /** The input stream is corrupt; nothing more will be delivered. */
  onFault(error: FrameDecodeError): void;
  onEnd(reason: string): void;
}

export interface StdioChannel {
  /** Throws RelayError(invalid_arguments, phase 'transport') when the frame exceeds Chrome's limit. */
  send(message: HostToExtension): void;
}

export function createStdioChannel(input: Readable, output: Writable, handlers: StdioHandlers): StdioChannel {
  const decoder = new FrameDecoder(MAX_FROM_EXTENSION_BYTES);
  let finished = false;

  const finish = (reason: string): void => {
    if (finished) return;
    finished = true;
    handlers.onEnd(reason);
  };

  input.on('data', (chunk: Buffer) => {
    if (finished) return;
    for (const frame of decoder.decode(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))) {
      if ('fault' in frame) {
        if (frame.fault.kind === 'too_deep') {
          handlers.onInvalid(undefined, describeFrameError(frame.fault));
          continue;
        }
        finished = true;
        input.pause();
        handlers.onFault(new FrameDecodeError(frame.fault));
        return;
      }
      const parsed = ExtensionToHostSchema().safeParse(frame.message);
      if (parsed.success) handlers.onMessage(parsed.data);
      else handlers.onInvalid(frame.message, parsed.error.issues[0]?.message ?? 'invalid message');
    }
  });
  input.on('end', () => finish('stdin closed'));
  input.on('error', (error) => finish(`stdin failed: ${error.message}`));
  output.on('error', (error) => finish(`stdout failed: ${error.message}`));

  return {
    send(message) {
      const frame = encodeFrame(message, MAX_TO_EXTENSION_BYTES);
      if (finished) return;
      output.write(frame);
    },
  };
}
