/**
 * How a tool command presents its result, by the entry's `cli.output` kind (protocol cliShape.ts).
 * A kind may add CLI-only flags (where to write a file, how to print), check them before the call (a
 * bad --out must never cost a screenshot or lose a recording), and render the result. Handlers never
 * print; this module and output.ts do.
 */
import { copyFileSync, existsSync, renameSync, unlinkSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Command } from 'commander';
import { HOME_ENV, RelayError, SHORT_FLAGS, toolLabel, type AfterSnapshot, type CliOutput } from '@chrome-relay/protocol';
import { invalidArgument, parseFps, parseMaxChars } from './args.js';
import { paramsFromCommandLine } from './commandParams.js';
import { commandSpec, type FlagSpec } from './commandSpec.js';
import { encodeGif, hasFfmpeg } from './gif.js';
import type { GlobalOptions } from './globalOptions.js';
import { printJson, printText } from './output.js';
import { actionText, compact, lineText, listLines, present, presentList, statusText, valueText } from './present.js';
import { checkOutFile, makePrivateDirsFor, prepareOutDir, writeOutFile } from './outputFiles.js';
import { currentPlatform } from '@chrome-relay/host-files';
import { launchedStates } from './launched.js';
import { snapshotText } from './renderSnapshot.js';

type Opts = Readonly<Record<string, unknown>>;
type Result = Record<string, unknown>;

export interface RenderContext {
  /** The tool the command ran. */
  tool: string;
  opts: Opts;
  params: Readonly<Record<string, unknown>>;
  globals: GlobalOptions;
  prepared: unknown;
  /** The snapshot taken right after the tool, when the kind asked for one (snapshotAfter). */
  after?: AfterSnapshot | undefined;
}

interface OutputKind {
  /** CLI-only flags of this kind. */
  flags?(cmd: Command): void;
  /** Checks before the call; what it returns is handed to render. */
  before?(opts: Opts): Promise<unknown> | unknown;
  /** Params of a snapshot to take right after the tool, in the same call (an action's --snapshot); checked before the call. */
  snapshotAfter?(opts: Opts): Record<string, unknown> | undefined;
  render(result: Result, context: RenderContext): Promise<void> | void;
}

const SNAPSHOT_FLAG = 'after the result, print a snapshot of the same tab, taken right after the action in the same call';
const MAX_CHARS_HELP = 'cut the printed tree at about this many characters, with a marker';

/** The snapshot command's flags an action's --snapshot takes too (by the snapshot param each fills). */
const SHAPING_PARAMS: readonly string[] = ['interactive', 'depth', 'scopeRef'];

function shapingFlags(): FlagSpec[] {
  return commandSpec('snapshot').flags.filter((flag) => SHAPING_PARAMS.includes(flag.param));
}

/**
 * An action's --snapshot and the flags that shape it: -i, -d, --scope, --max-chars. A letter keeps its one meaning
 * (protocol SHORT_FLAGS): `-s` names the element a command works in, which for an action is not the snapshot's
 * scope, so the scope is `--scope` there; so is any letter the command has already.
 */
function declareSnapshotFlags(cmd: Command): void {
  cmd.option('--snapshot', SNAPSHOT_FLAG);
  const shorts = new Set(cmd.options.map((option) => option.short));
  for (const flag of shapingFlags()) {
    const short = /^(-\w), /.exec(flag.spelling)?.[1];
    const keepsLetter = short !== undefined && !shorts.has(short) && SHORT_FLAGS[short]?.element !== true;
    cmd.option(short === undefined || keepsLetter ? flag.spelling : flag.spelling.slice(short.length + 2), `with --snapshot: ${flag.help}`);
  }
  cmd.option('--max-chars <n>', `with --snapshot: ${MAX_CHARS_HELP}`, parseMaxChars);
}

/** The snapshot params of an action's --snapshot; a shaping flag without --snapshot is invalid_arguments. */
function snapshotParamsOf(opts: Opts): Record<string, unknown> | undefined {
  const flags = shapingFlags();
  if (opts.snapshot !== true) {
    const stray = flags.find((flag) => opts[flag.attribute] !== undefined)?.field ?? (opts.maxChars !== undefined ? 'max-chars' : undefined);
    if (stray !== undefined) throw invalidArgument(stray, 'shapes the snapshot printed after the action: add --snapshot');
    return undefined;
  }
  const spec = commandSpec('snapshot');
  return paramsFromCommandLine({ ...spec, positionals: [], flags }, [], opts).params;
}

const DIALOG_NOTE = 'a dialog is open on the tab; answer it with `chrome-relay dialog accept|dismiss`';

