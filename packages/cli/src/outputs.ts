/**
 * How a tool command presents its result, by the entry's `cli.output` kind (protocol cliShape.ts).
 * A kind may add CLI-only flags (where to write a file, how to print), check them before the call (a
 * bad --out must never cost a screenshot or lose a recording), and render the result. Handlers never
 * print; this module and output.ts do.
 */
import { copyFileSync, existsSync, mkdtempSync, renameSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import type { Command } from 'commander';
import { RelayError, type CliOutput } from '@chrome-relay/protocol';
import { parseIntArg } from './args.js';
import { encodeGif, hasFfmpeg } from './gif.js';
import type { GlobalOptions } from './globalOptions.js';
import { printJson, printText } from './output.js';
import { checkOutFile, prepareOutDir, writeOutFile } from './outputFiles.js';
import { snapshotText } from './renderSnapshot.js';
import { runTool } from './runTool.js';

type Opts = Readonly<Record<string, unknown>>;
type Result = Record<string, unknown>;

interface OutputKind {
  /** CLI-only flags of this kind. */
  flags?(cmd: Command): void;
  /** Checks before the call; what it returns is handed to render. */
  before?(opts: Opts): Promise<unknown> | unknown;
  render(result: Result, context: { opts: Opts; params: Readonly<Record<string, unknown>>; globals: GlobalOptions; prepared: unknown }): Promise<void> | void;
}

const SNAPSHOT_FLAG = 'after the result, print a fresh snapshot of the same tab';

/**
 * Print an action's result; with `snapshot`, follow it with a snapshot of the result's tab. A tab
 * blocked by a dialog cannot be snapshotted; that is said instead of failing the action.
 */
async function printActionResult(result: Result, snapshot: boolean, globals: GlobalOptions): Promise<void> {
  if (!snapshot || typeof result.tabId !== 'number') {
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
  printText(snapshotText(snap));
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

function tempFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'chrome-relay-')), name);
}

const action: OutputKind = {
  flags: (cmd) => void cmd.option('--snapshot', SNAPSHOT_FLAG),
  render: ({ ...result }, { opts, globals }) => printActionResult(result, opts.snapshot === true, globals),
};

export const OUTPUTS: { readonly [K in CliOutput]: OutputKind } = {
  json: { render: (result) => printJson(result) },
  action,
  download: {
    flags: action.flags,
    render: async (result, { opts, globals }) => {
      const download = result.download as { path: string; dir: string | null } | undefined;
      const moved = download?.dir ? { ...result, download: { ...download, path: moveDownload(download.path, download.dir), browserPath: download.path } } : result;
      await printActionResult(moved, opts.snapshot === true, globals);
    },
  },
  snapshot: {
    flags: (cmd) =>
      void cmd
        .option('--max-chars <n>', 'cut the printed tree at about this many characters, with a marker', parseIntArg('max-chars', { min: 100 }))
        .option('--urls', 'print link URLs'),
    render: (result, { opts, params, globals }) => {
      if (globals.json) printJson(result);
      else printText(snapshotText(result as unknown as Parameters<typeof snapshotText>[0], { urls: opts.urls === true, diff: params.diff === true, maxChars: opts.maxChars as number | undefined }));
    },
  },
  image: {
    flags: (cmd) => void cmd.option('-o, --out <file>', 'write here (default: a new file under the temp dir)').option('--base64', 'also print the image as base64 in the JSON result'),
    before: (opts) => (typeof opts.out === 'string' ? checkOutFile(opts.out) : undefined),
    render: (result, { opts, prepared }) => {
      const { data, ...rest } = result as { data: string; tabId: number; format: string };
      const bytes = Buffer.from(data, 'base64');
      const path = typeof prepared === 'string' ? prepared : tempFile(`screenshot-${rest.tabId}-${Date.now()}.${rest.format === 'jpeg' ? 'jpg' : 'png'}`);
      writeOutFile(path, bytes);
      printJson({ ...rest, path, bytes: bytes.length, ...(opts.base64 === true ? { base64: data } : {}) });
    },
  },
  frames: {
    flags: (cmd) =>
      void cmd
        .requiredOption('--out <dir>', 'directory for the frames (created if missing)')
        .option('--gif', 'encode recording.gif with ffmpeg (omit it to keep frames only, without ffmpeg)')
        .option('--fps <n>', 'GIF frame rate (default 10)', parseIntArg('fps', { min: 1, max: 60 })),
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
    render: async (result, { opts, prepared }) => {
      const dir = String(prepared);
      const frames = result.frames as { data: string }[];
      frames.forEach((frame, i) => writeOutFile(join(dir, `frame-${String(i + 1).padStart(5, '0')}.jpg`), Buffer.from(frame.data, 'base64')));
      const out: Result = { tabId: result.tabId, dir, frames: frames.length, dropped: result.dropped };
      if (opts.gif === true) {
        if (frames.length === 0) throw new RelayError('invalid_arguments', 'The recording has no frames (nothing changed on screen), so there is no GIF to make.', { phase: 'cli', details: { field: 'gif', dir } });
        out.gif = await encodeGif(dir, frames.length, (opts.fps as number | undefined) ?? 10);
      }
      printJson(out);
    },
  },
  body: {
    flags: (cmd) => void cmd.option('-o, --out <file>', 'write the (decoded) body to this file instead of printing it'),
    before: (opts) => (typeof opts.out === 'string' ? checkOutFile(opts.out) : undefined),
    render: (result, { prepared }) => {
      if (typeof prepared !== 'string') {
        printJson(result);
        return;
      }
      writeOutFile(prepared, Buffer.from(String(result.body), result.base64Encoded === true ? 'base64' : 'utf8'));
      printJson({ tabId: result.tabId, id: result.id, mimeType: result.mimeType, path: prepared });
    },
  },
  har: {
    flags: (cmd) => void cmd.requiredOption('-o, --out <file>', 'HAR file to write'),
    before: (opts) => checkOutFile(String(opts.out)),
    render: (result, { prepared }) => {
      const path = String(prepared);
      writeOutFile(path, `${JSON.stringify(result.har, null, 2)}\n`);
      printJson({ tabId: result.tabId, entries: result.entries, path });
    },
  },
};
