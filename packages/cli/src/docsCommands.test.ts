/**
 * Every command line a doc or the playbook shows goes through the real program parser: README.md,
 * SKILL.md, AGENTS.md, docs/*.md and each command's --help examples. So no doc can name a command that
 * does not exist, or a flag it does not take, or a value its schema refuses. Tool commands are parsed,
 * mapped and checked by their schema, then stop (validateOnly: no file, no call); hand-written commands
 * stop right before their action.
 *
 * Lines in code blocks and examples must be complete commands. A command named in prose (`run
 * \`chrome-relay wait --selector\``) must exist with those flags but may leave values out. A syntax
 * line (`chrome-relay fill <ref> <value>`) must be the registry's own syntax of a command.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RelayError, TOOLS } from '@chrome-relay/protocol';
import { TOOL_COMMANDS } from './commandSpec.js';
import { buildProgram, HAND_WRITTEN } from './program.js';
import { commandSyntax, renderSkill } from './skill.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Placeholders in syntax lines → sample values (`[optional]` ones are left out). */
const SAMPLES: Readonly<Record<string, string>> = {
  url: 'https://example.com',
  tabId: '123',
  id: '123',
  tabs: '123',
  ref: '@e1',
  element: '@e1',
  from: '@e1',
  to: '@e2',
  name: 'n1',
  keys: 'Enter',
  text: 'hello',
  value: 'v',
  expression: '1',
  options: 'a',
  what: 'title',
  action: 'accept',
  files: '/etc/hostname',
  direction: 'down',
  px: '10',
};

/** Split a shell line into words (quotes, no expansions); null when it is not a plain command. */
function shellWords(line: string): string[] | null {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) current += line[++i] ?? '';
      else current += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === '#' && !started) break;
    else if (/\s/.test(c)) {
      if (started) words.push(current);
      current = '';
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (quote) return null;
  if (started) words.push(current);
  return words;
}

/** The chrome-relay commands of a shell line: each part of a pipeline, && chain or background job, placeholders filled. */
function commandsOf(line: string): string[][] {
  return line
    .split(/\s*(?:&&|\|\||\||;|&(?=\s|$))\s*/)
    .map((part) => part.replace(/^\$\s+/, '').replace(/\s+(?:>|2>)\s*\S+$/, '').trim())
    .filter((part) => part.startsWith('chrome-relay ') || part === 'chrome-relay')
    .map((part) =>
      part
        .replace(/\s\[[^\]\s]+\]/g, '')
        .replace(/--tab <[A-Za-z]+>/g, '--tab 123')
        .replace(/--extension-id <id>/g, '--extension-id abcdefghijklmnopabcdefghijklmnop')
        .replace(/<([A-Za-z]+)(?:\.\.\.)?>/g, (_m, name: string) => SAMPLES[name] ?? `<${name}>`),
    )
    .map((part) => shellWords(part))
    .filter((words): words is string[] => words !== null)
    .map((words) => words.slice(1));
}

/** Command lines shown in a markdown text: code spans (`mention`) and code-block lines that start with chrome-relay. */
function shownCommands(markdown: string): string[] {
  return shownLines(markdown).map((l) => l.line);
}

interface ShownLine {
  line: string;
  /** Named in prose: must exist with its flags, values may be left out. */
  mention: boolean;
}

