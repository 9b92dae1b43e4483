/** The command tree. Commands live in commands/<group>.ts; this file only assembles them. */
import { Command } from 'commander';
import { isToolName, VERSION } from '@chrome-relay/protocol';
import { parseTab, parseTimeout } from './args.js';
import { VALUE_OPTIONS } from './callTarget.js';
import { registerActionCommands } from './commands/actions.js';
import { registerBrowserCommands } from './commands/browser.js';
import { registerElementCommands } from './commands/elements.js';
import { registerSetupCommands } from './commands/setup.js';
import { registerObserveCommands } from './commands/observe.js';
import { registerBatchCommand } from './commands/batch.js';
import { registerAliases } from './aliases.js';

/**
 * Which top-level commands each group registers. A run registers only the group its command belongs to:
 * building all ~50 commands with commander cost ~12 ms of every start-up. `--help`, no command or an unknown
 * one registers everything (so help and "unknown command" list it all). program.test.ts keeps this in sync.
 */
export const COMMAND_GROUPS: readonly { readonly names: readonly string[]; readonly register: (program: Command) => void }[] = [
  { names: ['tabs', 'navigate', 'snapshot', 'click', 'status'], register: registerBrowserCommands },
  { names: ['keys', 'type', 'back', 'forward', 'reload', 'close', 'wait', 'get', 'js', 'dialog', 'download'], register: registerActionCommands },
  { names: ['fill', 'focus', 'hover', 'check', 'uncheck', 'select', 'scroll', 'drag', 'upload'], register: registerElementCommands },
  { names: ['launch', 'setup', 'install', 'uninstall', 'update', 'reconnect', 'doctor', 'skill', 'extension'], register: registerSetupCommands },
  { names: ['screenshot', 'record', 'console', 'network', 'workspace', 'group', 'lease'], register: registerObserveCommands },
  { names: ['batch'], register: registerBatchCommand },
  { names: ['read', 'ax', 'click-ax'], register: registerAliases },
];

/** The command name in argv (after any program-level options), if any. */
export function commandNameOf(argv: readonly string[]): string | undefined {
  for (let i = 2; i < argv.length; i++) {
    const token = argv[i] ?? '';
    if (token === '--') return undefined;
    if (!token.startsWith('-')) return token;
    if (VALUE_OPTIONS.has(token)) i++;
  }
  return undefined;
}

/**
 * The tool an error block names: the command, found after any program-level options; for a group
 * command the protocol tool it runs (`record stop` → record_stop), as the call's own errors name it.
 */
export function toolOf(argv: readonly string[]): string {
  const name = commandNameOf(argv);
  if (name === undefined) return '';
  const sub = argv[argv.indexOf(name, 2) + 1];
  return sub !== undefined && isToolName(`${name}_${sub}`) ? `${name}_${sub}` : name;
}

export function buildProgram(argv: readonly string[] = []): Command {
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
    // Commander's own "error: …" line would precede our one-line contract; main.ts prints the error instead.
    // The only other thing commander writes to stderr is the usage of a level given no command: it goes to
    // stdout, like `git` alone (main.ts then fails with invalid_arguments, field command).
    // Set before the subcommands exist: commander copies output settings into each at creation.
    .configureOutput({ outputError: () => undefined, writeErr: (text) => process.stdout.write(text) })
    .exitOverride();
  const name = commandNameOf(argv);
  const needed = COMMAND_GROUPS.filter((group) => name !== undefined && group.names.includes(name));
  for (const group of needed.length > 0 ? needed : COMMAND_GROUPS) group.register(program);
  for (const cmd of program.commands) cmd.exitOverride();
  return program;
}