/** How the snapshot after an action went, for whoever presents it (this module, the MCP server). */
export type AfterOutcome =
  | { kind: 'taken'; snapshot: Record<string, unknown> }
  /** A tab blocked by a dialog cannot be snapshotted: said, and the action's success stands. */
  | { kind: 'skipped'; note: string }
  /** Any other failure of the snapshot fails the command — saying that the action itself happened. */
  | { kind: 'failed'; error: RelayError };

/** `shown`: where the action's result is for the reader of the error (the CLI prints it on stdout). */
export function afterOutcome(after: AfterSnapshot, result: Result, tool: string, shown = 'on stdout'): AfterOutcome {
  if (after.ok) return { kind: 'taken', snapshot: after.result as Record<string, unknown> };
  if (after.error.code === 'target_conflict' && after.error.details.reason === 'dialog_open') return { kind: 'skipped', note: DIALOG_NOTE };
  // Not retryable: running the command again would repeat the action, which already happened.
  const look = typeof result.tabId === 'number' ? `chrome-relay snapshot --tab ${result.tabId}` : 'chrome-relay snapshot';
  const error = new RelayError(after.error.code, `${toolLabel(tool)} happened (its result is ${shown}), but the snapshot after it failed: ${after.error.message} Do not repeat it; look with \`${look}\`.`, {
    tool: 'snapshot',
    phase: after.error.phase,
    details: { ...after.error.details, after: tool },
    retryable: false,
  });
  return { kind: 'failed', error };
}

/** An action's result as its reader wants it (present.ts): for a person, the action's own line. */
function printAction(result: Result, context: RenderContext): void {
  present(result, context.globals.json, () => actionText(context.tool, result) ?? lineText(compact(result)));
}

/**
 * Print an action's result; with a snapshot taken after it, follow it with that snapshot, or say why
 * there is none (afterOutcome). A failed snapshot throws after the result is printed. Without --json the result
 * is one line and the tree follows it (a reader of the tree skips lines that do not start with `- `); with
 * --json, one document holds both.
 */
