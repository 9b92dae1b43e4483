/**
 * The one module that prints. Handlers return data; this turns it into stdout (JSON, or text for snapshot)
 * and failures into the stderr contract: one human line, then `{"relayError": {...}}`, exit code 1.
 * Results carry page strings (titles, text, console messages, URLs), so everything goes out through escape.ts:
 * no page string can split a line or send the terminal a control sequence.
 */
import { commandOf, escapeText, formatErrorForStderr, RelayError, toSafeJson, type Notice, type RelayErrorData } from '@chrome-relay/protocol';

/**
 * A reader that stops early (`chrome-relay snapshot | head -5`) closes our stdout: later writes fail
 * with EPIPE. That is the reader's choice, not a failure of the command: nothing more is printed (no
 * stack) and the exit code stays the command's own, as `git log | head` leaves a pipeline quiet.
 */
function quietWhenReaderLeaves(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    process.exitCode = 1;
  });
  return stream;
}

let guardedOut: NodeJS.WriteStream | undefined;
let guardedErr: NodeJS.WriteStream | undefined;
/**
 * stdout and stderr, guarded on first use. Node makes each stream when it is first read, and stderr
 * costs a few ms of a call that prints nothing there.
 */
export const stdout = (): NodeJS.WriteStream => (guardedOut ??= quietWhenReaderLeaves(process.stdout));
export const stderr = (): NodeJS.WriteStream => (guardedErr ??= quietWhenReaderLeaves(process.stderr));

/** JSON on stdout: indented (--json), or with `indent` 0 on one line (what an agent's pipe gets). */
export function printJson(value: unknown, indent = 2): void {
  stdout().write(`${toSafeJson(value, indent)}\n`);
}

export function printText(text: string): void {
  const safe = escapeText(text);
  stdout().write(safe.endsWith('\n') ? safe : `${safe}\n`);
}

/**
 * A notice is one machine line and nothing else: on a failure, stderr's only human line is then the
 * error's, right above its block (the message inside the JSON stays readable for people).
 */
export function printNotice(notice: Notice): void {
  stderr().write(`${toSafeJson({ relayNotice: notice })}\n`);
}

export function printError(error: unknown, tool: string): void {
  stderr().write(formatErrorForStderr(asTyped(RelayError.from(error, tool, 'cli').toData())));
}

/**
 * The block names the tool as the agent typed it (`record stop`), like every message does; the protocol's name
 * (`record_stop`, the MCP tool's) stays in details.protocolTool.
 */
function asTyped(data: RelayErrorData): RelayErrorData {
  const typed = commandOf(data.tool);
  return typed === data.tool ? data : { ...data, tool: typed, details: { ...data.details, protocolTool: data.tool } };
}
