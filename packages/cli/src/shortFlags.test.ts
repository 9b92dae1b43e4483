/**
 * One meaning per short flag, across every command of the CLI: each letter any command accepts is in protocol
 * SHORT_FLAGS, goes with one of the long names the table allows, and a letter that names an element fills a ref
 * param (a ref, or a ref or a CSS selector). Read off the commander declarations themselves, so a flag added
 * to an entry, an output kind or a hand-written command is held to the table the day it is written.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { SHORT_FLAGS, TOOLS } from '@chrome-relay/protocol';
import { commandSpec, isRefParam, TOOL_COMMANDS } from './commandSpec.js';
import { buildProgram, HAND_WRITTEN } from './program.js';

interface Declared {
  command: string;
  short: string;
  long: string | undefined;
  /** The tool command it belongs to, when it is one (for the element check). */
  tool?: (typeof TOOL_COMMANDS)[number];
}

function declaredIn(cmd: Command, path: string, tool?: Declared['tool']): Declared[] {
  return cmd.options.filter((o) => o.short !== undefined).map((o) => ({ command: path, short: o.short ?? '', long: o.long, ...(tool === undefined ? {} : { tool }) }));
}

/** Every short flag of every command, as commander declares it when that command runs. */
function everyShortFlag(): Declared[] {
  const out: Declared[] = declaredIn(buildProgram([]), '(program)');
  for (const tool of TOOL_COMMANDS) {
    const path = TOOLS[tool].cli?.command.split(' ') ?? [];
    let at: Command | undefined = buildProgram(['node', 'chrome-relay', ...path]);
    for (const word of path) at = at?.commands.find((c) => c.name() === word);
    if (at === undefined) throw new Error(`no command for ${tool}`);
    out.push(...declaredIn(at, path.join(' '), tool));
  }
  const visit = (cmd: Command, path: string): void => {
    out.push(...declaredIn(cmd, path));
    for (const sub of cmd.commands) visit(sub, `${path} ${sub.name()}`);
  };
  const all = buildProgram(['node', 'chrome-relay', '--help']);
  const handWritten = new Set(HAND_WRITTEN.flatMap((m) => m.names));
  for (const cmd of all.commands) if (handWritten.has(cmd.name())) visit(cmd, cmd.name());
  return out;
}

describe('short flags: one meaning per letter', () => {
  const flags = everyShortFlag();

  it('every letter a command accepts is in the table, with one of its long names', () => {
    expect(flags.length).toBeGreaterThan(10);
    for (const flag of flags) {
      const meaning = SHORT_FLAGS[flag.short];
      expect(meaning, `${flag.command}: ${flag.short} (${flag.long ?? ''}) is not in SHORT_FLAGS`).toBeDefined();
      expect(meaning?.longs, `${flag.command}: ${flag.short} goes with ${flag.long ?? 'no long name'}`).toContain(flag.long);
    }
  });

  it('a letter that names an element fills a ref param on every command that has it (a ref, or a ref or a CSS selector)', () => {
    const element = flags.filter((flag) => SHORT_FLAGS[flag.short]?.element === true);
    expect(element.map((f) => f.command).sort()).toEqual(['get', 'snapshot', 'type']);
    for (const flag of element) {
      if (flag.tool === undefined) throw new Error(`${flag.command}: ${flag.short} names an element on a command that is no tool`);
      const declared = commandSpec(flag.tool).flags.find((f) => f.spelling.startsWith(`${flag.short}, `));
      expect(declared, `${flag.command} ${flag.short}`).toBeDefined();
      expect(isRefParam(declared?.param ?? ''), `${flag.command} ${flag.short} fills ${declared?.param ?? '?'}`).toBe(true);
    }
  });

  it('an action’s --snapshot keeps -i and -d, and scopes with --scope only: -s is never the snapshot’s scope there', () => {
    const click = flags.filter((flag) => flag.command === 'click').map((flag) => flag.short);
    expect(click).toEqual(expect.arrayContaining(['-i', '-d']));
    expect(click).not.toContain('-s');
  });
});
