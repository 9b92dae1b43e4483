/** Commands that act in the browser: each maps flags 1:1 onto a protocol tool and prints its result. */
import type { Command } from 'commander';
import { RelayError } from '@chrome-relay/protocol';
import { parseChoice, parseIntArg, parseNumberArg, parseRefArg, parseTimeout } from '../args.js';
import { parseModifiers, parseScope } from '../elementArgs.js';
import { targetOptions, targeted, untargeted } from '../callTarget.js';
import { printJson, printText } from '../output.js';
import { renderSnapshot, renderSnapshotHeader, renderSnapshotDiff, truncateSnapshot } from '../renderSnapshot.js';
import { runTool } from '../runTool.js';

type Opts = Record<string, unknown>;
/** tabs and status act on no tab: a target flag is refused, not ignored. */
const globalsOf = untargeted;
const example = (...lines: string[]): string => `\nExample:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

export function registerBrowserCommands(program: Command): void {
  program
    .command('tabs')
    .description('List windows and tabs (ids for --tab).')
    .addHelpText('after', example('chrome-relay tabs'))
    .action(async (_opts: Opts, cmd: Command) => {
      printJson(await runTool('tabs', {}, globalsOf(cmd)));
    });

  targetOptions(program.command('navigate'))
    .description('Open a URL in a new background tab (or --tab) and wait for the real document.')
    .argument('<url>', 'absolute URL')
    .option('--wait <until>', 'commit | domcontentloaded | load | none (default load)', parseChoice('wait', ['commit', 'domcontentloaded', 'load', 'none'] as const))
    .option('--wait-timeout <ms>', 'how long to wait for readiness before answering ready:false', parseTimeout)
    .addHelpText('after', example('chrome-relay navigate https://example.com', 'chrome-relay navigate https://example.com --tab 123 --wait domcontentloaded'))
    .action(async (url: string, opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      printJson(
        await runTool('navigate', {
          url,
          tab,
          wait: opts.wait as 'commit' | 'domcontentloaded' | 'load' | 'none' | undefined,
          timeoutMs: (opts.waitTimeout as number | undefined) ?? Math.min(20_000, globals.timeoutMs - 1000),
        }, globals),
      );
    });

  targetOptions(program.command('snapshot'))
    .description('Print the page as a compact accessibility tree; actionable elements get refs like [ref=e12].')
    .option('-i, --interactive', 'only actionable elements (with the ancestors that give them context)')
    .option('-d, --depth <n>', 'cut the tree below this depth', parseIntArg('depth', { min: 0, max: 1000 }))
    .option('-s, --scope <ref|css>', 'only the subtree of this element: a ref (@e12) or a CSS selector', parseScope)
    .option('--max-chars <n>', 'cut the printed tree at about this many characters, with a marker', parseIntArg('max-chars', { min: 100 }))
    .option('--urls', 'print link URLs')
    .option('--diff', "print only what changed since this tab's previous snapshot")
    .option('--no-elide', 'keep long runs of identical siblings (elided by default)')
    .addHelpText(
      'after',
      example('chrome-relay snapshot', 'chrome-relay snapshot -i --max-chars 8000', 'chrome-relay snapshot -s "form#checkout" --urls', 'chrome-relay snapshot --diff', 'chrome-relay snapshot --json'),
    )
    .action(async (opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const scope = opts.scope as ReturnType<typeof parseScope> | undefined;
      const result = await runTool(
        'snapshot',
        {
          tab,
          interactive: opts.interactive === true ? true : undefined,
          depth: opts.depth as number | undefined,
          ...scope,
          diff: opts.diff === true ? true : undefined,
          noElide: opts.elide === false ? true : undefined,
        },
        globals,
      );
      if (globals.json) {
        printJson(result);
        return;
      }
      const render = { urls: opts.urls === true };
      const body = opts.diff === true ? renderSnapshotDiff(result.previous ?? null, result.tree, render) : renderSnapshot(result.tree, render);
      const maxChars = opts.maxChars as number | undefined;
      printText(`${renderSnapshotHeader(result)}\n${maxChars === undefined ? body : truncateSnapshot(body, maxChars)}`);
    });

  targetOptions(program.command('click'))
    .description('Click an element by ref (refuses if something covers it), or at viewport coordinates.')
    .argument('[ref]', 'element ref from snapshot, e.g. @e12')
    .option('--x <px>', 'viewport x (CSS px), with --y, instead of a ref', parseNumberArg('x', { min: 0 }))
    .option('--y <px>', 'viewport y (CSS px)', parseNumberArg('y', { min: 0 }))
    .option('--double', 'double click')
    .option('--triple', 'triple click (selects a paragraph or a field\'s text)')
    .option('--button <button>', 'left | right | middle (default left)', parseChoice('button', ['left', 'right', 'middle'] as const))
    .option('--modifiers <keys>', 'keys held during the click, e.g. Shift or Control,Shift', parseModifiers)
    .addHelpText(
      'after',
      example('chrome-relay click @e12', 'chrome-relay click @e12 --double', 'chrome-relay click @e7 --triple', 'chrome-relay click @e5 --button right --modifiers Shift', 'chrome-relay click --x 120 --y 340   # see docs/clicking-strategies.md'),
    )
    .action(async (refArg: string | undefined, opts: Opts, cmd: Command) => {
      const x = opts.x as number | undefined;
      const y = opts.y as number | undefined;
      if (refArg === undefined && (x === undefined || y === undefined)) {
        // Name what is missing: with one coordinate given, that is the other one.
        const field = x === undefined && y === undefined ? 'ref' : x === undefined ? 'x' : 'y';
        const message = field === 'ref' ? 'ref: give a ref (e.g. @e12) or both --x and --y.' : `${field}: --${field === 'x' ? 'y' : 'x'} was given without --${field}; give both, or a ref instead.`;
        throw new RelayError('invalid_arguments', message, { phase: 'cli', details: { field } });
      }
      if (refArg !== undefined && (x !== undefined || y !== undefined)) {
        throw new RelayError('invalid_arguments', 'ref: give either a ref or --x/--y, not both.', { phase: 'cli', details: { field: 'ref' } });
      }
      if (opts.double === true && opts.triple === true) {
        throw new RelayError('invalid_arguments', 'clickCount: give --double or --triple, not both.', { phase: 'cli', details: { field: 'clickCount' } });
      }
      const ref = refArg === undefined ? undefined : parseRefArg(refArg);
      const { globals, tab } = targeted(cmd);
      const params = {
        ref,
        x,
        y,
        button: opts.button as 'left' | 'right' | 'middle' | undefined,
        clickCount: opts.triple === true ? 3 : opts.double === true ? 2 : undefined,
        modifiers: opts.modifiers as ReturnType<typeof parseModifiers> | undefined,
        tab,
      };
      printJson(await runTool('click', params, globals));
    });

  program
    .command('status')
    .description('Show which host, extension and browser profile this CLI reaches.')
    .addHelpText('after', example('chrome-relay status'))
    .action(async (_opts: Opts, cmd: Command) => {
      printJson(await runTool('status', {}, globalsOf(cmd)));
    });
}
