/** The command tree. Commands live in commands/<group>.ts; this file only assembles them. */
import { Command } from 'commander';
import { VERSION } from '@chrome-relay/protocol';
import { parseTab, parseTimeout } from './args.js';
import { registerActionCommands } from './commands/actions.js';
import { registerBrowserCommands } from './commands/browser.js';
import { registerElementCommands } from './commands/elements.js';
import { registerSetupCommands } from './commands/setup.js';
import { registerObserveCommands } from './commands/observe.js';
import { registerBatchCommand } from './commands/batch.js';
import { registerAliases } from './aliases.js';

export function buildProgram(): Command {
  const program = new Command('chrome-relay')
    .description('Drive your real, logged-in Chrome from the shell: snapshot → refs → click.')
    .version(VERSION, '-V, --version')
    .option('--profile <user-data-dir>', 'talk to the browser running this profile (when several are connected)')
    .option('--timeout <ms>', 'deadline for the whole call (default 30000)', parseTimeout)
    .option('--json', 'JSON output everywhere (snapshot prints text otherwise)')
    .option('--agent <name>', 'agent identity for leases (default: $CHROME_RELAY_AGENT)')
    .option('--tab <id>', 'act in this tab (a command\'s own --tab replaces it)', parseTab)
    .option('--workspace <name>', 'act in this workspace\'s tab')
    .option('--group <name>', 'act in this tab group\'s tab')
    .showHelpAfterError(false)
    .exitOverride();
  registerBrowserCommands(program);
  registerActionCommands(program);
  registerElementCommands(program);
  registerSetupCommands(program);
  registerObserveCommands(program);
  registerBatchCommand(program);
  registerAliases(program);
  for (const cmd of program.commands) cmd.exitOverride();
  return program;
}
