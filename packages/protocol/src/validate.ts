/** Turn zod failures into the closed error set with precise "field X must …" messages. */
import type * as z from 'zod';
import { RelayError, type Phase } from './errors.js';
import { toolLabel } from './toolLookup.js';
import { TOOLS, type ToolName, type ToolParams, type ToolResult } from './tools.js';

export function describeIssues(error: z.ZodError): { field: string; message: string } {
  const first = error.issues[0];
  if (!first) return { field: '', message: 'invalid value' };
  const field = first.path.map(String).join('.');
  if (first.code === 'unrecognized_keys') {
    return { field: first.keys.join(','), message: `unknown option ${first.keys.map((k) => `"${k}"`).join(', ')}` };
  }
  return { field, message: field ? `${field}: ${first.message}` : first.message };
}

export function parseParams<T extends ToolName>(tool: T, params: unknown, phase: Phase = 'validate'): ToolParams<T> {
  const parsed = TOOLS[tool].params.safeParse(params);
  if (parsed.success) return parsed.data as ToolParams<T>;
  const { field, message } = describeIssues(parsed.error);
  throw new RelayError('invalid_arguments', `Invalid arguments for ${toolLabel(tool)}: ${message}.`, {
    tool,
    phase,
    details: { field, issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
  });
}

/** A result that does not match its schema is our bug, not the user's: internal_error. */
export function parseResult<T extends ToolName>(tool: T, result: unknown): ToolResult<T> {
  const parsed = TOOLS[tool].result.safeParse(result);
  if (parsed.success) return parsed.data as ToolResult<T>;
  const { message } = describeIssues(parsed.error);
  throw new RelayError('internal_error', `The result of ${toolLabel(tool)} did not match its schema: ${message}.`, {
    tool,
    phase: 'validate',
  });
}
