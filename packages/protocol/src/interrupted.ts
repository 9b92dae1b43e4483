/**
 * A mutating call cut off midway (`timeout`, `native_host_disconnected`) may or may not have acted:
 * the click may have landed, the form may have been sent. Repeating it blindly could do it twice, so
 * such an answer is not retryable and says to look first. Read-only calls stay retryable.
 *
 * Which tools mutate is declared once, on each tool's entry (ToolSpec.mutates). Every edge that
 * builds or relays these answers (host relay, CLI socket, CLI runTool) passes them through here; the
 * rewrite is idempotent.
 */
import { PHASE_TABLE, RelayError } from './errors.js';
import { isToolName, toolLabel } from './toolLookup.js';
import { TOOLS } from './tools.js';

/** The agent's move after an interrupted mutation, in the words every message uses. */
export const CHECK_BEFORE_REISSUING = 'run `chrome-relay snapshot` and check the page before re-issuing it';

export function toolMutates(tool: string): boolean {
  return isToolName(tool) && TOOLS[tool].mutates;
}

/** `error` itself, or — for a mutating tool cut off after it may have acted — the non-retryable form. */
export function asInterrupted(error: RelayError): RelayError {
  if (error.code !== 'timeout' && error.code !== 'native_host_disconnected') return error;
  if (PHASE_TABLE[error.phase].beforeActing || error.details.mayHaveActed !== undefined || !toolMutates(error.tool)) return error;
  // The code is copied from an error built with its details (and reason), which are kept whole.
  return new RelayError(error.code, `${error.message} ${toolLabel(error.tool)} may already have taken effect: ${CHECK_BEFORE_REISSUING}.`, {
    tool: error.tool,
    phase: error.phase,
    retryable: false,
    details: { ...error.details, mayHaveActed: true },
  });
}
