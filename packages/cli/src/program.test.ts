import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, commandNameOf, COMMAND_GROUPS, toolOf } from './program.js';

const argv = (...args: string[]): string[] => ['node', 'chrome-relay', ...args];

describe('lazy command registration', () => {
  it('the group table lists exactly the commands each group registers', () => {
    for (const group of COMMAND_GROUPS) {
      const program = new Command('t');
      group.register(program);
      expect(program.commands.map((c) => c.name()).sort()).toEqual([...group.names].sort());
    }
  });

  it('finds the command name after program-level options, skipping their values', () => {
    expect(commandNameOf(argv('--tab', '12', '--json', 'click', '@e1'))).toBe('click');
    expect(commandNameOf(argv('--profile', '/p', 'doctor'))).toBe('doctor');
    expect(commandNameOf(argv('--version'))).toBeUndefined();
  });

  it('names the tool of an error block even when options come first, group commands by their protocol tool', () => {
    expect(toolOf(argv('--tab', '5', 'click', '--x', '5'))).toBe('click');
    expect(toolOf(argv('--json', 'record', 'stop', '--out', '/x'))).toBe('record_stop');
    expect(toolOf(argv('network', 'har', '-o', 'x.har'))).toBe('network_har');
    expect(toolOf(argv('network', '--url', 'api'))).toBe('network');
    expect(toolOf(argv('lease'))).toBe('lease');
    expect(toolOf(argv('--tab', '5'))).toBe('');
  });

  it('registers only the needed group, and everything for help or an unknown command', () => {
    expect(buildProgram(argv('click', '@e1')).commands.map((c) => c.name()).sort()).toEqual(['click', 'navigate', 'snapshot', 'status', 'tabs']);
    const all = COMMAND_GROUPS.flatMap((g) => g.names).length;
    expect(buildProgram(argv('--help')).commands).toHaveLength(all);
    expect(buildProgram(argv('clik')).commands).toHaveLength(all);
  });
});
