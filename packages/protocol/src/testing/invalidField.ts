/** Test helper (not exported from the package index): run `fn`, require invalid_arguments, return details.field. */
import { expect } from 'vitest';
import { RelayError } from '../errors.js';

export function invalidField(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).code).toBe('invalid_arguments');
    return (error as RelayError).details.field;
  }
  throw new Error('expected a throw');
}
