/**
 * Element-addressed commands: fill, focus, hover, select, check, uncheck, scroll, drag, upload.
 * Each takes a ref from `chrome-relay snapshot` (the ref carries its tab; --tab only cross-checks)
 * and maps 1:1 onto a protocol tool (packages/protocol/src/tools/elements.ts). `--snapshot`
 * prints a fresh snapshot of the same tab after the result.
 */
import type { Command } from 'commander';
import { parseNumberArg, parseRefArg } from '../args.js';
import { targetOptions, targeted } from '../callTarget.js';
import { scrollParams, uploadParams } from '../elementArgs.js';
import { runTool } from '../runTool.js';
import { printActionResult } from './actions.js';

type Opts = Record<string, unknown>;
const example = (...lines: string[]): string => `\nExample:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
const snapshotOption = 'after the result, print a fresh snapshot of the same tab';

/** The common shape: `<name> <ref>` → tool {ref, tab}. */
function refCommand(program: Command, name: 'focus' | 'hover' | 'check' | 'uncheck', description: string, examples: string[]): void {
  targetOptions(program.command(name))
    .description(description)
    .argument('<ref>', 'element ref from snapshot, e.g. @e12')
    .option('--snapshot', snapshotOption)
    .addHelpText('after', example(...examples))
    .action(async (ref: string, opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const result = await runTool(name, { ref: parseRefArg(ref), tab }, globals);
      await printActionResult(result, opts.snapshot === true, globals);
    });
}

export function registerElementCommands(program: Command): void {
  targetOptions(program.command('fill'))
    .description('Replace the value of an input, textarea, contenteditable or <select> (works even when the field is covered).')
    .argument('<ref>', 'element ref from snapshot, e.g. @e12')
    .argument('<value>', 'the new value ("" clears it); for a <select>, an option value or its visible text')
    .option('--snapshot', snapshotOption)
    .addHelpText('after', example('chrome-relay fill @e4 "ada@example.com"', 'chrome-relay fill @e9 "Germany"   # a <select>, by visible text', 'chrome-relay fill @e4 ""'))
    .action(async (ref: string, value: string, opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const result = await runTool('fill', { ref: parseRefArg(ref), value, tab }, globals);
      await printActionResult(result, opts.snapshot === true, globals);
    });

  refCommand(program, 'focus', 'Give an element keyboard focus (then use `keys` or `type`).', ['chrome-relay focus @e4 && chrome-relay keys Enter']);
  refCommand(program, 'hover', 'Move the mouse over an element (refuses if something covers it).', ['chrome-relay hover @e7 && chrome-relay snapshot']);
  refCommand(program, 'check', 'Check a checkbox, radio or switch; clicks only if needed and verifies the result.', ['chrome-relay check @e5']);
  refCommand(program, 'uncheck', 'Uncheck a checkbox or switch; clicks only if needed and verifies the result.', ['chrome-relay uncheck @e5']);

  targetOptions(program.command('select'))
    .description('Select options of a <select> by value or visible text (several only for <select multiple>).')
    .argument('<ref>', 'the <select> ref from snapshot')
    .argument('<options...>', 'option values or visible texts')
    .option('--snapshot', snapshotOption)
    .addHelpText('after', example('chrome-relay select @e9 "Germany"', 'chrome-relay select @e10 red blue   # <select multiple>'))
    .action(async (ref: string, values: string[], opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const result = await runTool('select', { ref: parseRefArg(ref), values, tab }, globals);
      await printActionResult(result, opts.snapshot === true, globals);
    });

  targetOptions(program.command('scroll'))
    .description('Scroll the page (or the container of --in @ref) up/down/left/right, or bring a ref into view.')
    .argument('[direction]', 'up | down | left | right')
    .argument('[amount]', 'CSS pixels (default: most of a screen)')
    .option('--in <ref>', 'scroll the scroll container this element is in instead of the page')
    .option('--into-view <ref>', 'scroll until this element is centred in view')
    .option('--snapshot', snapshotOption)
    .addHelpText('after', example('chrome-relay scroll down', 'chrome-relay scroll down 300 --in @e12', 'chrome-relay scroll --into-view @e40'))
    .action(async (direction: string | undefined, amount: string | undefined, opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const params = scrollParams(direction, amount, { in: opts.in as string | undefined, intoView: opts.intoView as string | undefined });
      const result = await runTool('scroll', { ...params, tab }, globals);
      await printActionResult(result, opts.snapshot === true, globals);
    });

  targetOptions(program.command('drag'))
    .description('Drag one element onto another with trusted mouse events (HTML5 drag and drop included); the target may also be a CSS selector or a viewport point.')
    .argument('<from>', 'ref of the element to drag')
    .argument('[to]', 'ref of the element to drop on')
    .option('--to-selector <css>', 'drop on the first visible element matching this CSS selector (instead of a ref)')
    .option('--to-x <px>', 'drop at this viewport x (CSS px), with --to-y', parseNumberArg('toX', { min: 0 }))
    .option('--to-y <px>', 'drop at this viewport y (CSS px), with --to-x', parseNumberArg('toY', { min: 0 }))
    .option('--snapshot', snapshotOption)
    .addHelpText('after', example('chrome-relay drag @e3 @e8', 'chrome-relay drag @e3 --to-selector "#trash"', 'chrome-relay drag @e3 --to-x 640 --to-y 300'))
    .action(async (from: string, to: string | undefined, opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const params = {
        from: parseRefArg(from, 'from'),
        to: to === undefined ? undefined : parseRefArg(to, 'to'),
        toSelector: opts.toSelector as string | undefined,
        toX: opts.toX as number | undefined,
        toY: opts.toY as number | undefined,
        tab,
      };
      const result = await runTool('drag', params, globals);
      await printActionResult(result, opts.snapshot === true, globals);
    });

  targetOptions(program.command('upload'))
    .description('Set files on an <input type=file> (hidden ones too) without a dialog; --via clicks a button that opens a file chooser and answers it.')
    .argument('<args...>', '@ref then files; with --via, only files')
    .option('--via <ref>', 'a button that opens a file chooser when clicked')
    .option('--snapshot', snapshotOption)
    .addHelpText('after', example('chrome-relay upload @e7 ./photo.png', 'chrome-relay upload --via @e8 a.pdf b.pdf'))
    .action(async (args: string[], opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const params = uploadParams(args, opts.via as string | undefined);
      const result = await runTool('upload', { ...params, tab }, globals);
      await printActionResult(result, opts.snapshot === true, globals);
    });
}
