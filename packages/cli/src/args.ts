/** Parsers for CLI arguments. Bad input becomes invalid_arguments naming the field, never a crash. */
import { parseRef, RelayError } from '@chrome-relay/protocol';

function invalid(field: string, message: string, value: unknown): RelayError {
  return new RelayError('invalid_arguments', `${field}: ${message}`, { phase: 'cli', details: { field, value } });
}

export function parseIntArg(field: string, options: { min?: number; max?: number } = {}) {
  return (raw: string): number => {
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value)) throw invalid(field, `must be a whole number, got "${raw}"`, raw);
    if (options.min !== undefined && value < options.min) throw invalid(field, `must be at least ${options.min}, got ${value}`, raw);
    if (options.max !== undefined && value > options.max) throw invalid(field, `must be at most ${options.max}, got ${value}`, raw);
    return value;
  };
}

export function parseNumberArg(field: string, options: { min?: number } = {}) {
  return (raw: string): number => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) throw invalid(field, `must be a number, got "${raw}"`, raw);
    if (options.min !== undefined && value < options.min) throw invalid(field, `must be at least ${options.min}, got ${value}`, raw);
    return value;
  };
}

export const parseTab = parseIntArg('tab', { min: 1 });
export const parseTimeout = parseIntArg('timeout', { min: 1, max: 600_000 });

export function parseRefArg(raw: string, field = 'ref'): string {
  const ref = parseRef(raw);
  if (!ref) throw invalid(field, `must be a ref like @e12 from \`chrome-relay snapshot\`, got "${raw}"`, raw);
  return ref;
}

export function parseChoice<T extends string>(field: string, choices: readonly T[]) {
  return (raw: string): T => {
    const found = choices.find((c) => c === raw);
    if (!found) throw invalid(field, `must be one of ${choices.join(', ')}, got "${raw}"`, raw);
    return found;
  };
}
