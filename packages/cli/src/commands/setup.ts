/** Commands for humans setting up and maintaining: launch, stop, setup, install, uninstall, update, reconnect, doctor, skill, extension path. */
import { homeRefusal } from '../homeTrust.js';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { reasonedError, RelayError, VERSION } from '@chrome-relay/protocol';
import { collectValues, parseTimeout } from '../args.js';
import { browserEnvFromProcess, browserNames, type BrowserEnv } from '../browsers.js';
import { renderReport, runDoctor, unhealthyError } from '../doctor.js';
import { runEndpointDoctor } from '../remote/doctorLink.js';
import { commandPath, targetNotApplicable } from '../callTarget.js';
import { resolveGlobals } from '../globalOptions.js';
import { allowedExtensionIds, installOrThrow, parseExtensionId, resolveInstallTargets } from '../install.js';
import { currentPlatform } from '@chrome-relay/host-files';
import { launch, type LaunchResult } from '../launch.js';
import { launchedStates, readLaunchRecords, stopLaunched, type LaunchRecord, type StoppedBrowser } from '../launched.js';
import { present } from '../present.js';
import { printJson, printText } from '../output.js';
import { installExtension } from '../extensionFolder.js';
import { defaultProfileDir } from '../paths.js';
import { renderSkill } from '../skill.js';
import { uninstall, type UninstallResult } from '../uninstall.js';
import { reconnect } from '../reconnect.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, runSetup, type SetupResult } from '../setup.js';
import { realSetupDeps } from '../setupRuntime.js';
import { reloadAdvice, update } from '../update.js';

type Opts = Record<string, unknown>;
const example = (...lines: string[]): string => `\nExample:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
const collectExtensionId = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), parseExtensionId(value)];
const listOption = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const envOfProcess = (): BrowserEnv => browserEnvFromProcess(homedir());
const REARM_TIMEOUT_MS = 5000;
/** Profiles are recorded by their real path (launch resolves them so). */
const realPathOr = (dir: string): string => {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
};
const onTerminal = (): boolean => process.stdin.isTTY === true && process.stdout.isTTY === true;

/** Guided setup (setup.ts): a terminal gets the walk-through; anything else the JSON result. */
async function guidedSetup(opts: Opts, cmd: Command): Promise<void> {
  const globals = resolveGlobals(cmd.optsWithGlobals());
  const interactive = onTerminal() && !globals.json;
  const result: SetupResult = await runSetup(
    realSetupDeps({
      home: globals.home,
      browsers: listOption(opts.browser),
      userDataDir: opts.userDataDir as string | undefined,
      extensionIds: allowedExtensionIds(process.env, listOption(opts.extensionId)),
      browserEnv: envOfProcess(),
      wait: opts.wait === true,
      timeoutMs: (opts.connectTimeout as number | undefined) ?? DEFAULT_CONNECT_TIMEOUT_MS,
      interactive,
    }),
  );
  if (!interactive) present({ ...result }, globals.json);
  const failure = result.doctor ? unhealthyError(result.doctor) : null;
  if (failure) throw failure;
}

/**
 * What `stop` ends: --all, every record; --user-data-dir, that profile's; alone, the one browser launch started from
 * this home (with the records of browsers no longer running, which it only cleans up) — and when several run, a
 * closed code naming them, never a guess.
 */
function stopTargets(home: string, opts: Opts, platform: ReturnType<typeof currentPlatform>): LaunchRecord[] {
  const records = readLaunchRecords(home);
  if (opts.all === true) return records;
  if (typeof opts.userDataDir === 'string') {
    const profile = realPathOr(resolve(opts.userDataDir));
    return records.filter((r) => r.profile === profile);
  }
  const running = launchedStates(home, platform).filter((state) => state.browserRunning);
  if (running.length > 1) {
    const named = running.map((state) => `${state.profile} (pid ${state.browserPid})`).join(', ');
    throw reasonedError(
      'target_conflict',
      'several_launched',
      `${running.length} browsers \`chrome-relay launch\` started from this home are running: ${named}. Name one with \`chrome-relay stop --user-data-dir <profile>\`, or stop them all with \`chrome-relay stop --all\`.`,
      { tool: 'stop', phase: 'cli', details: { profiles: running.map((state) => state.profile), pids: running.map((state) => state.browserPid) } },
    );
  }
  return records;
}

