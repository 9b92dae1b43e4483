/**
 * A tool command's command line, worked out from its entry (protocol cliShape.ts) and the kinds of its
 * params (protocol paramKinds.ts): which positionals fill which params, and every flag — declared on
 * the entry, or by convention one per remaining param (camelCase → --kebab-case). Built for the one
 * command that runs (and for docs), never for all of them at start-up.
 */
import {
  argUsage,
  ENVELOPE_PARAMS,
  flagNameOf,
  paramInfos,
  REF_PARAMS,
  tabUseOf,
  TOOL_NAMES,
  TOOLS,
  type CliArg,
  type CliParser,
  type CliShape,
  type ParamInfo,
  type TabUse,
  type ToolName,
} from '@chrome-relay/protocol';

/**
 * Set by scripts/build.mjs: every tool's param infos, worked out from the entries at build time, so
 * that the CLI builds no zod schema (and loads no zod) to declare the command it runs. Absent when
 * the sources run unbundled (tests, docs): then they are read from the schemas.
 */
declare const __CLI_PARAM_INFOS__: string | undefined;
/** JSON text rather than an object literal: parsed when a command needs it, it costs a start-up less than compiling it. */
let builtParamInfos: Readonly<Record<string, readonly ParamInfo[] | undefined>> | undefined;

/** The params of a tool's schema, as the command line sees them. */
function paramInfosOf(tool: ToolName): readonly ParamInfo[] {
  if (typeof __CLI_PARAM_INFOS__ !== 'undefined') builtParamInfos ??= JSON.parse(__CLI_PARAM_INFOS__) as Record<string, readonly ParamInfo[]>;
  return builtParamInfos?.[tool] ?? paramInfos(TOOLS[tool].params);
}

export interface PositionalSpec {
  readonly param: string;
  /** Usage label and error field. */
  readonly label: string;
  /** Whether the command line may leave it out (the schema may still require it). */
  readonly optional: boolean;
  readonly list: boolean;
  readonly info: ParamInfo;
  readonly help: string;
  readonly parse?: CliParser | undefined;
}

export interface FlagSpec {
  /** Commander spelling with its value placeholder: `-s, --target <ref>`. */
  readonly spelling: string;
  /** The long name without dashes, as errors name it: `wait-timeout`, `no-elide`. */
  readonly field: string;
  /** Commander's attribute for it: `waitTimeout`, `elide` (for --no-elide). */
  readonly attribute: string;
  readonly negate: boolean;
  readonly takesValue: boolean;
  /** An array param given by repeating the flag. */
  readonly repeatable: boolean;
  readonly param: string;
  readonly info: ParamInfo;
  readonly value?: string | number | boolean | undefined;
  readonly also?: Readonly<Record<string, string | number | boolean>> | undefined;
  readonly parse?: CliParser | undefined;
  readonly otherwise?: string | undefined;
  readonly help: string;
}

export interface CommandSpec {
  readonly tool: ToolName;
  readonly cli: CliShape;
  readonly params: ReadonlyMap<string, ParamInfo>;
  readonly positionals: readonly PositionalSpec[];
  readonly flags: readonly FlagSpec[];
  /** Which of tab, workspace, group, agent the tool's params have (filled from the envelope flags). */
  readonly envelope: ReadonlySet<string>;
  /** How the tool uses tabs (protocol tabUseOf). */
  readonly tabUse: TabUse;
}

/** Tool commands, in registry order (internal tools have none). */
export const TOOL_COMMANDS: readonly ToolName[] = TOOL_NAMES.filter((name) => TOOLS[name].cli !== undefined);

const isEnvelope = (param: string): boolean => (ENVELOPE_PARAMS as readonly string[]).includes(param);
export const isRefParam = (param: string): boolean => (REF_PARAMS as readonly string[]).includes(param);

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

