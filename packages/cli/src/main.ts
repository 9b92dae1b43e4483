/**
 * Entry point. Exit codes: 0 success, 1 any failure (with the relayError block on stderr).
 * Commander's own usage errors are mapped onto invalid_arguments so agents see one contract.
 *
 * No command (bare `chrome-relay`, `chrome-relay --tab 5`, or a group without its subcommand such as
 * `chrome-relay lease`): like `git` alone, the usage goes to stdout and the exit code is 1 — nothing
 * happened, so it is an invalid_arguments failure (field `command`) that an agent can branch on.
 * `--help` and `help [command]` are what was asked for: usage on stdout, exit 0.
 *
 * A reader that stops early (`chrome-relay snapshot | head -5`) leaves the command quiet (output.ts).
 */
import { CommanderError, type Command } from 'commander';
import { commandOf, oneLine, RelayError } from '@chrome-relay/protocol';
import { exitWith } from './exit.js';
import { printError, stderr, stdout } from './output.js';
import { buildProgram, toolOf } from './program.js';

async function main(argv: string[]): Promise<number> {
  // Hand-written commands (setup, doctor) also write to the streams directly.
  stdout();
  stderr();
  const program = buildProgram(argv);
  const tool = toolOf(argv);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      if (error.code === 'commander.help') {
        if (error.exitCode === 0) return 0;
        printError(missingCommand(program, tool), tool);
        return 1;
      }
      // Commander puts "(Did you mean …?)" on a line of its own; the contract is one human line.
      const message = oneLine(error.message.replace(/^error: /, ''));
      const helpFor = tool && error.code !== 'commander.unknownCommand' ? `${commandOf(tool)} ` : '';
      const field = error.code === 'commander.unknownCommand' ? 'command' : fieldOf(message);
      printError(new RelayError('invalid_arguments', `${message} (see \`chrome-relay ${helpFor}--help\`)`, { tool, phase: 'cli', details: { field, commander: error.code } }), tool);
      return 1;
    }
    printError(error, tool);
    return 1;
  }
}

/** Commander printed the usage of the level that lacks a command (program.ts routes it to stdout). */
function missingCommand(program: Command, tool: string): RelayError {
  const group = tool ? program.commands.find((c) => c.name() === tool) : undefined;
  if (group === undefined) {
    return new RelayError('invalid_arguments', 'No command given: the commands are listed above (`chrome-relay --help`); start with `chrome-relay snapshot`.', {
      phase: 'cli',
      details: { field: 'command' },
    });
  }
  const subcommands = group.commands.map((c) => c.name()).filter((name) => name !== 'help');
  return new RelayError('invalid_arguments', `\`${tool}\` needs a subcommand: ${subcommands.join(', ')} (usage above; \`chrome-relay ${tool} --help\`).`, {
    tool,
    phase: 'cli',
    details: { field: 'command', commands: subcommands },
  });
}

/** Pull the option or argument name out of a commander message, so details.field names it. */
function fieldOf(message: string): string {
  const option = /'(--?[\w-]+)/.exec(message);
  if (option?.[1]) return option[1].replace(/^-+/, '');
  const arg = /argument '([\w-]+)'/.exec(message);
  return arg?.[1] ?? '';
}

exitWith(main(process.argv));
