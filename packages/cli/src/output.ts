/**
 * The one module that prints. Handlers return data; this turns it into stdout (JSON, or text for snapshot)
 * and failures into the stderr contract: one human line, then `{"relayError": {...}}`, exit code 1.
 * Results carry page strings (titles, text, console messages, URLs), so everything goes out through escape.ts:
 * no page string can split a line or send the terminal a control sequence.
 */
import { RelayError, type Notice } from '@chrome-relay/protocol';
import { escapeLine, escapeText, toSafeJson } from './escape.js';

export function printJson(value: unknown): void {
  process.stdout.write(`${toSafeJson(value, 2)}\n`);
}

export function printText(text: string): void {
  const safe = escapeText(text);
  process.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
}

export function printNotice(notice: Notice): void {
  process.stderr.write(`chrome-relay: notice ${notice.notice}: ${notice.message}\n${JSON.stringify({ relayNotice: notice })}\n`);
}

export function printError(error: unknown, tool: string): void {
  const data = RelayError.from(error, tool, 'cli').toData();
  // formatErrorForStderr's layout, made safe: messages can quote the page (a covering element's name, a
  // dialog's text), and the human line must stay one line with no raw control in it.
  process.stderr.write(`chrome-relay: ${data.code}: ${escapeLine(data.message)}\n${toSafeJson({ relayError: data })}\n`);
}
