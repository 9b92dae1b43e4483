/**
 * The one module that prints. Handlers return data; this turns it into stdout (JSON, or text for snapshot)
 * and failures into the stderr contract: one human line, then `{"relayError": {...}}`, exit code 1.
 */
import { formatErrorForStderr, jsonLine, RelayError, type Notice } from '@chrome-relay/protocol';

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printText(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * A notice is one machine line and nothing else: on a failure, stderr's only human line is then the
 * error's, right above its block (the message inside the JSON stays readable for people).
 */
export function printNotice(notice: Notice): void {
  process.stderr.write(`${jsonLine({ relayNotice: notice })}\n`);
}

export function printError(error: unknown, tool: string): void {
  const relay = RelayError.from(error, tool, 'cli');
  process.stderr.write(formatErrorForStderr(relay.toData()));
}