function launchedText(launched: LaunchResult): string {
  const how = launched.headless === null ? '' : launched.headless ? ' headless' : ' with a window';
  const head = `${launched.alreadyRunning ? 'already running' : 'started'}: ${launched.browser}${how} (pid ${launched.pid}), profile ${launched.profile}${launched.xvfb === null ? '' : ` on display ${launched.xvfb.display}`}`;
  return [head, ...(launched.note === undefined ? [] : [launched.note]), `stop it with: ${launched.stop}`].join('\n');
}

function installedText(manifests: readonly string[], extension: string): string {
  return [...manifests.map((m) => `registered the host: ${m}`), `extension folder to load in chrome://extensions: ${extension}`].join('\n');
}

function uninstalledText(result: UninstallResult): string {
  if (result.nothingInstalled) return 'nothing was installed: nothing removed';
  return [...result.removed.map((path) => `removed ${path}`), ...result.kept.map((k) => `kept ${k.path}: ${k.reason}`)].join('\n');
}

function stoppedText(result: { stopped: StoppedBrowser[]; running?: string }): string {
  if (result.stopped.length === 0) return result.running ?? 'nothing to stop';
  return result.stopped.map((s) => `${s.browser === 'stopped' ? 'stopped' : s.browser} the browser of ${s.profile} (pid ${s.browserPid})${s.xvfb === null ? '' : `, display ${s.xvfb.display} ${s.xvfb.outcome}`}`).join('\n');
}

const TAB_TARGET_FLAGS = ['tab', 'workspace', 'group'] as const;

/**
 * Setup commands act on no tab, so a program-level --tab/--workspace/--group before them is a mistake the
 * agent should hear about (`--tab` means the same wherever it is written), never a flag quietly dropped.
 */
function refuseTabTargets(_hooked: Command, running: Command): void {
  const raw = running.optsWithGlobals();
  const given = TAB_TARGET_FLAGS.find((flag) => raw[flag] !== undefined);
  if (given !== undefined) throw targetNotApplicable(commandPath(running), given);
}

export function registerSetupCommands(program: Command): void {
  const before = new Set(program.commands);
  registerEach(program);
  for (const command of program.commands) if (!before.has(command)) command.hook('preAction', refuseTabTargets);
}

