/**
 * The one module that prints. Handlers return data; this turns it into stdout (JSON, or text for snapshot)
 * and failures into the stderr contract: one human line, then `{"relayError": {...}}`, exit code 1.
 * Results carry page strings (titles, text, console messages, URLs), so everything goes out through escape.ts:
 * no page string can split a line or send the terminal a control sequence.
 */
import { escapeText, formatErrorForStderr, RelayError, toSafeJson, type Notice } from '@chrome-relay/protocol';

export function printJson(value: unknown): void {
  process.stdout.write(`${toSafeJson(value, 2)}\n`);
}

export function printText(text: string): void {
  const safe = escapeText(text);
  process.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
}

/**
 * A notice is one machine line and nothing else: on a failure, stderr's only human line is then the
 * error's, right above its block (the message inside the JSON stays readable for people).
 */
export function printNotice(notice: Notice): void {
  process.stderr.write(`${toSafeJson({ relayNotice: notice })}\n`);
}

export function printError(error: unknown, tool: string): void {
  const data = RelayError.from(error, tool, 'cli').toData();
  process.stderr.write(formatErrorForStderr(data));
}
