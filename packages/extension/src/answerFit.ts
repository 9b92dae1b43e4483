/**
 * Every answer must reach the host whole. Chrome drops a native message over 64 MiB without a word (the
 * call would then wait out its whole deadline, reported retryable), and the host cannot re-send a frame
 * nested deeper than its decoder accepts. So the answer is measured here, before it is posted, and one
 * that cannot travel becomes an error for the same call that names the limit and how to ask for less.
 *
 * The margin below Chrome's limit leaves room for the host's envelope around the result on the socket.
 */
import { MAX_FROM_EXTENSION_BYTES, MAX_JSON_DEPTH, RelayError, jsonDepthExceeds, toolLabel, toolMutates, type ExtensionToHost } from '@chrome-relay/protocol';

export const MAX_ANSWER_BYTES = MAX_FROM_EXTENSION_BYTES - 64 * 1024;

/** How to ask the same tool for less. */
const NARROWER: Readonly<Record<string, string>> = {
  js: 'return less (e.g. `.slice(0, 1e6)` of a string, or a few fields of an object) and fetch the rest in further calls',
  snapshot: 'snapshot part of the page (`-s <ref or selector>`, `--depth N` or `-i`)',
  get: 'ask for a smaller element (a narrower selector or ref)',
  screenshot: 'capture less (`--max-edge`, `--format jpeg`, an element instead of --full)',
  record_stop: 'record fewer frames (`record start --max-frames`, `--max-edge`)',
  network: 'filter the requests (`--url`, `--status`, `--method`)',
  network_har: 'clear the capture more often (`network` on a fresh tab) or use `network --url` to read fewer requests',
  network_body: 'read the body of a smaller response',
  console: 'read fewer entries (`--since`, `--level`, `--clear`)',
};

const encoder = new TextEncoder();

/** `answer` itself when it can travel, else the error that replaces it. */
export function fitAnswer(answer: ExtensionToHost, tool: string, maxBytes = MAX_ANSWER_BYTES, maxDepth = MAX_JSON_DEPTH): ExtensionToHost {
  if (answer.type === 'hello') return answer;
  let bytes: Uint8Array;
  try {
    bytes = encoder.encode(JSON.stringify(answer));
  } catch (error) {
    // JSON.stringify overflows the stack on deep nesting before any depth check could run.
    if (!(error instanceof RangeError)) throw error;
    return refusal(answer.id, tool, `nests deeper than ${maxDepth} levels`, { limit: maxDepth });
  }
  if (bytes.length > maxBytes) return refusal(answer.id, tool, `is ${bytes.length} bytes, over the ${maxBytes} a native message can carry to chrome-relay`, { bytes: bytes.length, limit: maxBytes });
  if (jsonDepthExceeds(bytes, maxDepth)) return refusal(answer.id, tool, `nests deeper than ${maxDepth} levels`, { limit: maxDepth });
  return answer;
}

function refusal(id: number, tool: string, problem: string, details: Record<string, unknown>): ExtensionToHost {
  const ran = toolMutates(tool) ? `${toolLabel(tool)} ran (whatever it did to the page stands), but its result ` : `The result of ${toolLabel(tool)} `;
  const move = NARROWER[tool] ?? 'ask for less in one call';
  const error = new RelayError('invalid_arguments', `${ran}${problem}; ${move}.`, {
    tool,
    phase: 'transport',
    details: { ...details, ...(toolMutates(tool) ? { mayHaveActed: true } : {}) },
  });
  return { type: 'error', id, error: error.toData() };
}
