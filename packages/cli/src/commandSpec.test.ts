import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '@chrome-relay/protocol';
import { commandSpec, TOOL_COMMANDS } from './commandSpec.js';
import { OUTPUTS } from './outputs.js';

/** Flags every command already has: the program's, the target flags, help. */
const RESERVED = ['--profile', '--timeout', '--json', '--agent', '--tab', '--workspace', '--group', '--help', '--version'];

describe('every entry declares a command line that works', () => {
  it.each(TOOL_COMMANDS)('%s: params exist, flags are unique and collide with no program, target or output flag', (tool) => {
    const spec = commandSpec(tool);
    const output = new Command('x');
    OUTPUTS[spec.cli.output ?? 'json'].flags?.(output);
    const outputLongs = output.options.map((o) => o.long ?? '');
    const longs = spec.flags.map((f) => `--${f.field}`);
    expect(new Set(longs).size, longs.join(' ')).toBe(longs.length);
    for (const long of longs) {
      expect(RESERVED, long).not.toContain(long);
      expect(outputLongs, long).not.toContain(long);
    }
    // Every param is reachable from the command line (a positional, a flag, the budget or the envelope).
    const reachable = new Set([
      ...spec.positionals.map((p) => p.param),
      ...spec.flags.flatMap((f) => [f.param, ...(f.otherwise ? [f.otherwise] : []), ...Object.keys(f.also ?? {})]),
      ...(spec.cli.budget ? [spec.cli.budget] : []),
      ...spec.envelope,
    ]);
    for (const param of spec.params.keys()) expect(reachable.has(param), `${tool}.${param}`).toBe(true);
    // Only the last positional may take several values.
    expect(spec.positionals.slice(0, -1).some((p) => p.list)).toBe(false);
  });

  it('a new param becomes a flag by convention: camelCase → --kebab-case, its kind from the schema', () => {
    const spec = commandSpec('record_start');
    expect(spec.flags.find((f) => f.param === 'maxEdge')).toMatchObject({ spelling: '--max-edge <n>', takesValue: true, field: 'max-edge' });
    expect(commandSpec('console').flags.find((f) => f.param === 'clear')).toMatchObject({ spelling: '--clear', takesValue: false });
    expect(TOOLS.record_start.cli?.flags).toBeUndefined();
  });
});
