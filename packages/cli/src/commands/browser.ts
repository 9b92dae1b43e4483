/** Commands that act in the browser: each maps flags 1:1 onto a protocol tool and prints its result. */
import type { Command } from 'commander';
import { RelayError } from '@chrome-relay/protocol';
import { parseChoice, parseNumberArg, parseRefArg, parseTab, parseTimeout } from '../args.js';
import { resolveGlobals } from '../globalOptions.js';
import { printJson, printText } from '../output.js';
import { renderSnapshot } from '../renderSnapshot.js';
import { runTool } from '../runTool.js';

type Opts = Record<string, unknown>;
const globalsOf = (cmd: Command) => resolveGlobals(cmd.optsWithGlobals());
const example = (...lines: string[]): string => `\nExample:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

export function registerBrowserCommands(program: Command): void {
  program
    .command('tabs')
    .description('List windows and tabs (ids for --tab).')
    .addHelpText('after', example('chrome-relay tabs'))
    .action(async (_opts: Opts, cmd: Command) => {
      printJson(await runTool('tabs', {}, globalsOf(cmd)));
    });

  program
    .command('navigate')
    .description('Open a URL in a new background tab (or --tab) and wait for the real document.')
    .argument('<url>', 'absolute URL')
    .option('--tab <id>', 'navigate this tab instead of opening a new one', parseTab)
    .option('--wait <until>', 'commit | domcontentloaded | load | none (default load)', parseChoice('wait', ['commit', 'domcontentloaded', 'load', 'none'] as const))
    .option('--wait-timeout <ms>', 'how long to wait for readiness before answering ready:false', parseTimeout)
    .addHelpText('after', example('chrome-relay navigate https://example.com', 'chrome-relay navigate https://example.com --tab 123 --wait domcontentloaded'))
    .action(async (url: string, opts: Opts, cmd: Command) => {
      const globals = globalsOf(cmd);
      printJson(
        await runTool('navigate', {
          url,
          tab: opts.tab as number | undefined,
          wait: opts.wait as 'commit' | 'domcontentloaded' | 'load' | 'none' | undefined,
          timeoutMs: (opts.waitTimeout as number | undefined) ?? Math.min(20_000, globals.timeoutMs - 1000),
        }, globals),
      );
    });

  program
    .command('snapshot')
    .description('Print the page as a compact accessibility tree; actionable elements get refs like [ref=e12].')
    .option('--tab <id>', 'tab to snapshot (default: the tab chrome-relay last used)', parseTab)
    .addHelpText('after', example('chrome-relay snapshot', 'chrome-relay snapshot --json'))
    .action(async (opts: Opts, cmd: Command) => {
      const globals = globalsOf(cmd);
      const result = await runTool('snapshot', { tab: opts.tab as number | undefined }, globals);
      if (globals.json) printJson(result);
      else printText(`# ${result.title || '(untitled)'} — ${result.url} [tab=${result.tabId}]\n${renderSnapshot(result.tree)}`);
    });

  program
    .command('click')
    .description('Click an element by ref (refuses if something covers it), or at viewport coordinates.')
    .argument('[ref]', 'element ref from snapshot, e.g. @e12')
    .option('--x <px>', 'viewport x (CSS px), with --y, instead of a ref', parseNumberArg('x', { min: 0 }))
    .option('--y <px>', 'viewport y (CSS px)', parseNumberArg('y', { min: 0 }))
    .option('--tab <id>', 'tab for coordinate clicks (a ref already carries its tab)', parseTab)
    .addHelpText('after', example('chrome-relay click @e12', 'chrome-relay click --x 120 --y 340'))
    .action(async (refArg: string | undefined, opts: Opts, cmd: Command) => {
      const x = opts.x as number | undefined;
      const y = opts.y as number | undefined;
      if (refArg === undefined && (x === undefined || y === undefined)) {
        throw new RelayError('invalid_arguments', 'ref: give a ref (e.g. @e12) or both --x and --y.', { phase: 'cli', details: { field: 'ref' } });
      }
      if (refArg !== undefined && (x !== undefined || y !== undefined)) {
        throw new RelayError('invalid_arguments', 'ref: give either a ref or --x/--y, not both.', { phase: 'cli', details: { field: 'ref' } });
      }
      const ref = refArg === undefined ? undefined : parseRefArg(refArg);
      printJson(await runTool('click', { ref, x, y, tab: opts.tab as number | undefined }, globalsOf(cmd)));
    });

  program
    .command('status')
    .description('Show which host, extension and browser profile this CLI reaches.')
    .addHelpText('after', example('chrome-relay status'))
    .action(async (_opts: Opts, cmd: Command) => {
      printJson(await runTool('status', {}, globalsOf(cmd)));
    });
}
