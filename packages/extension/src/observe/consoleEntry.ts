/** From the CDP console/exception events to one ConsoleEntry (without its id, which the buffer assigns). */
import type { ToolResult } from '@chrome-relay/protocol';

type ConsoleEntry = ToolResult<'console'>['entries'][number];
import type Protocol from 'devtools-protocol';

export type ConsoleRecord = Omit<ConsoleEntry, 'id'>;

const LEVEL_OF: Readonly<Record<string, ConsoleEntry['level']>> = {
  debug: 'debug',
  info: 'info',
  warning: 'warn',
  error: 'error',
  assert: 'error',
};

function textOf(arg: Protocol.Runtime.RemoteObject): string {
  if (arg.unserializableValue !== undefined) return arg.unserializableValue;
  if (arg.type === 'string' && typeof arg.value === 'string') return arg.value;
  if (arg.value !== undefined && (arg.type === 'number' || arg.type === 'boolean')) return String(arg.value);
  if (arg.subtype === 'null') return 'null';
  if (arg.type === 'undefined') return 'undefined';
  return arg.description ?? arg.type;
}

export function fromConsoleApi(event: Protocol.Runtime.ConsoleAPICalledEvent): ConsoleRecord {
  const frame = event.stackTrace?.callFrames[0];
  const record: ConsoleRecord = {
    level: LEVEL_OF[event.type] ?? 'log',
    source: 'console',
    text: event.args.map(textOf).join(' '),
    // Runtime timestamps are epoch milliseconds (unlike Network's monotonic seconds).
    timestamp: event.timestamp,
  };
  if (frame) {
    record.url = frame.url;
    record.line = frame.lineNumber + 1;
  }
  return record;
}

export function fromException(event: Protocol.Runtime.ExceptionThrownEvent): ConsoleRecord {
  const details = event.exceptionDetails;
  // exception.description carries "Error: message\n    at …"; details.text is only "Uncaught".
  const description = details.exception?.description ?? details.exception?.value;
  const record: ConsoleRecord = {
    level: 'error',
    source: 'exception',
    text: typeof description === 'string' ? `${details.text} ${description}` : details.text,
    timestamp: event.timestamp,
  };
  if (details.url !== undefined) record.url = details.url;
  record.line = details.lineNumber + 1;
  return record;
}

const SEVERITY: Readonly<Record<ConsoleEntry['level'], number>> = { debug: 0, log: 1, info: 2, warn: 3, error: 4 };

/** `--level warn` means warn and error: the level asked for and everything more severe. */
export function atLeast(level: ConsoleEntry['level'], minimum: ConsoleEntry['level'] | undefined): boolean {
  return minimum === undefined || SEVERITY[level] >= SEVERITY[minimum];
}
