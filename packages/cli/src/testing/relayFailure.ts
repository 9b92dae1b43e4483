/**
 * The RelayError a test expects: what a call rejects with, or what a function throws. A success fails the test, and
 * any other error is thrown on as it is (its own stack says what went wrong).
 */
import { RelayError } from '@chrome-relay/protocol';

function asRelayError(error: unknown): RelayError {
  if (error instanceof RelayError) return error;
  throw error;
}

export async function failureOf(call: Promise<unknown>): Promise<RelayError> {
  try {
    await call;
  } catch (error) {
    return asRelayError(error);
  }
  throw new Error('expected a RelayError, got a success');
}

export function failureIn(run: () => unknown): RelayError {
  try {
    run();
  } catch (error) {
    return asRelayError(error);
  }
  throw new Error('expected a RelayError, got a success');
}
