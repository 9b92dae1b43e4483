import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '@chrome-relay/protocol';
import { TOOL_COMMANDS } from './commandSpec.js';
import { buildProgram, commandNameOf, HAND_WRITTEN, toolCommandOf, toolOf } from './program.js';

const argv = (...args: string[]): string[] => ['node', 'chrome-relay', ...args];

describe('lazy command registration', () => {
  it('the hand-written table lists exactly the commands each module registers', () => {
    for (const module of HAND_WRITTEN) {
      const program = new Command('t');
      module.register(program);
      expect(program.commands.map((c) => c.name()).sort()).toEqual([...module.names].sort());
    }
  });

  it('no hand-written command shadows a tool command', () => {
    const toolWords = new Set(TOOL_COMMANDS.map((tool) => TOOLS[tool].cli?.command.split(' ')[0]));
    for (const name of HAND_WRITTEN.flatMap((m) => m.names)) expect(toolWords.has(name), name).toBe(false);
  });

  it("skips the value of every program option commander knows, however spelled: argv's scan reads the program's own table", () => {
    const program = buildProgram(argv('tabs'));
    const valued = program.options.filter((option) => option.required || option.optional);
    expect(valued.map((option) => option.long)).toContain('--endpoint');
    for (const option of valued) {
      for (const flag of [option.short, option.long].filter((spelling): spelling is string => spelling !== undefined)) {
        expect(commandNameOf(argv(flag, 'tabs', 'snapshot')), flag).toBe('snapshot');
      }
    }
    for (const option of program.options.filter((o) => !o.required && !o.optional && o.long !== '--version')) {
      expect(commandNameOf(argv(option.long ?? '', 'tabs')), option.long).toBe('tabs');
    }
  });

  it('finds the command name after program-level options, skipping their values', () => {
    expect(commandNameOf(argv('--tab', '12', '--json', 'click', '@e1'))).toBe('click');
    expect(commandNameOf(argv('--profile', '/p', 'doctor'))).toBe('doctor');
    expect(commandNameOf(argv('--version'))).toBeUndefined();
  });

  it('finds the tool command of a group by its longest path', () => {
    expect(toolCommandOf(argv('network', 'body', '12'))).toBe('network_body');
    expect(toolCommandOf(argv('network', '--url', 'api'))).toBe('network');
    expect(toolCommandOf(argv('--json', 'record', 'stop', '--out', 'x'))).toBe('record_stop');
    expect(toolCommandOf(argv('help', 'lease', 'claim'))).toBe('lease_claim');
    expect(toolCommandOf(argv('lease'))).toBeUndefined();
  });

  it('names the tool of an error block even when options come first, group commands by their protocol tool', () => {
    expect(toolOf(argv('--tab', '5', 'click', '--x', '5'))).toBe('click');
    expect(toolOf(argv('--json', 'record', 'stop', '--out', '/x'))).toBe('record_stop');
    expect(toolOf(argv('network', 'har', '-o', 'x.har'))).toBe('network_har');
    expect(toolOf(argv('network', '--url', 'api'))).toBe('network');
    expect(toolOf(argv('lease'))).toBe('lease');
    expect(toolOf(argv('--tab', '5'))).toBe('');
  });

  it('declares only the running command in full, and every command by name for help or an unknown one', () => {
    const click = buildProgram(argv('click', '@e1'));
    expect(click.commands.map((c) => c.name())).toEqual(['click']);
    expect(click.commands[0]?.options.map((o) => o.long)).toContain('--double');
    const lease = buildProgram(argv('lease', 'claim'));
    const claim = lease.commands[0]?.commands.find((c) => c.name() === 'claim');
    expect(claim?.options.map((o) => o.long)).toContain('--ttl');
    expect(lease.commands[0]?.commands.find((c) => c.name() === 'list')?.options).toEqual([]);
    const everything = new Set([...TOOL_COMMANDS.map((t) => TOOLS[t].cli?.command.split(' ')[0]), ...HAND_WRITTEN.flatMap((m) => m.names)]);
    expect(buildProgram(argv('--help')).commands).toHaveLength(everything.size);
    expect(buildProgram(argv('clik')).commands).toHaveLength(everything.size);
  });

  it('--help lists no deprecated command, and each is still registered', () => {
    const program = buildProgram(argv('--help'));
    const help = program.helpInformation();
    for (const alias of ['read', 'ax', 'click-ax']) {
      expect(help).not.toMatch(new RegExp(`^  ${alias}\\b`, 'm'));
      expect(buildProgram(argv(alias)).commands.map((c) => c.name())).toContain(alias);
    }
    expect(help).toMatch(/^ {2}snapshot\b/m);
  });

  it('--help lists the commands in groups, launch first, each on a short line', () => {
    const help = buildProgram(argv('--help')).helpInformation();
    const headings = help.split('\n').filter((line) => /^[A-Z].*:$/.test(line));
    expect(headings.slice(0, 3)).toEqual(['Options:', 'Start here:', 'Read the page:']);
    const commands = help.split('\n').filter((line) => /^ {2}[a-z]/.test(line)).map((line) => line.trim().split(/\s/)[0]);
    expect(commands.slice(0, 2)).toEqual(['launch', 'stop']);
    expect(commands.indexOf('batch')).toBeGreaterThan(commands.indexOf('click'));
    expect(help.split('\n').length).toBeLessThan(110);
  });
});
