/**
 * Page actions that need no ref: keys, type, back, forward, reload, close, wait, get, js, dialog,
 * download. Flags map 1:1 onto the protocol tools (packages/protocol/src/tools/actions.ts).
 *
 * Two things happen here rather than in the browser:
 * - `--snapshot` (printActionResult): print the action's result, then a fresh snapshot of the same
 *   tab, saving the agent a turn. With --json both go in one object {result, snapshot}.
 * - `wait --download` with a directory armed by `download --dir`: the browser cannot be told where
 *   to save (see the extension's pageState/downloads.ts), so the CLI moves the finished file there.
 */
import { copyFileSync, existsSync, renameSync, unlinkSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Command } from 'commander';
import { reasonedError, RelayError, WAIT_REPORT_MS, type ToolResult } from '@chrome-relay/protocol';
import { getParams, parseDownloadDir, parseKeyList, parseTabList, parseTypeText, waitCondition, type WaitFlags } from '../actionArgs.js';
import { parseChoice, parseRefArg, parseTab, parseTimeout } from '../args.js';
import { targeted } from '../callTarget.js';
import type { GlobalOptions } from '../globalOptions.js';
import { printJson, printText } from '../output.js';
import { renderSnapshot, renderSnapshotHeader } from '../renderSnapshot.js';
import { runTool } from '../runTool.js';

