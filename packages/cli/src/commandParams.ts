/**
 * The command line of a tool command → its params, then checked by the tool's own zod schema. This is
 * the only argv-to-params code of the CLI: every tool command goes through it (and so does every
 * command line the docs show, in docsCommands.test.ts).
 *
 * Rules:
 * - flags first: each fills its param (a constant flag sets its value; `also` sets more params);
 *   two sources for one param is invalid_arguments naming both;
 * - then positionals, in order, fill the declared arguments whose params no flag filled (so
 *   `upload --via @e8 a.pdf` gives the files to `files`); an array param takes the rest;
 * - values are converted by the param's kind (numbers, refs) or the declared parser; ranges,
 *   choices and cross-field rules are the schema's, and its error names the flag or argument.
 */
import { isToolName, looksLikeRef, parseRef, REF_RULE, TOOLS, type CliParser, type ParamInfo } from '@chrome-relay/protocol';
import { invalidArgument, parseNumberText } from './args.js';
import { fieldOfParam, isRefParam, usageOf, type CommandSpec } from './commandSpec.js';
import { parseFiles, parseModifiers, parseWritableDir } from './valueParsers.js';

export interface CommandLineParams {
  params: Record<string, unknown>;
  /** Which flag or argument filled each param (what an error names). */
  fields: Map<string, string>;
}

function convertOne(info: ParamInfo, raw: string, field: string): unknown {
  if (isRefParam(info.name)) {
    const ref = parseRef(raw);
    if (ref === null) throw invalidArgument(field, `must be ${REF_RULE}, got "${raw}"`, raw);
    return ref;
  }
  if (info.kind === 'integer' || info.kind === 'number') return parseNumberText(field, raw, info.kind === 'integer');
  return raw;
}

function convert(info: ParamInfo, raw: string | readonly string[], field: string, parse: CliParser | undefined): unknown {
  const list = typeof raw === 'string' ? [raw] : raw;
  switch (parse) {
    case 'modifiers':
      return parseModifiers(list.join(','), field);
    case 'files':
      return parseFiles(list, field);
    case 'dir':
      return parseWritableDir(list.join(''), field);
    case 'refIfGiven':
    default:
      break;
  }
  if (info.list) return list.map((item) => convertOne(info, item, field));
  return convertOne(info, list[0] ?? '', field);
}

function set(out: CommandLineParams, param: string, value: unknown, field: string): void {
  const previous = out.fields.get(param);
  if (previous !== undefined && previous !== field) {
    throw invalidArgument(field.replace(/^--/, ''), `${previous} and ${field} both give ${param}; give one of them`);
  }
  out.params[param] = value;
  out.fields.set(param, field);
}

/** Flags and positionals → params (envelope params such as tab and agent are left to the caller). */
export function paramsFromCommandLine(spec: CommandSpec, positionals: readonly string[], opts: Readonly<Record<string, unknown>>): CommandLineParams {
  const out: CommandLineParams = { params: {}, fields: new Map() };
  for (const flag of spec.flags) {
    const given = opts[flag.attribute];
    if (flag.negate ? given !== false : given === undefined || given === false) continue;
    const label = `--${flag.field}`;
    if (flag.value !== undefined || !flag.takesValue) {
      set(out, flag.param, flag.value ?? true, label);
    } else if (flag.parse === 'refOrSelector' && typeof given === 'string' && !looksLikeRef(given)) {
      if (given.trim() === '') throw invalidArgument(flag.field, 'give a ref (@e12) or a CSS selector', given);
      set(out, flag.otherwise ?? flag.param, given.trim(), label);
    } else {
      const raw = Array.isArray(given) ? given.map(String) : String(given);
      set(out, flag.param, convert(flag.info, raw, flag.field, flag.parse === 'refOrSelector' ? undefined : flag.parse), label);
    }
    for (const [param, value] of Object.entries(flag.also ?? {})) set(out, param, value, label);
  }

  const open = spec.positionals.filter((p) => !out.fields.has(p.param));
  let at = 0;
  for (const p of open) {
    if (at >= positionals.length) break;
    if (p.parse === 'refIfGiven' && !looksLikeRef(positionals[at] ?? '')) continue;
    const raw = p.list ? positionals.slice(at) : [positionals[at] ?? ''];
    at += raw.length;
    set(out, p.param, convert(p.info, p.list ? raw : (raw[0] ?? ''), p.label, p.parse), p.label);
  }
  if (at < positionals.length) {
    const extra = positionals.slice(at);
    throw invalidArgument('command', `too many arguments: ${extra.map((e) => JSON.stringify(e)).join(' ')} (usage: \`chrome-relay ${spec.cli.command} --help\`)`, extra);
  }
  return out;
}

/**
 * Check params with the tool's schema (ranges, choices, required fields, cross-field rules). The
 * error names the flag or argument the agent typed, not the wire name: `wait-timeout: …`.
 */
export function checkParams(spec: CommandSpec, filled: CommandLineParams): Record<string, unknown> {
  if (!isToolName(spec.tool)) throw new Error(`unknown tool ${spec.tool}`);
  const parsed = TOOLS[spec.tool].params.safeParse(filled.params);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const issue = parsed.error.issues[0];
  const param = String(issue?.path[0] ?? '');
  const field = param === '' ? 'command' : (filled.fields.get(param)?.replace(/^--/, '') ?? fieldOfParam(spec, param));
  const missing = param !== '' && filled.params[param] === undefined && spec.params.has(param);
  throw invalidArgument(field, missing ? requiredMessage(spec, param) : (issue?.message ?? 'invalid value'), filled.params[param]);
}

/**
 * A missing value says where it goes: the flag as typed (`-s, --selector <ref|css>`: an agent that wrote the value
 * as an argument sees where it goes), and the command's usage line.
 */
function requiredMessage(spec: CommandSpec, param: string): string {
  const flag = spec.flags.find((f) => f.param === param || f.otherwise === param);
  const usage = `(usage: \`${['chrome-relay', spec.cli.command, usageOf(spec)].filter(Boolean).join(' ')}\`)`;
  return flag === undefined || spec.positionals.some((p) => p.param === param) ? `is required ${usage}` : `is required: pass ${flag.spelling} ${usage}`;
}
