/**
 * The CLI's words in MCP terms, for the text a model reads from `chrome-relay mcp`: error messages and
 * param descriptions. Every message in chrome-relay says its move as a command line ("run
 * `chrome-relay snapshot --tab 12`"), written once where the failure is known (extension, host,
 * protocol). A model in an MCP client has tools, not a shell, so at this one edge each command line
 * of a tool this server serves becomes that tool with its arguments, read off the tool's own command
 * shape (commandSpec.ts), the same table the CLI parses with:
 *
 *   run `chrome-relay snapshot --tab 12`         → call `snapshot {"tab": 12}`
 *   `chrome-relay dialog accept|dismiss`         → `dialog {"action": "accept"|"dismiss"}`
 *   `chrome-relay type -s @e7 "text"`            → `type {"text": "text", "ref": "e7"}`
 *   pass --tab <id>, @e12                        → pass `tab` <id>, e12
 *
 * What it cannot read whole (a command that is no tool of this server, such as `chrome-relay doctor`,
 * an unknown flag) stays as written: a shell command is still the right move for the person, and a
 * half-translated call would be wrong. Text in double quotes (page content, values) is never touched.
 */
import { parseRef, REF_IN_TEXT, TOOLS, type ToolName } from '@chrome-relay/protocol';
import { commandSpec, isRefParam, type CommandSpec, type FlagSpec } from '../commandSpec.js';
import { PROGRAM_OPTIONS, spellingsOf, takesValue } from '../programOptions.js';

export interface WordsContext {
  /** The tools this server serves: only these become calls. */
  served: ReadonlySet<ToolName>;
  /** The tool the text is about (its flags are the ones a bare `--flag` names). */
  tool?: string | undefined;
}

/** Flags every command takes that fill a param of the same name (the call's target): the program's target options. */
const ENVELOPE_FLAGS: Readonly<Record<string, string>> = Object.fromEntries(
  PROGRAM_OPTIONS.filter((option) => option.target === true).flatMap((option) => spellingsOf(option.flags).filter((flag) => flag.startsWith('--')).map((flag) => [flag, flag.slice(2)])),
);
/** CLI-only flags that shape printing or files; a call has no such argument. Value flags take their value along. */
const OUTPUT_VALUE_FLAGS = new Set(['--out', '-o', '--fps', '--max-chars', '-d', '--depth', '--scope', '-s']);
const OUTPUT_FLAGS = new Set(['--json', '--gif', '--base64', '--urls', '-i', '--interactive', '--no-elide', '--diff']);
/** The program's options that take a value, as written before the command name: `chrome-relay --tab 5 close`. */
const GLOBAL_VALUE_FLAGS = new Set(PROGRAM_OPTIONS.filter((option) => takesValue(option.flags)).flatMap((option) => spellingsOf(option.flags)));

type Value = { kind: 'json'; value: unknown } | { kind: 'raw'; text: string };

