/**
 * Turning command-line strings into values. Bad input becomes invalid_arguments naming the field (the
 * flag or argument as the agent typed it), never a crash. Ranges and choices of tool params are the
 * schema's job (commandParams.ts validates with it); these only convert text.
 */
import { parseRef, REF_RULE, RelayError } from '@chrome-relay/protocol';

/** The one invalid_arguments of the command line: `field: message`, details.field naming the flag or argument. */
export function invalidArgument(field: string, message: string, value?: unknown): RelayError {
  return new RelayError('invalid_arguments', `${field}: ${message}`, { phase: 'cli', details: value === undefined ? { field } : { field, value } });
}

export function parseIntArg(field: string, options: { min?: number; max?: number } = {}) {
  return (raw: string): number => {
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value)) throw invalidArgument(field, `must be a whole number, got "${raw}"`, raw);
    if (options.min !== undefined && value < options.min) throw invalidArgument(field, `must be at least ${options.min}, got ${value}`, raw);
    if (options.max !== undefined && value > options.max) throw invalidArgument(field, `must be at most ${options.max}, got ${value}`, raw);
    return value;
  };
}

/** A number as typed (range checks are the schema's): whole numbers for integer params. */
export function parseNumberText(field: string, raw: string, integer: boolean): number {
  const text = raw.trim();
  const value = Number(text);
  const shape = integer ? /^-?\d+$/ : /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
  if (!shape.test(text) || !Number.isFinite(value) || (integer && !Number.isSafeInteger(value))) {
    throw invalidArgument(field, `must be a ${integer ? 'whole number' : 'number'}, got "${raw}"`, raw);
  }
  return value;
}

export const parseTab = parseIntArg('tab', { min: 1 });
/** The call deadline, --timeout (the host refuses more than 10 minutes). */
export const parseTimeout = parseIntArg('timeout', { min: 1, max: 600_000 });
export const parseMaxChars = parseIntArg('max-chars', { min: 100 });
export const parseFps = parseIntArg('fps', { min: 1, max: 60 });
/**
 * A flag given again adds a value (an array param given by repeating its flag). It starts undefined, not []:
 * with no default, --help prints no "default: []".
 */
export const collectValues = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/**
 * Every converter an option of a tool command uses, by name. The command table of the fast path
 * (fast/commandTable.ts) names an option's converter, and the fast path applies it from here: the
 * same function commander calls.
 */
export const OPTION_PARSERS = { tab: parseTab, timeout: parseTimeout, maxChars: parseMaxChars, fps: parseFps, collect: collectValues } as const;
export type OptionParserName = keyof typeof OPTION_PARSERS;

export function parseRefArg(raw: string, field = 'ref'): string {
  const ref = parseRef(raw);
  if (!ref) throw invalidArgument(field, `must be ${REF_RULE}, got "${raw}"`, raw);
  return ref;
}