function registerEach(program: Command): void {
  program
    .command('launch')
    .description('Start Chromium on a dedicated profile with the chrome-relay extension and host; returns once connected.')
    .argument('[url]', 'page to open first')
    .option('--browser <path>', 'browser executable, or a macOS .app (default: Chromium or Chrome for Testing found on this machine)')
    .option('--user-data-dir <dir>', 'profile directory (default: $CHROME_RELAY_HOME/profiles/default)')
    .option('--headless', 'run without a window (headless=new)')
    .option('--launch-timeout <ms>', 'how long to wait for the extension to connect (default 30000)', parseTimeout)
    .option('--browser-arg <arg>', 'extra browser flag (repeatable)', collectValues)
    .option('--debugger-infobar', 'keep Chrome\'s "started debugging this browser" bar, as your own Chrome shows it')
    .option('--xvfb', 'draw the browser on an X display of its own (Xvfb), ended by `chrome-relay stop`; the default on Linux when there is no display')
    .addHelpText('after', example('chrome-relay launch', 'chrome-relay launch --headless https://example.com', 'chrome-relay launch --xvfb'))
    .action(async (url: string | undefined, opts: Opts, cmd: Command) => {
      const globals = resolveGlobals(cmd.optsWithGlobals());
      const launched = await launch({
          home: globals.home,
          browserEnv: envOfProcess(),
          browser: opts.browser as string | undefined,
          userDataDir: opts.userDataDir as string | undefined,
          headless: opts.headless === true,
          url,
          browserArgs: listOption(opts.browserArg),
          timeoutMs: (opts.launchTimeout as number | undefined) ?? 30_000,
          debuggerInfobar: opts.debuggerInfobar === true,
          xvfb: opts.xvfb === true,
        });
      present({ ...launched }, globals.json, () => launchedText(launched));
    });

  program
    .command('stop')
    .description('End what `chrome-relay launch` started: the browser, its host, and the X display launch started for it. Alone it stops the one browser launched from this home (several running: name one, or --all). Browsers chrome-relay did not start are never touched.')
    .option('--user-data-dir <dir>', 'the profile launch was given')
    .option('--all', 'every browser launch started from this home')
    .addHelpText('after', example('chrome-relay stop', 'chrome-relay stop --user-data-dir ~/relay-profile', 'chrome-relay stop --all'))
    .action(async (opts: Opts, cmd: Command) => {
      const globals = resolveGlobals(cmd.optsWithGlobals());
      const platform = currentPlatform();
      const chosen = stopTargets(globals.home, opts, platform);
      const stopped: StoppedBrowser[] = [];
      for (const record of chosen) {
        stopped.push(await stopLaunched(globals.home, record, { platform, kill: (pid, signal) => process.kill(pid, signal), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) }));
      }
      const survivors = stopped.filter((s) => s.browser === 'still running' || s.xvfb?.outcome === 'still running');
      if (survivors.length > 0) {
        throw new RelayError('partial_success_disallowed', `Could not end ${survivors.map((s) => `the browser of ${s.profile} (pid ${s.browserPid})`).join(', ')}: it survived SIGKILL. Run \`chrome-relay stop\` again; the record is kept.`, {
          tool: 'stop',
          phase: 'act',
          details: { applied: stopped.filter((s) => !survivors.includes(s)), failed: survivors },
        });
      }
      const result = { stopped, ...(chosen.length === 0 ? { running: `nothing \`chrome-relay launch\` started is recorded${typeof opts.userDataDir === 'string' ? ' for this profile' : ' in this home'} (\`chrome-relay status\` shows what runs)` } : {}) };
      present(result, globals.json, () => stoppedText(result));
    });

  program
    .command('setup')
    .description('Guided setup for your own browser: register the host, show the extension folder and the three clicks to load it (and open them in your browser), wait until it connects, then run doctor. Without a terminal: the same result as install (nothing asked).')
    .option('--browser <name>', `only this browser (repeatable): ${browserNames(envOfProcess()).join(', ')}`, collectValues)
    .option('--user-data-dir <dir>', 'register in this profile directory (a browser started with --user-data-dir reads only its own; not on Windows, where browsers read the registry)')
    .option('--extension-id <id>', 'also allow this extension id, e.g. a store build (repeatable)', collectExtensionId)
    .option('--wait', 'without a terminal, also wait for the extension to connect and run doctor')
    .option('--connect-timeout <ms>', `how long to wait for the extension (default ${DEFAULT_CONNECT_TIMEOUT_MS})`, parseTimeout)
    .addHelpText('after', example('chrome-relay setup', 'chrome-relay setup --browser chrome', 'chrome-relay setup --user-data-dir ~/relay-profile --wait --json'))
    .action(guidedSetup);

  program
    .command('install')
    .description('Register the native host for every detected Chromium-family browser (or the ones named), so the extension can reach it.')
    .option('--browser <name>', `only this browser (repeatable): ${browserNames(envOfProcess()).join(', ')}`, collectValues)
    .option('--user-data-dir <dir>', 'register in this profile directory (a browser started with --user-data-dir reads only its own; not on Windows, where browsers read the registry)')
    .option('--extension-id <id>', 'also allow this extension id, e.g. a store build (repeatable)', collectExtensionId)
    .addHelpText('after', example('chrome-relay install', 'chrome-relay install --browser brave --browser chrome', 'chrome-relay install --user-data-dir ~/relay-profile'))
    .action(async (opts: Opts, cmd: Command) => {
      const globals = resolveGlobals(cmd.optsWithGlobals());
      // A person at a terminal who typed just `install` gets the guided setup.
      if (Object.keys(opts).length === 0 && onTerminal() && !globals.json) return guidedSetup(opts, cmd);
      const targets = resolveInstallTargets({ browsers: listOption(opts.browser), userDataDir: opts.userDataDir as string | undefined }, envOfProcess(), globals.home);
      const installed = installOrThrow(globals.home, targets, allowedExtensionIds(process.env, listOption(opts.extensionId)));
      const folder = installExtension(globals.home);
      present({ ...installed, extension: { ...folder, reload: reloadAdvice(folder) } }, globals.json, () => installedText(installed.written.map((w) => w.manifest), folder.path));
    });

  program
    .command('uninstall')
    .description('Remove exactly what install wrote (manifests, host files, directories it created, the extension folder), as listed in <home>/installed.json, and say what stays and why (launched profiles, logs).')
    .option('--browser <name>', `only this browser's registration (repeatable): ${browserNames(envOfProcess()).join(', ')}, or profile for a --user-data-dir install`, collectValues)
    .addHelpText('after', example('chrome-relay uninstall', 'chrome-relay uninstall --browser brave'))
    .action((opts: Opts, cmd: Command) => {
      const globals = resolveGlobals(cmd.optsWithGlobals());
      const result = uninstall(globals.home, { browsers: listOption(opts.browser) });
      present({ ...result }, globals.json, () => uninstalledText(result));
    });

  program
    .command('update')
    .description("Install this CLI's native host and make every connected browser restart its host on it (no old host survives).")
    .option('--reconnect-timeout <ms>', 'how long each browser gets to start the new host (default 15000)', parseTimeout)
    .addHelpText('after', example('chrome-relay update', 'chrome-relay update --profile ~/relay-profile'))
    .action(async (opts: Opts, cmd: Command) => {
      const globals = resolveGlobals(cmd.optsWithGlobals());
      const updated = await update({
        home: globals.home,
        profile: globals.profile,
        timeoutMs: (opts.reconnectTimeout as number | undefined) ?? 15_000,
        extensionIds: allowedExtensionIds(process.env),
      });
      present({ ...updated }, globals.json);
    });

  program
    .command('reconnect')
    .description('Re-arm every connected browser after its extension stopped answering (calls failing with circuit_open): each host pings its extension and forwards calls again once it answers. Restarts nothing and cuts no call in flight.')
    .addHelpText('after', example('chrome-relay reconnect', 'chrome-relay reconnect --profile ~/relay-profile --timeout 10000'))
    .action(async (_opts: Opts, cmd: Command) => {
      const raw = cmd.optsWithGlobals();
      const globals = resolveGlobals(raw);
      // A ping answers in milliseconds: without an explicit --timeout, don't wait the 30 s call default.
      const timeoutMs = typeof raw.timeout === 'number' ? raw.timeout : REARM_TIMEOUT_MS;
      present({ ...(await reconnect({ home: globals.home, profile: globals.profile, timeoutMs })) }, globals.json);
    });

  program
    .command('doctor')
    .description('Check the whole path (host files, manifests per browser, stale hosts, host, extension, versions, ffmpeg); each failing line names its fix. Exit 0 only when healthy.')
    .addHelpText('after', example('chrome-relay doctor', 'chrome-relay doctor --json'))
    .action(async (_opts: Opts, cmd: Command) => {
      // A home that is not this user's own is doctor's to report (its first check), not a reason to fail before it;
      // nothing in it is used, so not an endpoint's link either.
      const globals = resolveGlobals(cmd.optsWithGlobals(), 'report');
      // With an endpoint the browser is elsewhere: check the way there, not this machine's install.
      const report =
        globals.endpoint === undefined || homeRefusal(globals.home) !== null
          ? await runDoctor({ home: globals.home, profile: globals.profile, browserEnv: envOfProcess(), pathEnv: process.env.PATH, env: process.env })
          : await runEndpointDoctor({ home: globals.home, endpoint: globals.endpoint, profile: globals.profile });
      if (globals.json) printJson(report);
      else printText(renderReport(report));
      const failure = unhealthyError(report);
      if (failure) throw failure;
    });

  program
    .command('skill')
    .description("Print the agent playbook (SKILL.md) for this binary's version: the snapshot → act loop and what to do on each error code.")
    .addHelpText('after', example('chrome-relay skill > SKILL.md'))
    .action((_opts: Opts, cmd: Command) => {
      const globals = resolveGlobals(cmd.optsWithGlobals());
      if (globals.json) printJson({ version: VERSION, skill: renderSkill() });
      else printText(renderSkill());
    });

  const extension = program.command('extension').description('Where the unpacked extension lives (to load it in chrome://extensions).');
  extension
    .command('path')
    .description("Print the extension folder to load in chrome://extensions (in chrome-relay's home, so npm upgrades and uninstalls leave it alone; made on first use).")
    .addHelpText('after', example('chrome-relay extension path'))
    .action((_opts: Opts, cmd: Command) => {
      const globals = resolveGlobals(cmd.optsWithGlobals());
      const folder = installExtension(globals.home);
      if (globals.json) printJson({ ...folder, reload: reloadAdvice(folder) });
      else printText(folder.path);
    });
}