function shownLines(markdown: string): ShownLine[] {
  const lines: ShownLine[] = [];
  let inBlock = false;
  for (const raw of markdown.split('\n')) {
    if (raw.trim().startsWith('```')) {
      inBlock = !inBlock;
      continue;
    }
    if (inBlock) {
      const line = raw.trim().replace(/^\$\s+/, '');
      if (/^(echo .*\|\s*)?chrome-relay(\s|$)/.test(line)) lines.push({ line, mention: false });
      continue;
    }
    for (const match of raw.matchAll(/`([^`]+)`/g)) {
      const span = match[1] ?? '';
      if (/^chrome-relay\s/.test(span) && !span.includes('<command>')) lines.push({ line: span, mention: true });
    }
  }
  return lines;
}

class DryRun extends Error {}

const handWritten = new Set(HAND_WRITTEN.flatMap((m) => m.names));

/** What a mention may leave out: values (the command and its flags must exist). */
const MISSING_VALUE = /is required|required option .* not specified|argument missing|got none|needs an agent identity|identity \(--agent/;

/** Parse one command line for real; returns why it does not parse, or null. */
async function problemOf(args: readonly string[], mention = false): Promise<string | null> {
  const argv = ['node', 'chrome-relay', ...args];
  const program = buildProgram(argv, { validateOnly: true });
  program.hook('preAction', (_program, action) => {
    let top = action;
    while (top.parent && top.parent !== program) top = top.parent;
    if (handWritten.has(top.name())) throw new DryRun();
  });
  // --help and --version print; keep them off the test output.
  program.configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  try {
    await program.parseAsync(argv);
    return null;
  } catch (error) {
    if (error instanceof DryRun) return null;
    const code = (error as { code?: unknown }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || (code === 'commander.help' && (error as { exitCode?: number }).exitCode === 0)) return null;
    // A path that exists on the writer's machine (./photo.png, ./downloads) is not the doc's mistake.
    if (error instanceof RelayError && /does not exist/.test(error.message) && ['files', 'dir'].includes(String(error.details.field))) return null;
    const message = error instanceof Error ? error.message : String(error);
    return mention && MISSING_VALUE.test(message) ? null : message;
  }
}

/** The registry's own syntax lines (`chrome-relay fill <ref> <value>`): they exist by construction. */
const SYNTAX = new Set(TOOL_COMMANDS.map((tool) => commandSyntax(tool)));

async function problemsOf(lines: readonly ShownLine[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { line, mention } of lines) {
    if (SYNTAX.has(line)) continue;
    for (const args of commandsOf(line)) {
      const problem = await problemOf(args, mention);
      if (problem !== null) problems.push(`${line}\n    → ${problem}`);
    }
  }
  return problems;
}

function docFiles(): [string, string][] {
  const docs = readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));
  return ['README.md', 'SKILL.md', 'AGENTS.md', 'CONTRIBUTING.md', ...docs].map((f) => [f, readFileSync(join(repo, f), 'utf8')]);
}

describe('every command line the docs show parses', () => {
  it('finds the command lines of markdown and shell lines', () => {
    expect(shownCommands('run `chrome-relay click @e1` then\n```sh\n$ chrome-relay snapshot -i   # refs\necho \'[]\' | chrome-relay batch\n```\n')).toEqual([
      'chrome-relay click @e1',
      'chrome-relay snapshot -i   # refs',
      "echo '[]' | chrome-relay batch",
    ]);
    expect(commandsOf('chrome-relay fill <ref> <value> && chrome-relay get <what> [attribute]')).toEqual([['fill', '@e1', 'v'], ['get', 'title']]);
    expect(commandsOf('chrome-relay js "a b" > out.json')).toEqual([['js', 'a b']]);
  });

  it('a command that does not exist does not parse (the test can fail)', async () => {
    expect(await problemOf(['group_create', 'g', '1'])).toMatch(/unknown command/);
    expect(await problemOf(['click', '@e1', '--triple-click'])).toMatch(/unknown option/);
    expect(await problemOf(['navigate', 'https://example.com', '--wait-timeout', '300000'])).toMatch(/120000/);
  });

  it.each(docFiles())('%s', async (_file, text) => {
    expect(await problemsOf(shownLines(text))).toEqual([]);
  });

  it('the playbook `chrome-relay skill` prints, and every --help example (complete commands)', async () => {
    const examples = TOOL_COMMANDS.flatMap((tool) => TOOLS[tool].cli?.examples ?? []).map((line) => ({ line, mention: false }));
    expect(await problemsOf([...shownLines(renderSkill()), ...examples])).toEqual([]);
  });

  it('a mention may leave a value out, an example may not', async () => {
    expect(await problemOf(['wait'], true)).toBeNull();
    expect(await problemOf(['wait'], false)).toMatch(/condition/);
    expect(await problemOf(['wait', '--bogus'], true)).toMatch(/unknown option/);
  });
});
