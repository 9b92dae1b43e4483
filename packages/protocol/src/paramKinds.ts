/**
 * What kind of value each param of a tool takes, read straight from its zod schema: enough for the
 * CLI to declare a flag (does it take a value? a number? several?) and for help to list choices.
 * Ranges and patterns are not read here: values are checked by the schema itself, so the CLI and
 * the schema can never disagree. Cheap (a walk over one object's fields; no JSON Schema built),
 * because the CLI does it at start-up for the one command that runs.
 */
import type * as z from 'zod';

export type ParamKind = 'boolean' | 'integer' | 'number' | 'string' | 'enum' | 'json';

export interface ParamInfo {
  readonly name: string;
  readonly kind: ParamKind;
  /** An array of `kind` values (variadic positional, repeatable flag). */
  readonly list: boolean;
  readonly optional: boolean;
  /** For enum (and string literals): the accepted values. */
  readonly choices?: readonly string[];
  readonly description: string;
}

interface Def {
  type: string;
  innerType?: unknown;
  element?: unknown;
  entries?: Record<string, unknown>;
  values?: unknown[];
  checks?: unknown[];
  shape?: Record<string, unknown>;
  in?: unknown;
}

function defOf(schema: unknown): Def {
  const internals = (schema as { _zod?: { def?: Def } } | null)?._zod;
  return internals?.def ?? { type: 'unknown' };
}

function descriptionOf(schema: unknown): string | undefined {
  const description = (schema as { description?: unknown } | null)?.description;
  return typeof description === 'string' ? description : undefined;
}

/** z.number().int() adds a `safeint` format check. */
function isInteger(def: Def): boolean {
  return (def.checks ?? []).some((check) => (check as { _zod?: { def?: { format?: unknown } } })._zod?.def?.format === 'safeint');
}

function scalar(schema: unknown): { kind: ParamKind; choices?: string[] } {
  const def = defOf(schema);
  switch (def.type) {
    case 'boolean':
      return { kind: 'boolean' };
    case 'number':
      return { kind: isInteger(def) ? 'integer' : 'number' };
    case 'string':
      return { kind: 'string' };
    case 'enum':
      return { kind: 'enum', choices: Object.values(def.entries ?? {}).map(String) };
    case 'literal': {
      const values = def.values ?? [];
      if (values.every((v) => v === true)) return { kind: 'boolean' };
      return { kind: 'enum', choices: values.map(String) };
    }
    case 'pipe':
      return scalar(def.in);
    default:
      return { kind: 'json' };
  }
}

export function paramInfo(name: string, field: unknown): ParamInfo {
  let schema = field;
  let optional = false;
  let description = descriptionOf(schema);
  for (let def = defOf(schema); def.type === 'optional' || def.type === 'default' || def.type === 'nullable'; def = defOf(schema)) {
    if (def.type !== 'nullable') optional = true;
    schema = def.innerType;
    description ??= descriptionOf(schema);
  }
  const def = defOf(schema);
  const list = def.type === 'array';
  const { kind, choices } = scalar(list ? def.element : schema);
  description ??= list ? descriptionOf(def.element) : undefined;
  return { name, kind, list, optional, ...(choices ? { choices } : {}), description: description ?? '' };
}

/** Every param of an object schema, in declaration order. */
export function paramInfos(params: z.ZodType): ParamInfo[] {
  const shape = defOf(params).shape ?? {};
  return Object.entries(shape).map(([name, field]) => paramInfo(name, field));
}