function placeholderOf(info: ParamInfo, declared: string | undefined): string {
  if (declared) return declared;
  if (info.name.endsWith('Ms')) return '<ms>';
  if (info.kind === 'integer' || info.kind === 'number') return '<n>';
  return `<${flagNameOf(info.name).slice(2)}>`;
}

function helpOf(info: ParamInfo, declared: string | undefined): string {
  const text = declared ?? info.description;
  if (info.kind !== 'enum' || !info.choices || info.choices.every((c) => text.includes(c))) return text;
  return `${text} (${info.choices.join(' | ')})`;
}

function positional(arg: CliArg, info: ParamInfo): PositionalSpec {
  return {
    param: arg.param,
    label: arg.label ?? arg.param,
    optional: arg.optional === true || info.optional,
    list: info.list,
    info,
    help: arg.help ?? info.description,
    parse: arg.parse,
  };
}

export function commandSpec(tool: ToolName): CommandSpec {
  const entry = TOOLS[tool];
  const cli = entry.cli;
  if (cli === undefined) throw new Error(`${tool} is internal: it has no command`);
  const infos = new Map(paramInfosOf(tool).map((info) => [info.name, info]));
  const infoOf = (param: string): ParamInfo => {
    const info = infos.get(param);
    if (info === undefined) throw new Error(`${tool}: the command line names param "${param}", which the schema does not have`);
    return info;
  };

  const positionals = (cli.args ?? []).map((arg) => positional(arg, infoOf(arg.param)));
  const filled = new Set<string>([...positionals.map((p) => p.param), ...(cli.budget ? [cli.budget] : [])]);
  const flags: FlagSpec[] = [];
  for (const declared of cli.flags ?? []) {
    const info = infoOf(declared.param);
    const long = declared.flag.split(/[ ,]+/).find((part) => part.startsWith('--')) ?? declared.flag;
    const negate = long.startsWith('--no-');
    const takesValue = declared.value === undefined && info.kind !== 'boolean';
    const repeatable = takesValue && info.list && declared.parse === undefined;
    flags.push({
      spelling: takesValue ? `${declared.flag} ${placeholderOf(info, declared.placeholder ?? (isRefParam(declared.param) ? '<ref>' : undefined))}` : declared.flag,
      field: long.slice(2),
      attribute: camel(negate ? long.slice(5) : long.slice(2)),
      negate,
      takesValue,
      repeatable,
      param: declared.param,
      info,
      value: declared.value,
      also: declared.also,
      parse: declared.parse,
      otherwise: declared.otherwise,
      help: helpOf(info, declared.help),
    });
    filled.add(declared.param);
    if (declared.otherwise) filled.add(declared.otherwise);
    for (const key of Object.keys(declared.also ?? {})) filled.add(key);
  }
  for (const info of infos.values()) {
    if (filled.has(info.name) || isEnvelope(info.name)) continue;
    const long = flagNameOf(info.name);
    const takesValue = info.kind !== 'boolean';
    flags.push({
      spelling: takesValue ? `${long} ${placeholderOf(info, isRefParam(info.name) ? '<ref>' : undefined)}` : long,
      field: long.slice(2),
      attribute: camel(long.slice(2)),
      negate: false,
      takesValue,
      repeatable: takesValue && info.list,
      param: info.name,
      info,
      help: helpOf(info, undefined),
    });
  }
  const envelope = new Set([...infos.keys()].filter(isEnvelope));
  return { tool, cli, params: infos, positionals, flags, envelope, tabUse: tabUseOf(tool, [...infos.keys()]) };
}

/** `group create <name> <tabs...>`: the usage line of the command's arguments. */
export function usageOf(spec: CommandSpec): string {
  return spec.positionals.map(argUsage).join(' ');
}

/** The field an error names for a param: the argument or flag that fills it. */
export function fieldOfParam(spec: CommandSpec, param: string): string {
  const positionalSpec = spec.positionals.find((p) => p.param === param);
  if (positionalSpec) return positionalSpec.label;
  const flag = spec.flags.find((f) => f.param === param || f.otherwise === param);
  return flag?.field ?? param;
}
