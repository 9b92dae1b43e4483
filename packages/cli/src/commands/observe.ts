/**
 * Observation and organisation commands: screenshot, record, console, network, workspace, group,
 * lease. Binary results arrive base64 and are written to files here (never dumped on stdout unless
 * --base64), so an agent's context only ever gets a path.
 *
 * Targeting (callTarget.ts): `--tab`, before or after the command name, is the tool's `tab` param;
 * `--workspace`/`--group` travel beside the params as the call's `target` and the extension
 * resolves them (targeting/resolveCall.ts). A target given on the subcommand replaces one given
 * before it, with a `target_overridden` notice. Workspace and group management act on no tab and
 * refuse a target.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { RelayError, type Notice, type ToolName, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { parseChoice, parseIntArg, parseRefArg, parseTab } from '../args.js';
import { AGENT_ENV } from '../globalOptions.js';
import { cliError, targetOptions, targeted, untargeted, type TargetedGlobals } from '../callTarget.js';
import { printJson, printNotice } from '../output.js';
import { checkOutFile, prepareOutDir, writeOutFile } from '../outputFiles.js';
import { runTool } from '../runTool.js';

type Opts = Record<string, unknown>;

function call<T extends ToolName>(tool: T, params: ToolParams<T>, globals: TargetedGlobals): Promise<ToolResult<T>> {
  return runTool(tool, params, globals);
}

function tempFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'chrome-relay-')), name);
}

/** ffmpeg on PATH? (Probed before a recording is stopped, so a missing one loses nothing.) */
export async function hasFfmpeg(): Promise<boolean> {
  // Loaded on use: child_process costs ~7 ms at start-up, and most CLI runs never spawn anything.
  const { spawnSync } = await import('node:child_process');
  const probe = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

async function encodeGif(dir: string, frameCount: number, fps: number): Promise<string> {
  const { spawn } = await import('node:child_process');
  const out = join(dir, 'recording.gif');
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-framerate', String(fps), '-i', join(dir, 'frame-%05d.jpg'),
    '-vf', 'split[a][b];[a]palettegen[p];[b][p]paletteuse', '-progress', 'pipe:1', '-nostats', out];
  return new Promise((resolvePromise, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      for (const match of chunk.toString().matchAll(/^frame=(\d+)$/gm)) {
        process.stderr.write(`chrome-relay: encoding GIF: frame ${match[1]}/${frameCount}\n`);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', (error) => reject(error));
    child.on('close', (code) => {
      if (code === 0) resolvePromise(out);
      else reject(new RelayError('external_dependency_missing', `ffmpeg failed to encode the GIF (exit ${code}): ${errors.trim().slice(0, 500)}. The frames are in ${dir}.`, {
        phase: 'cli',
        details: { dependency: 'ffmpeg', exitCode: code, framesDir: dir },
      }));
    });
  });
}

export function registerObserveCommands(program: Command): void {
  targetOptions(program.command('screenshot'))
    .description('Capture the tab (or --full page, or one element by ref or --selector) to a PNG/JPEG file; prints the path.')
    .argument('[element]', 'element ref from snapshot (@e12), scrolled into view')
    .option('-o, --out <file>', 'write here (default: a new file under the temp dir)')
    .option('--full', 'the whole scrollable page')
    .option('--selector <css>', 'capture one element, scrolled into view')
    .option('--max-edge <px>', 'scale down so the longer edge is at most this', parseIntArg('max-edge', { min: 16, max: 16384 }))
    .option('--format <fmt>', 'png | jpeg (default png)', parseChoice('format', ['png', 'jpeg'] as const))
    .option('--quality <0-100>', 'JPEG quality', parseIntArg('quality', { min: 0, max: 100 }))
    .option('--base64', 'also print the image as base64 in the JSON result')
    .action(async (element: string | undefined, opts: Opts, cmd: Command) => {
      const ref = element === undefined ? undefined : parseRefArg(element, 'element');
      // Checked before the capture, so a bad path never costs a screenshot.
      const out = typeof opts.out === 'string' ? checkOutFile(opts.out) : undefined;
      const { globals, tab } = targeted(cmd);
      const shot = await call('screenshot', {
        tab,
        ref,
        full: opts.full === true ? true : undefined,
        selector: opts.selector as string | undefined,
        maxEdge: opts.maxEdge as number | undefined,
        format: opts.format as 'png' | 'jpeg' | undefined,
        quality: opts.quality as number | undefined,
      }, globals);
      const bytes = Buffer.from(shot.data, 'base64');
      const path = out ?? tempFile(`screenshot-${shot.tabId}-${Date.now()}.${shot.format === 'jpeg' ? 'jpg' : 'png'}`);
      writeOutFile(path, bytes);
      const { data, ...rest } = shot;
      printJson({ ...rest, path, bytes: bytes.length, ...(opts.base64 === true ? { base64: data } : {}) });
    });

  const record = program.command('record').description('Record the tab as screencast frames, and a GIF through ffmpeg.');
  targetOptions(record.command('start'))
    .description('Start recording the tab (frames are kept in the browser until `record stop`).')
    .option('--max-frames <n>', 'frames kept (oldest dropped; default 300)', parseIntArg('max-frames', { min: 1, max: 1000 }))
    .option('--quality <1-100>', 'JPEG quality of each frame (default 70)', parseIntArg('quality', { min: 1, max: 100 }))
    .action(async (opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      printJson(await call('record_start', { tab, maxFrames: opts.maxFrames as number | undefined, quality: opts.quality as number | undefined }, globals));
    });
  targetOptions(record.command('stop'))
    .description('Stop recording and write frame-NNNNN.jpg files to --out; --gif also encodes recording.gif with ffmpeg.')
    .requiredOption('--out <dir>', 'directory for the frames (created if missing)')
    .option('--gif', 'encode recording.gif with ffmpeg (omit it to keep frames only, without ffmpeg)')
    .option('--fps <n>', 'GIF frame rate (default 10)', parseIntArg('fps', { min: 1, max: 60 }))
    .action(async (opts: Opts, cmd: Command) => {
      // Before stopping: the frames live only in the browser until then, and a bad --out must not lose them.
      const dir = prepareOutDir(String(opts.out));
      const { globals, tab } = targeted(cmd);
      const gif = opts.gif === true;
      if (gif && !(await hasFfmpeg())) {
        throw new RelayError('external_dependency_missing', 'ffmpeg is not installed, so no GIF can be made. Install ffmpeg, or run `record stop` without --gif to keep the frames only. The recording is still running.', {
          phase: 'cli',
          details: { dependency: 'ffmpeg', skipFlag: 'omit --gif' },
        });
      }
      const stopped = await call('record_stop', { tab }, globals);
      stopped.frames.forEach((frame, i) => writeOutFile(join(dir, `frame-${String(i + 1).padStart(5, '0')}.jpg`), Buffer.from(frame.data, 'base64')));
      const result: Record<string, unknown> = { tabId: stopped.tabId, dir, frames: stopped.frames.length, dropped: stopped.dropped };
      if (gif) {
        if (stopped.frames.length === 0) throw new RelayError('invalid_arguments', 'The recording has no frames (nothing changed on screen), so there is no GIF to make.', { phase: 'cli', details: { field: 'gif', dir } });
        result.gif = await encodeGif(dir, stopped.frames.length, (opts.fps as number | undefined) ?? 10);
      }
      printJson(result);
    });

  targetOptions(program.command('console'))
    .description('Console messages and uncaught exceptions of the tab (captured since chrome-relay attached to it).')
    .option('--level <level>', 'this level and more severe: debug | log | info | warn | error', parseChoice('level', ['debug', 'log', 'info', 'warn', 'error'] as const))
    .option('--since <id>', 'only entries after this id', parseIntArg('since', { min: 0 }))
    .option('--clear', 'empty the buffer after reading')
    .action(async (opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      printJson(await call('console', {
        tab,
        level: opts.level as 'debug' | 'log' | 'info' | 'warn' | 'error' | undefined,
        since: opts.since as number | undefined,
        clear: opts.clear === true ? true : undefined,
      }, globals));
    });

  const network = targetOptions(program.command('network'))
    .description('Requests of the tab (captured since chrome-relay attached to it); sensitive headers redacted.')
    .option('--url <text>', 'only URLs containing this')
    .option('--status <s>', '404, 4xx, failed or pending')
    .option('--method <m>', 'HTTP method')
    .option('--raw-headers', 'do not redact Cookie, Set-Cookie, Authorization, tokens …')
    .action(async (opts: Opts, cmd: Command) => {
      const { globals, tab } = targeted(cmd);
      printJson(await call('network', {
        tab,
        url: opts.url as string | undefined,
        status: opts.status as string | undefined,
        method: opts.method as string | undefined,
        rawHeaders: opts.rawHeaders === true ? true : undefined,
      }, globals));
    });
  targetOptions(network.command('body'))
    .description('Response body of one captured request (id from `chrome-relay network`).')
    .argument('<id>', 'request id')
    .option('-o, --out <file>', 'write the (decoded) body to this file instead of printing it')
    .action(async (id: string, opts: Opts, cmd: Command) => {
      const out = typeof opts.out === 'string' ? checkOutFile(opts.out) : undefined;
      const { globals, tab } = targeted(cmd);
      const body = await call('network_body', { tab, id }, globals);
      if (out !== undefined) {
        writeOutFile(out, Buffer.from(body.body, body.base64Encoded ? 'base64' : 'utf8'));
        printJson({ tabId: body.tabId, id: body.id, mimeType: body.mimeType, path: out });
      } else printJson(body);
    });
  targetOptions(network.command('har'))
    .description('Write the captured requests as a HAR 1.2 file.')
    .requiredOption('-o, --out <file>', 'HAR file to write')
    .option('--raw-headers', 'do not redact sensitive headers')
    .action(async (opts: Opts, cmd: Command) => {
      const path = checkOutFile(String(opts.out));
      const { globals, tab } = targeted(cmd);
      const har = await call('network_har', { tab, rawHeaders: opts.rawHeaders === true ? true : undefined }, globals);
      writeOutFile(path, `${JSON.stringify(har.har, null, 2)}\n`);
      printJson({ tabId: har.tabId, entries: har.entries, path });
    });

  registerOrganizeCommands(program);
}

/** Workspace and group management acts on no tab: a target flag is refused, not ignored. */
const plainGlobals = untargeted;

function requireAgent(globals: TargetedGlobals, what: string): string {
  if (globals.agent === undefined) {
    throw cliError('invalid_arguments', `${what} needs an agent identity: pass --agent NAME or set ${AGENT_ENV}.`, { field: 'agent' });
  }
  return globals.agent;
}

/**
 * What a lease command is about: its --tab/--workspace, typed before or after the command name
 * (the same rule as every target, callTarget.ts). A --group does not name a lease.
 */
function leaseTarget(cmd: Command): { globals: TargetedGlobals; tab: number | undefined; workspace: string | undefined } {
  const { globals, tab } = targeted(cmd);
  if (globals.target?.group !== undefined) throw cliError('invalid_arguments', 'A lease is on a tab or a workspace, not a group: give --tab <id> or --workspace <name>.', { field: 'group' });
  return { globals: { ...globals, target: undefined }, tab, workspace: globals.target?.workspace };
}

const tabsArg = (raw: string, previous: number[] = []): number[] => [...previous, parseTab(raw)];

function registerOrganizeCommands(program: Command): void {
  const workspace = program.command('workspace').description('Named, unfocused windows for agents (never take the human\'s focus).');
  workspace
    .command('create')
    .argument('<name>', 'workspace name')
    .option('--url <url>', 'first page (default about:blank)')
    .description('Open an unfocused window named <name>; with an agent identity, it is leased to that agent.')
    .action(async (name: string, opts: Opts, cmd: Command) => {
      const globals = plainGlobals(cmd);
      printJson(await call('workspace_create', { name, url: opts.url as string | undefined, agent: globals.agent }, globals));
    });
  workspace.command('list').description('List live workspaces.').action(async (_opts: Opts, cmd: Command) => {
    printJson(await call('workspace_list', {}, plainGlobals(cmd)));
  });
  workspace.command('close').argument('<name>', 'workspace name').description('Close the workspace window and its tabs.').action(async (name: string, _opts: Opts, cmd: Command) => {
    const globals = plainGlobals(cmd);
    printJson(await call('workspace_close', { name, agent: globals.agent }, globals));
  });

  const group = program.command('group').description('Native tab groups, by name.');
  const colors = ['grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange'] as const;
  group
    .command('create')
    .argument('<name>', 'group name')
    .argument('<tabs...>', 'tab ids')
    .option('--color <color>', colors.join(' | '), parseChoice('color', colors))
    .option('--allow-partial', 'group the tabs that can be grouped and list the others')
    .description('Group tabs under a new name (all or nothing unless --allow-partial).')
    .action(async (name: string, tabs: string[], opts: Opts, cmd: Command) => {
      const globals = plainGlobals(cmd);
      printJson(await call('group_create', { name, tabs: tabs.reduce<number[]>((acc, t) => tabsArg(t, acc), []), color: opts.color as (typeof colors)[number] | undefined, allowPartial: opts.allowPartial === true ? true : undefined, agent: globals.agent }, globals));
    });
  group
    .command('add')
    .argument('<name>', 'group name')
    .argument('<tabs...>', 'tab ids')
    .option('--allow-partial', 'add the tabs that can be added and list the others')
    .description('Add tabs to a named group (all or nothing unless --allow-partial).')
    .action(async (name: string, tabs: string[], opts: Opts, cmd: Command) => {
      const globals = plainGlobals(cmd);
      printJson(await call('group_add', { name, tabs: tabs.reduce<number[]>((acc, t) => tabsArg(t, acc), []), allowPartial: opts.allowPartial === true ? true : undefined, agent: globals.agent }, globals));
    });
  group.command('list').description('List tab groups.').action(async (_opts: Opts, cmd: Command) => {
    printJson(await call('group_list', {}, plainGlobals(cmd)));
  });
  group
    .command('close')
    .argument('<name>', 'group name')
    .option('--allow-partial', 'close the tabs that can be closed and list the others')
    .description('Close every tab of the group (all or nothing unless --allow-partial).')
    .action(async (name: string, opts: Opts, cmd: Command) => {
      const globals = plainGlobals(cmd);
      printJson(await call('group_close', { name, allowPartial: opts.allowPartial === true ? true : undefined, agent: globals.agent }, globals));
    });

  const lease = program.command('lease').description('Per-agent leases on tabs and workspaces (expire after --ttl seconds idle).');
  lease
    .command('claim')
    .option('--tab <id>', 'tab to lease', parseTab)
    .option('--workspace <name>', 'workspace to lease')
    .option('--ttl <seconds>', 'idle seconds before the lease expires (default 600)', parseIntArg('ttl', { min: 1, max: 86_400 }))
    .description('Claim a tab or workspace for your agent (--agent or CHROME_RELAY_AGENT).')
    .action(async (opts: Opts, cmd: Command) => {
      const { globals, tab, workspace } = leaseTarget(cmd);
      const agent = requireAgent(globals, 'lease claim');
      printJson(await call('lease_claim', { agent, tab, workspace, ttlSec: opts.ttl as number | undefined }, globals));
    });
  lease.command('list').description('List live leases.').action(async (_opts: Opts, cmd: Command) => {
    printJson(await call('lease_list', {}, plainGlobals(cmd)));
  });
  lease
    .command('release')
    .option('--tab <id>', 'tab to release', parseTab)
    .option('--workspace <name>', 'workspace to release')
    .option('--all', 'every lease of your agent')
    .option('--force', "release it whoever holds it (a person freeing a stuck agent's tab); with --tab or --workspace, no identity needed")
    .description('Release your lease on a tab or workspace, or all of them; --force frees another agent\'s.')
    .addHelpText('after', '\nExample:\n  $ chrome-relay lease release --all\n  $ chrome-relay lease release --tab 123 --force\n')
    .action(async (opts: Opts, cmd: Command) => {
      const { globals, tab, workspace } = leaseTarget(cmd);
      const force = opts.force === true;
      const agent = force ? globals.agent : requireAgent(globals, 'lease release');
      printJson(await call('lease_release', { agent, tab, workspace, all: opts.all === true ? true : undefined, force: force ? true : undefined }, globals));
    });
}

