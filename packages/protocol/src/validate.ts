/** Turn zod failures into the closed error set with precise "field X must …" messages. */
import type * as z from 'zod';
import { usageLine } from './cliShape.js';
import { RelayError, type Phase } from './errors.js';
import { paramInfos } from './paramKinds.js';
import { toolLabel } from './toolLookup.js';
import { TOOLS, type ToolName, type ToolParams, type ToolResult } from './tools.js';

/** A top-level param that was not given at all: zod says "expected string, received undefined". */
function isMissing(issue: z.core.$ZodIssue, given: unknown): boolean {
  const key = issue.path.length === 1 ? issue.path[0] : undefined;
  if (issue.code !== 'invalid_type' || typeof key !== 'string') return false;
  return typeof given !== 'object' || given === null || (given as Record<string, unknown>)[key] === undefined;
}

export function describeIssues(error: z.ZodError, given?: unknown): { field: string; message: string; missing: boolean } {
  const first = error.issues[0];
  if (!first) return { field: '', message: 'invalid value', missing: false };
  const field = first.path.map(String).join('.');
  if (first.code === 'unrecognized_keys') {
    return { field: first.keys.join(','), message: `unknown option ${first.keys.map((k) => `"${k}"`).join(', ')}`, missing: false };
  }
  if (isMissing(first, given)) return { field, message: `${field}: is required`, missing: true };
  return { field, message: field ? `${field}: ${first.message}` : first.message, missing: false };
}

/** `(usage: \`chrome-relay fill <ref> <value>\`)` for a tool with a command; '' for one without. */
function usageOfTool(tool: ToolName): string {
  const cli = TOOLS[tool].cli;
  if (cli === undefined) return '';
  const infos = new Map(paramInfos(TOOLS[tool].params).map((info) => [info.name, info]));
  return ` (usage: \`${usageLine(cli, (param) => infos.get(param) ?? { optional: true, list: false })}\`)`;
}

export function parseParams<T extends ToolName>(tool: T, params: unknown, phase: Phase = 'validate'): ToolParams<T> {
  const parsed = TOOLS[tool].params.safeParse(params);
  if (parsed.success) return parsed.data as ToolParams<T>;
  const { field, message, missing } = describeIssues(parsed.error, params);
  throw new RelayError('invalid_arguments', `Invalid arguments for ${toolLabel(tool)}: ${message}${missing ? usageOfTool(tool) : ''}.`, {
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
