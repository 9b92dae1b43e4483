/** The command tree. Commands live in commands/<group>.ts; this file only assembles them. */
import { Command } from 'commander';
import { VERSION } from '@chrome-relay/protocol';
import { parseTimeout } from './args.js';
import { registerBrowserCommands } from './commands/browser.js';
import { registerElementCommands } from './commands/elements.js';
import { registerSetupCommands } from './commands/setup.js';

export function buildProgram(): Command {
  const program = new Command('chrome-relay')
    .description('Drive your real, logged-in Chrome from the shell: snapshot → refs → click.')
    .version(VERSION, '-V, --version')
    .option('--profile <user-data-dir>', 'talk to the browser running this profile (when several are connected)')
    .option('--timeout <ms>', 'deadline for the whole call (default 30000)', parseTimeout)
    .option('--json', 'JSON output everywhere (snapshot prints text otherwise)')
    .showHelpAfterError(false)
    .exitOverride();
  registerBrowserCommands(program);
  registerElementCommands(program);
  registerSetupCommands(program);
  for (const cmd of program.commands) cmd.exitOverride();
  return program;
}
