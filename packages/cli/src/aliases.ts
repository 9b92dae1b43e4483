/**
 * Deprecated command names kept working for older agent prompts: `read` and `ax` print a snapshot
 * (text / JSON), `click-ax <ref>` clicks a ref. Each prints the `deprecated` notice on stderr
 * naming the replacement, then behaves exactly like it (same tool, same output).
 */
import type { Command } from 'commander';
import type { Notice } from '@chrome-relay/protocol';
import { parseRefArg, parseTab } from './args.js';
import { resolveGlobals } from './globalOptions.js';
import { printJson, printNotice, printText } from './output.js';
import { renderSnapshot, renderSnapshotHeader } from './renderSnapshot.js';
import { runTool } from './runTool.js';

export function deprecatedNotice(alias: string, replacement: string): Notice {
  return { notice: 'deprecated', message: `\`${alias}\` is deprecated; use \`${replacement}\` (same result).` };
}

export function registerAliases(program: Command): void {
  const snapshotAlias = (alias: string, json: boolean): void => {
    program
      .command(alias)
      .description(`Deprecated: use \`snapshot${json ? ' --json' : ''}\`.`)
      .option('--tab <id>', 'tab to snapshot', parseTab)
      .action(async (opts: { tab?: number }, cmd: Command) => {
        printNotice(deprecatedNotice(alias, `snapshot${json ? ' --json' : ''}`));
        const globals = resolveGlobals(cmd.optsWithGlobals());
        const result = await runTool('snapshot', { tab: opts.tab }, globals);
        if (json || globals.json) printJson(result);
        else printText(`${renderSnapshotHeader(result)}\n${renderSnapshot(result.tree)}`);
      });
  };
  snapshotAlias('read', false);
  snapshotAlias('ax', true);

  program
    .command('click-ax')
    .description('Deprecated: use `click @ref`.')
    .argument('<ref>', 'element ref from snapshot, e.g. @e12')
    .option('--tab <id>', 'cross-check: the tab the ref belongs to', parseTab)
    .action(async (ref: string, opts: { tab?: number }, cmd: Command) => {
      printNotice(deprecatedNotice('click-ax', 'click @ref'));
      printJson(await runTool('click', { ref: parseRefArg(ref), tab: opts.tab }, resolveGlobals(cmd.optsWithGlobals())));
    });
}