/** `chrome-relay …` inside backticks → `tool {args}`, or null when it is not a call this server can make. */
function callOf(line: string, served: ReadonlySet<ToolName>): string | null {
  const tokens = tokenize(line);
  if (tokens === null || tokens[0] !== 'chrome-relay') return null;
  let at = 1;
  const args: [string, Value][] = [];
  const setArg = (param: string, value: Value): void => {
    const existing = args.findIndex(([name]) => name === param);
    if (existing === -1) args.push([param, value]);
    else args[existing] = [param, value];
  };
  while (tokens[at]?.startsWith('-') === true) {
    const flag = tokens[at] ?? '';
    if (!GLOBAL_VALUE_FLAGS.has(flag)) return null;
    const envelope = ENVELOPE_FLAGS[flag];
    if (envelope !== undefined && tokens[at + 1] !== undefined) setArg(envelope, valueOf(tokens[at + 1] ?? '', 'integer'));
    at += 2;
  }
  const tool = toolAt(tokens, at);
  if (tool === undefined || !served.has(tool.name)) return null;
  at += tool.words;
  const spec = commandSpec(tool.name);
  const positionals: string[] = [];
  let snapshot = false;
  while (at < tokens.length) {
    const token = tokens[at++] ?? '';
    if (!token.startsWith('-') || token === '-') {
      positionals.push(token);
      continue;
    }
    const flag = flagOf(spec, token);
    if (flag !== undefined) {
      const raw = flag.takesValue && flag.value === undefined ? tokens[at++] : undefined;
      if (flag.takesValue && flag.value === undefined && raw === undefined) setArg(flag.param, { kind: 'raw', text: '…' });
      else setArg(flag.param, raw === undefined ? { kind: 'json', value: flag.value ?? true } : valueOf(raw, flag.info.kind, isRefParam(flag.param)));
      for (const [param, value] of Object.entries(flag.also ?? {})) setArg(param, { kind: 'json', value });
      continue;
    }
    const envelope = ENVELOPE_FLAGS[token];
    if (envelope !== undefined) {
      const raw = tokens[at++];
      if (raw === undefined) return null;
      setArg(envelope, valueOf(raw, 'integer'));
    } else if (token === '--snapshot') snapshot = true;
    else if (token === '--timeout' && spec.cli.budget !== undefined) {
      const raw = tokens[at++];
      if (raw === undefined) return null;
      setArg(spec.cli.budget, valueOf(raw, 'integer'));
    } else if (OUTPUT_VALUE_FLAGS.has(token)) at++;
    else if (!OUTPUT_FLAGS.has(token)) return null;
  }
  const open = spec.positionals.filter((p) => !args.some(([name]) => name === p.param));
  for (const positional of open) {
    if (positionals.length === 0) break;
    const kind = positional.info.kind;
    const ref = isRefParam(positional.param);
    if (positional.list) setArg(positional.param, listOf(positionals.splice(0), kind, ref));
    else setArg(positional.param, valueOf(positionals.shift() ?? '', kind, ref));
  }
  if (positionals.length > 0) return null;
  if (snapshot) setArg('snapshot', { kind: 'json', value: true });
  if (args.length === 0) return tool.name;
  return `${tool.name} {${args.map(([name, value]) => `${JSON.stringify(name)}: ${render(value)}`).join(', ')}}`;
}

/** The served tool whose command path is exactly `words`. */
function namedTool(words: string, served: ReadonlySet<ToolName>): string | null {
  for (const name of served) if (TOOLS[name].cli?.command === words) return name;
  return null;
}

/** The tool whose command path (`group create`) the words at `at` start with, the longest one. */
function toolAt(tokens: readonly string[], at: number): { name: ToolName; words: number } | undefined {
  let best: { name: ToolName; words: number } | undefined;
  for (const name of Object.keys(TOOLS) as ToolName[]) {
    const path = TOOLS[name].cli?.command.split(' ');
    if (path === undefined || (best !== undefined && path.length <= best.words)) continue;
    if (path.every((word, i) => tokens[at + i] === word)) best = { name, words: path.length };
  }
  return best;
}

function flagOf(spec: CommandSpec, token: string): FlagSpec | undefined {
  return spec.flags.find((flag) => flag.spelling.split(/[ ,]+/).includes(token));
}

/** A placeholder (`<url>`, `<tab…>`, `DIR`) is kept as written; `a|b` lists alternatives. */
function valueOf(raw: string, kind: string, ref = false): Value {
  if (/^<[^>]*>$/.test(raw) || /^[A-Z]+$/.test(raw)) return { kind: 'raw', text: raw.startsWith('<') ? raw : `<${raw.toLowerCase()}>` };
  if (ref) {
    const parsed = raw.startsWith('@') ? parseRef(raw) : null;
    return parsed === null ? { kind: 'raw', text: '<ref>' } : { kind: 'json', value: parsed };
  }
  if ((kind === 'integer' || kind === 'number') && /^-?[0-9]+(\.[0-9]+)?$/.test(raw)) return { kind: 'json', value: Number(raw) };
  if (kind === 'enum' && /^[\w-]+(\|[\w-]+)+$/.test(raw)) return { kind: 'raw', text: raw.split('|').map((v) => JSON.stringify(v)).join('|') };
  return { kind: 'json', value: raw };
}

