import { RelayError } from '@chrome-relay/protocol';

/** The RelayError `promise` fails with; anything else (a success, another error) fails the test. */
export async function failure(promise: Promise<unknown>): Promise<RelayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof RelayError)) throw new Error(`expected a RelayError, got ${String(error)}`);
  return error;
}