function printActionResult(result: Result, context: RenderContext): void {
  const { after, globals, tool } = context;
  if (after === undefined) {
    printAction(result, context);
    return;
  }
  const outcome = afterOutcome(after, result, tool);
  switch (outcome.kind) {
    case 'taken':
      if (globals.json) printJson({ result, snapshot: outcome.snapshot });
      else {
        printAction(result, context);
        printText(snapshotText(outcome.snapshot as unknown as Parameters<typeof snapshotText>[0], { maxChars: context.opts.maxChars as number | undefined }));
      }
      return;
    case 'skipped':
      if (globals.json) printJson({ result, snapshot: null, snapshotSkipped: outcome.note });
      else {
        printAction(result, context);
        printText(`(no snapshot: ${outcome.note})`);
      }
      return;
    case 'failed':
      if (globals.json) printJson({ result, snapshot: null });
      else printAction(result, context);
      throw outcome.error;
  }
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

/**
 * Move a completed download into the armed directory; returns the new path. (The browser cannot be
 * told where to save — see the extension's pageState/downloads.ts — so the CLI moves the file.)
 */
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

/** A wait result whose completed download was armed with a directory: the file moved there, its first path kept. */
export function withDownloadMoved(result: Result): Result {
  const download = result.download as { path: string; dir: string | null } | undefined;
  return download?.dir ? { ...result, download: { ...download, path: moveDownload(download.path, download.dir), browserPath: download.path } } : result;
}

/**
 * Where a screenshot goes without --out: `<home>/screenshots/`, one folder that stays (a temp folder is cleaned
 * away and its random name found by no one), private like the rest of the home: a screenshot shows the person's pages.
 */
function screenshotFile(home: string, name: string): string {
  const dir = join(home, 'screenshots');
  makePrivateDirsFor(HOME_ENV, [home, dir]);
  return freeName(dir, name);
}

const action: OutputKind = {
  flags: declareSnapshotFlags,
  snapshotAfter: snapshotParamsOf,
  render: ({ ...result }, context) => printActionResult(result, context),
};

export const OUTPUTS: { readonly [K in CliOutput]: OutputKind } = {
  json: {
    // `get` and `js` hold one value: a person reads it alone.
    render: (result, { tool, globals }) => present(result, globals.json, tool === 'get' || tool === 'js' ? () => valueText(result.value) : undefined),
  },
  list: { render: (result, { tool, globals }) => presentList(result, globals.json, () => listLines(tool, result) ?? [lineText(compact(result))]) },
  status: {
    render: (result, { globals }) => {
      const full = { ...result, launched: launchedStates(globals.home, currentPlatform()) };
      present(full, globals.json, () => statusText(full));
    },
  },
  action,
  download: {
    flags: action.flags,
    snapshotAfter: action.snapshotAfter,
    render: (result, context) => printActionResult(withDownloadMoved(result), context),
  },
  snapshot: {
    flags: (cmd) =>
      void cmd
        .option('--max-chars <n>', MAX_CHARS_HELP, parseMaxChars)
        .option('--urls', 'print link URLs'),
    render: (result, { opts, params, globals }) => {
      if (globals.json) printJson(result);
      else printText(snapshotText(result as unknown as Parameters<typeof snapshotText>[0], { urls: opts.urls === true, diff: params.diff === true, maxChars: opts.maxChars as number | undefined }));
    },
  },
  image: {
    flags: (cmd) => void cmd.option('-o, --out <file>', 'write here (default: a new file in <home>/screenshots, e.g. ~/.chrome-relay/screenshots)').option('--base64', 'also print the image as base64 in the JSON result'),
    before: (opts) => (typeof opts.out === 'string' ? checkOutFile(opts.out) : undefined),
    render: (result, { opts, prepared, globals }) => {
      const { data, ...rest } = result as { data: string; tabId: number; format: string };
      const bytes = Buffer.from(data, 'base64');
      const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace(/-\d+Z$/, '');
      const path = typeof prepared === 'string' ? prepared : screenshotFile(globals.home, `tab-${rest.tabId}-${stamp}.${rest.format === 'jpeg' ? 'jpg' : 'png'}`);
      writeOutFile(path, bytes);
      const shown = { ...rest, path, bytes: bytes.length, ...(opts.base64 === true ? { base64: data } : {}) };
      present(shown, globals.json, () => `saved ${path} (${rest.format}, ${bytes.length} bytes) of tab ${rest.tabId}`);
    },
  },
  frames: {
    flags: (cmd) =>
      void cmd
        .requiredOption('--out <dir>', 'directory for the frames (created if missing)')
        .option('--gif', 'encode recording.gif with ffmpeg (omit it to keep frames only, without ffmpeg)')
        .option('--fps <n>', 'GIF frame rate (default 10)', parseFps),
    before: async (opts) => {
      // Before stopping: the frames live only in the browser until then, and a bad --out must not lose them.
      const dir = prepareOutDir(String(opts.out));
      if (opts.gif === true && !(await hasFfmpeg())) {
        throw new RelayError('external_dependency_missing', 'ffmpeg is not installed, so no GIF can be made. Install ffmpeg, or run `record stop` without --gif to keep the frames only. The recording is still running.', {
          phase: 'cli',
          details: { dependency: 'ffmpeg', skipFlag: 'omit --gif' },
        });
      }
      return dir;
    },
    render: async (result, { opts, prepared, globals }) => {
      const dir = String(prepared);
      const frames = result.frames as { data: string }[];
      frames.forEach((frame, i) => writeOutFile(join(dir, `frame-${String(i + 1).padStart(5, '0')}.jpg`), Buffer.from(frame.data, 'base64')));
      // What was painted over or left out because a frame showed a blocked site: the agent is told, never silently.
      const told = Object.fromEntries(['masked', 'withheld'].filter((key) => result[key] !== undefined).map((key) => [key, result[key]]));
      const out: Result = { tabId: result.tabId, dir, frames: frames.length, dropped: result.dropped, ...told };
      if (opts.gif === true) {
        if (frames.length === 0) throw new RelayError('invalid_arguments', 'The recording has no frames (nothing changed on screen), so there is no GIF to make.', { phase: 'cli', details: { field: 'gif', dir } });
        out.gif = await encodeGif(dir, frames.length, (opts.fps as number | undefined) ?? 10);
      }
      present(out, globals.json);
    },
  },
  body: {
    flags: (cmd) => void cmd.option('-o, --out <file>', 'write the (decoded) body to this file instead of printing it'),
    before: (opts) => (typeof opts.out === 'string' ? checkOutFile(opts.out) : undefined),
    render: (result, { prepared, globals }) => {
      if (typeof prepared !== 'string') {
        // A person reads the body itself (a binary one is named, not printed).
        present(result, globals.json, () => (result.base64Encoded === true ? `(binary ${String(result.mimeType)} body, ${String(result.body).length} base64 characters: write it with --out)` : String(result.body)));
        return;
      }
      writeOutFile(prepared, Buffer.from(String(result.body), result.base64Encoded === true ? 'base64' : 'utf8'));
      present({ tabId: result.tabId, id: result.id, mimeType: result.mimeType, path: prepared }, globals.json);
    },
  },
  har: {
    flags: (cmd) => void cmd.requiredOption('-o, --out <file>', 'HAR file to write'),
    before: (opts) => checkOutFile(String(opts.out)),
    render: (result, { prepared, globals }) => {
      const path = String(prepared);
      writeOutFile(path, `${JSON.stringify(result.har, null, 2)}\n`);
      present({ tabId: result.tabId, entries: result.entries, path }, globals.json);
    },
  },
};