type Opts = Record<string, unknown>;
type WaitUntil = 'commit' | 'domcontentloaded' | 'load' | 'none';
const example = (...lines: string[]): string => `\nExample:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
const tabOption = 'tab to act in (default: the tab chrome-relay last used)';
const snapshotOption = 'after the result, print a fresh snapshot of the same tab';
const frameOption = 'run inside this iframe: its ref from a snapshot, e.g. @e12 (same- or cross-origin)';

function frameParam(opts: Opts): string | undefined {
  return opts.frame === undefined ? undefined : parseRefArg(String(opts.frame), 'frame');
}

/**
 * Print an action's result; with `snapshot`, follow it with a snapshot of the result's tab. A tab
 * blocked by a dialog cannot be snapshotted; that is said instead of failing the action.
 */
export async function printActionResult(result: { tabId: number; dialog?: unknown } & Record<string, unknown>, snapshot: boolean, globals: GlobalOptions): Promise<void> {
  if (!snapshot) {
    printJson(result);
    return;
  }
  if (result.dialog !== undefined) {
    if (globals.json) printJson({ result, snapshot: null, snapshotSkipped: 'a dialog is open on the tab; answer it with `chrome-relay dialog accept|dismiss`' });
    else {
      printJson(result);
      printText('(no snapshot: a dialog is open on the tab; answer it with `chrome-relay dialog accept|dismiss`)');
    }
    return;
  }
  const snap = await runTool('snapshot', { tab: result.tabId }, globals);
  if (globals.json) {
    printJson({ result, snapshot: snap });
    return;
  }
  printJson(result);
  printText(`${renderSnapshotHeader(snap)}\n${renderSnapshot(snap.tree)}`);
}

/** A name in `dir` that does not exist yet: "report.pdf", then "report (1).pdf", … */
export function freeName(dir: string, name: string, exists: (path: string) => boolean = existsSync): string {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 0; ; i++) {
    const candidate = join(dir, i === 0 ? name : `${stem} (${i})${ext}`);
    if (!exists(candidate)) return candidate;
  }
}

/** Move a completed download into the armed directory; returns the new path. */
export function moveDownload(from: string, dir: string): string {
  const to = freeName(dir, basename(from));
  try {
    renameSync(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV') {
      throw new RelayError('invalid_arguments', `dir: the download was saved as ${from} but could not be moved into ${dir}: ${(error as Error).message}`, {
        tool: 'wait',
        phase: 'cli',
        details: { field: 'dir', dir, path: from },
      });
    }
    // Another filesystem: rename cannot cross it.
    copyFileSync(from, to);
    unlinkSync(from);
  }
  return to;
}

function historyCommand(program: Command, name: 'back' | 'forward' | 'reload', description: string): void {
  program
    .command(name)
    .description(description)
    .option('--tab <id>', tabOption, parseTab)
    .option('--wait <until>', 'commit | domcontentloaded | load | none (default load)', parseChoice('wait', ['commit', 'domcontentloaded', 'load', 'none'] as const))
    .option('--wait-timeout <ms>', 'how long to wait for readiness before answering ready:false', parseTimeout)
    .option('--snapshot', snapshotOption)
    .addHelpText('after', example(`chrome-relay ${name}`, `chrome-relay ${name} --tab 123 --wait domcontentloaded --snapshot`))
    .action(async (opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const result = await runTool(
        name,
        {
          tab,
          wait: opts.wait as WaitUntil | undefined,
          timeoutMs: (opts.waitTimeout as number | undefined) ?? Math.max(1, Math.min(20_000, globals.timeoutMs - 1000)),
        },
        globals,
      );
      await printActionResult(result, opts.snapshot === true, globals);
    });
}

export function registerActionCommands(program: Command): void {
  program
    .command('keys')
    .description('Press keys or combinations as trusted keyboard events, in order.')
    .argument('<keys...>', 'keys like Enter, Tab, Escape, ArrowDown, a, A, or combinations like Shift+Tab, Control+a, ControlOrMeta+Enter')
    .option('--tab <id>', tabOption, parseTab)
    .option('--snapshot', snapshotOption)
    .addHelpText('after', example('chrome-relay keys Enter', 'chrome-relay keys Control+a Backspace', 'chrome-relay keys Shift+Tab --snapshot'))
    .action(async (keys: string[], opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const result = await runTool('keys', { keys: parseKeyList(keys), tab }, globals);
      await printActionResult(result, opts.snapshot === true, globals);
    });

  program
    .command('type')
    .description('Type text into the focused field as trusted key events (contenteditable and rich editors included).')
    .argument('<text>', 'text to type (a newline presses Enter)')
    .option('-s, --target <ref>', 'focus this element (a ref like @e7) first')
    .option('--tab <id>', tabOption, parseTab)
    .option('--snapshot', snapshotOption)
    .addHelpText('after', example('chrome-relay click @e4 && chrome-relay type "hello@example.com"', 'chrome-relay type "Ünïcode ✓" --tab 123', 'chrome-relay type "hello" -s @e7'))
    .action(async (text: string, opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const ref = opts.target === undefined ? undefined : parseRefArg(String(opts.target), 'target');
      const result = await runTool('type', { text: parseTypeText(text), ref, tab }, globals);
      await printActionResult(result, opts.snapshot === true, globals);
    });

  historyCommand(program, 'back', "Go back in the tab's history and wait for that page.");
  historyCommand(program, 'forward', "Go forward in the tab's history and wait for that page.");
  historyCommand(program, 'reload', 'Reload the tab and wait for the new document.');

  program
    .command('close')
    .description('Close tabs, all or none (a missing id closes nothing). Without ids: --tab, else the tab chrome-relay last used.')
    .argument('[tabs...]', 'tab ids from `chrome-relay tabs`')
    .addHelpText('after', example('chrome-relay close', 'chrome-relay close 123 456', 'chrome-relay --tab 123 close'))
    .action(async (tabs: string[], _opts: Opts, cmd: Command) => {
      const ids = parseTabList(tabs);
      const { globals, tab } = targeted(cmd);
      if (tab !== undefined && !(ids.length === 0 || (ids.length === 1 && ids[0] === tab))) {
        throw reasonedError('target_conflict', 'multiple_targets', `--tab ${tab} and the ids ${ids.join(' ')} were both given; name the tabs to close once.`, {
          phase: 'cli',
          details: { tab, tabs: ids },
        });
      }
      const closing = ids.length > 0 ? ids : tab === undefined ? [] : [tab];
      printJson(await runTool('close', closing.length ? { tabs: closing } : {}, globals));
    });

  program
    .command('wait')
    .description('Wait for one condition in the tab for up to --timeout ms (default 30000); fails with `timeout` (and the page state) when it runs out.')
    .option('--text <text>', 'page text contains this (case-sensitive)')
    .option('--url <glob>', 'tab URL matches this glob (* = anything but /, ** = anything)')
    .option('--load', 'the document has finished loading')
    .option('--networkidle', 'no network request for 500 ms')
    .option('--fn <js>', 'this JavaScript expression is truthy (page main world)')
    .option('--selector <css>', 'an element matching this CSS selector is visible')
    .option('--download', 'the next download of the tab has completed (moved into the `download --dir` directory)')
    .option('--frame <ref>', frameOption)
    .option('--tab <id>', tabOption, parseTab)
    .option('--snapshot', snapshotOption)
    .addHelpText(
      'after',
      example(
        'chrome-relay wait --text "Order placed"',
        'chrome-relay wait --url "**/checkout/done" --timeout 60000',
        'chrome-relay wait --selector "#results li" --snapshot',
        'chrome-relay wait --text "Paid" --frame @e12   # inside an iframe',
        'chrome-relay download --dir ./out && chrome-relay click @e9 && chrome-relay wait --download',
      ),
    )
    .action(async (opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const condition = waitCondition(opts as WaitFlags);
      // --timeout is the wait's own budget; the call's deadline goes around it, leaving time to report the page state.
      const budget = globals.timeoutMs;
      const frame = frameParam(opts);
      const result: ToolResult<'wait'> = await runTool('wait', { ...condition, frame, tab, timeoutMs: budget }, { ...globals, timeoutMs: budget + WAIT_REPORT_MS });
      const download = result.download;
      if (download?.dir) {
        const moved = moveDownload(download.path, download.dir);
        await printActionResult({ ...result, download: { ...download, path: moved, browserPath: download.path } }, opts.snapshot === true, globals);
        return;
      }
      await printActionResult(result, opts.snapshot === true, globals);
    });

  program
    .command('get')
    .description('Read one value without a snapshot: title, url, or text/value/attr/count of a CSS selector.')
    .argument('<what>', 'title | url | text | value | attr | count')
    .argument('[attribute]', 'attribute name, for get attr')
    .option('-s, --selector <css>', 'CSS selector, open shadow roots searched too (text, value and attr need exactly one match)')
    .option('--frame <ref>', frameOption)
    .option('--tab <id>', tabOption, parseTab)
    .addHelpText('after', example('chrome-relay get title', 'chrome-relay get text -s "h1"', 'chrome-relay get attr href -s "a.next"', 'chrome-relay get count -s ".result"', 'chrome-relay get value -s "#card" --frame @e12'))
    .action(async (what: string, attribute: string | undefined, opts: Opts, cmd: Command) => {
      const params = getParams(what, attribute, opts.selector as string | undefined);
      const { globals, tab } = targeted(cmd);
      printJson(await runTool('get', { ...params, frame: frameParam(opts), tab }, globals));
    });

  program
    .command('js')
    .description("Evaluate JavaScript in the page's main world (await allowed) and print the value as JSON.")
    .argument('<expression>', 'JavaScript; the value of the last expression is returned')
    .option('--frame <ref>', frameOption)
    .option('--tab <id>', tabOption, parseTab)
    .addHelpText('after', example('chrome-relay js "document.title"', "chrome-relay js \"[...document.querySelectorAll('a')].map(a => a.href)\"", 'chrome-relay js "await fetch(\'/api/me\').then(r => r.json())"'))
    .action(async (expression: string, opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      printJson(await runTool('js', { expression, frame: frameParam(opts), tab }, globals));
    });

  program
    .command('dialog')
    .description('Accept or dismiss the alert/confirm/prompt/beforeunload dialog open in the tab.')
    .argument('<action>', 'accept | dismiss', parseChoice('action', ['accept', 'dismiss'] as const))
    .option('--text <text>', 'text to enter into a prompt before accepting')
    .option('--tab <id>', tabOption, parseTab)
    .option('--snapshot', snapshotOption)
    .addHelpText('after', example('chrome-relay dialog accept', 'chrome-relay dialog accept --text "Ada"', 'chrome-relay dialog dismiss --tab 123'))
    .action(async (action: 'accept' | 'dismiss', opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      const result = await runTool('dialog', { action, text: opts.text as string | undefined, tab }, globals);
      await printActionResult(result, opts.snapshot === true, globals);
    });

  program
    .command('download')
    .description("Arm the tab's downloads: `wait --download` then moves each finished file into --dir and prints its path.")
    .requiredOption('--dir <dir>', 'existing directory for the downloaded files', (raw: string) => parseDownloadDir(raw))
    .option('--tab <id>', tabOption, parseTab)
    .addHelpText('after', example('chrome-relay download --dir ./downloads', 'chrome-relay click @e9 && chrome-relay wait --download'))
    .action(async (opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      printJson(await runTool('download', { dir: opts.dir as string, tab }, globals));
    });
}
