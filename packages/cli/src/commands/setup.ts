/** Commands for humans setting up: launch, install, doctor, extension path. */
import type { Command } from 'commander';
import { RelayError } from '@chrome-relay/protocol';
import { parseTimeout } from '../args.js';
import { renderChecks, runDoctor } from '../doctor.js';
import { resolveGlobals } from '../globalOptions.js';
import { allowedExtensionIds, install, linuxTargets, profileTarget } from '../install.js';
import { launch } from '../launch.js';
import { printJson, printText } from '../output.js';
import { bundledExtensionDir } from '../paths.js';

type Opts = Record<string, unknown>;
const example = (...lines: string[]): string => `\nExample:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerSetupCommands(program: Command): void {
  program
    .command('launch')
    .description('Start Chromium on a dedicated profile with the chrome-relay extension and host; returns once connected.')
    .argument('[url]', 'page to open first')
    .option('--browser <path>', 'browser executable (default: Chromium found on this machine)')
    .option('--user-data-dir <dir>', 'profile directory (default: $CHROME_RELAY_HOME/profiles/default)')
    .option('--headless', 'run without a window (headless=new)')
    .option('--launch-timeout <ms>', 'how long to wait for the extension to connect (default 30000)', parseTimeout)
    .option('--browser-arg <arg>', 'extra browser flag (repeatable)', collect, [])
    .addHelpText('after', example('chrome-relay launch', 'chrome-relay launch --headless https://example.com'))
    .action(async (url: string | undefined, opts: Opts, cmd: Command) => {
      const globals = resolveGlobals(cmd.optsWithGlobals());
      printJson(
        await launch({
          home: globals.home,
          browser: opts.browser as string | undefined,
          userDataDir: opts.userDataDir as string | undefined,
          headless: opts.headless === true,
          url,
          browserArgs: opts.browserArg as string[],
          timeoutMs: (opts.launchTimeout as number | undefined) ?? 30_000,
        }),
      );
    });

  program
    .command('install')
    .description('Register the native host for Chrome and Chromium (or one profile with --user-data-dir).')
    .option('--user-data-dir <dir>', 'register only for this profile directory')
    .option('--browser <name>', 'chrome | chromium')
    .addHelpText('after', example('chrome-relay install', 'chrome-relay install --user-data-dir ~/relay-profile'))
    .action(async (opts: Opts, cmd: Command) => {
      const globals = resolveGlobals(cmd.optsWithGlobals());
      const browser = opts.browser as string | undefined;
      const all = linuxTargets();
      const targets = opts.userDataDir ? [profileTarget(opts.userDataDir as string)] : browser ? all.filter((t) => t.browser === browser) : all;
      if (targets.length === 0) {
        throw new RelayError('invalid_arguments', `browser: must be one of ${all.map((t) => t.browser).join(', ')}, got "${browser ?? ''}"`, { tool: 'install', phase: 'cli', details: { field: 'browser' } });
      }
      const result = install(globals.home, targets, allowedExtensionIds());
      if (result.failed.length > 0) {
        throw new RelayError('partial_success_disallowed', `Could not write ${result.failed.length} of ${targets.length} host manifest(s); fix the permissions named in details.failed and run install again.`, {
          tool: 'install',
          phase: 'act',
          details: { ...result },
        });
      }
      printJson(result);
    });

  program
    .command('doctor')
    .description('Check the whole path (manifest, host, extension, versions); each failing line names its fix.')
    .addHelpText('after', example('chrome-relay doctor', 'chrome-relay doctor --json'))
    .action(async (_opts: Opts, cmd: Command) => {
      const globals = resolveGlobals(cmd.optsWithGlobals());
      const checks = await runDoctor(globals.home, globals.profile);
      const failed = checks.filter((c) => c.status === 'fail');
      if (globals.json) printJson({ healthy: failed.length === 0, checks });
      else printText(renderChecks(checks));
      const first = failed[0];
      if (first) {
        throw new RelayError(first.code ?? 'extension_not_connected', `doctor: ${failed.length} check(s) failed; first: ${first.name}: ${first.detail}. Fix: ${first.fix ?? 'see above'}`, {
          tool: 'doctor',
          phase: 'verify',
          details: { failed: failed.map((c) => c.name) },
        });
      }
    });

  const extension = program.command('extension').description('Where the unpacked extension lives (to load it in chrome://extensions).');
  extension
    .command('path')
    .description('Print the directory of the built unpacked extension.')
    .addHelpText('after', example('chrome-relay extension path'))
    .action(() => {
      printText(bundledExtensionDir());
    });
}