function listOf(raws: readonly string[], kind: string, ref: boolean): Value {
  const values = raws.map((raw) => valueOf(raw, kind, ref));
  if (values.length === 1 && values[0]?.kind === 'raw' && /…|\.\.\.|s>$/.test(values[0].text)) return values[0];
  return { kind: 'raw', text: `[${values.map(render).join(', ')}]` };
}

function render(value: Value): string {
  return value.kind === 'raw' ? value.text : JSON.stringify(value.value);
}

/** Words of a command line, with "double quoted" ones unquoted; null when a quoted one is not a string literal. */
function tokenize(line: string): string[] | null {
  const tokens: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (let match = pattern.exec(line); match !== null; match = pattern.exec(line)) {
    if (match[1] !== undefined) {
      try {
        tokens.push(JSON.parse(`"${match[1]}"`) as string);
      } catch {
        return null;
      }
    } else tokens.push(match[2] ?? '');
  }
  return tokens;
}

/** A bare `--flag` outside backticks → the param it fills, for this tool or any call. */
function paramOfFlag(flag: string, context: WordsContext): string | undefined {
  const envelope = ENVELOPE_FLAGS[flag];
  if (envelope !== undefined) return envelope;
  if (flag === '--snapshot') return 'snapshot';
  const tool = context.tool;
  if (tool === undefined || !Object.prototype.hasOwnProperty.call(TOOLS, tool)) return undefined;
  const name = tool as ToolName;
  if (TOOLS[name].cli === undefined) return undefined;
  const spec = commandSpec(name);
  if (flag === '--timeout') return spec.cli.budget;
  return flagOf(spec, flag)?.param;
}

/** Plain text (outside quotes and backticks). */
function plainWords(text: string, context: WordsContext): string {
  return (
    text
      // The CLI's spelling of refs, explained where it matters only to a shell.
      .replace(/\s*\([^()]*on the command line\)/g, '')
      .replace(REF_IN_TEXT, '$1$2')
      .replace(/(^|[\s(])(--[a-z][a-z-]*)/g, (whole, before: string, flag: string) => {
        const param = paramOfFlag(flag, context);
        return param === undefined ? whole : `${before}\`${param}\``;
      })
  );
}

/** The end (exclusive) of the JSON-style string literal opening at `start`. */
function endOfQuoted(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/**
 * `text` with every command line of a served tool as a call and every CLI spelling as its MCP one. `commandsOnly`
 * (a result's text) turns the command lines alone: the rest is the CLI's text as it is, refs with their `@` (MCP
 * takes them either way), so a model reads what a shell agent reads.
 */
export function mcpWords(text: string, context: WordsContext, commandsOnly = false): string {
  let out = '';
  let plain = '';
  const flush = (): void => {
    out += commandsOnly ? plain : plainWords(plain, context);
    plain = '';
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '"') {
      const end = endOfQuoted(text, i);
      flush();
      out += text.slice(i, end);
      i = end;
    } else if (c === '`') {
      const close = text.indexOf('`', i + 1);
      if (close === -1) {
        plain += text.slice(i);
        break;
      }
      const inner = text.slice(i + 1, close);
      // A tool named by its command words (`record stop`, as messages name the tool they are about) is its name here.
      const call = callOf(inner, context.served) ?? namedTool(inner, context.served);
      flush();
      if (call === null) out += text.slice(i, close + 1);
      else {
        // "run `chrome-relay tabs`" → "call `tabs`": the verb of a shell, then the verb of a tool.
        out = out.replace(/\b([Rr])un $/, (_whole, r: string) => (r === 'R' ? 'Call ' : 'call '));
        out += `\`${call}\``;
      }
      i = close + 1;
    } else {
      plain += c;
      i++;
    }
  }
  flush();
  return out;
}
