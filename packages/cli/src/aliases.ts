/**
 * Deprecated command names kept working for older agent prompts, and kept out of --help (a new user
 * should not learn them): `read` and `ax` print a snapshot (text / JSON), `click-ax <ref>` clicks a
 * ref. Each prints the `deprecated` notice on stderr
 * naming the replacement, then behaves exactly like it (same tool, same output, and the same
 * --tab/--workspace/--group in either position, through callTarget.ts).
 */
import type { Command } from 'commander';
import type { Notice } from '@chrome-relay/protocol';
import { parseRefArg } from './args.js';
import { commandLineOf, targetOptions, targeted } from './callTarget.js';
import { printJson, printNotice, printText } from './output.js';
import { actionText, present } from './present.js';
import { snapshotText } from './renderSnapshot.js';
import { runTool } from './runTool.js';

function deprecatedNotice(alias: string, replacement: string): Notice {
  return { notice: 'deprecated', message: `\`${alias}\` is deprecated; use \`${replacement}\` (same result).` };
}

export function registerAliases(program: Command): void {
  const snapshotAlias = (alias: string, json: boolean): void => {
    targetOptions(program.command(alias, { hidden: true }))
      .description(`Deprecated: use \`snapshot${json ? ' --json' : ''}\`.`)
      .action(async (_opts: unknown, cmd: Command) => {
        printNotice(deprecatedNotice(alias, `snapshot${json ? ' --json' : ''}`));
        const { globals, tab } = targeted(commandLineOf(cmd));
        const result = await runTool('snapshot', { tab }, globals);
        if (json || globals.json) printJson(result);
        else printText(snapshotText(result));
      });
  };
  snapshotAlias('read', false);
  snapshotAlias('ax', true);

  targetOptions(program.command('click-ax', { hidden: true }))
    .description('Deprecated: use `click @ref`.')
    .argument('<ref>', 'element ref from snapshot, e.g. @e12')
    .action(async (ref: string, _opts: unknown, cmd: Command) => {
      printNotice(deprecatedNotice('click-ax', 'click @ref'));
      const { globals, tab } = targeted(commandLineOf(cmd));
      const result = await runTool('click', { ref: parseRefArg(ref), tab }, globals);
      present(result, globals.json, () => actionText('click', result) ?? '');
    });
}
