/**
 * Entry point. Exit codes: 0 success, 1 any failure (with the relayError block on stderr).
 * Commander's own usage errors are mapped onto invalid_arguments so agents see one contract.
 */
import { CommanderError } from 'commander';
import { RelayError } from '@chrome-relay/protocol';
import { printError } from './output.js';
import { buildProgram } from './program.js';

async function main(argv: string[]): Promise<number> {
  const program = buildProgram(argv);
  const tool = argv[2] && !argv[2].startsWith('-') ? argv[2] : '';
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
      const message = error.message.replace(/^error: /, '');
      const helpFor = tool && error.code !== 'commander.unknownCommand' ? `${tool} ` : '';
      printError(new RelayError('invalid_arguments', `${message} (see \`chrome-relay ${helpFor}--help\`)`, { tool, phase: 'cli', details: { field: fieldOf(message), commander: error.code } }), tool);
      return 1;
    }
    printError(error, tool);
    return 1;
  }
}

/** Pull the option or argument name out of a commander message, so details.field names it. */
function fieldOf(message: string): string {
  const option = /'(--?[\w-]+)/.exec(message);
  if (option?.[1]) return option[1].replace(/^-+/, '');
  const arg = /argument '([\w-]+)'/.exec(message);
  return arg?.[1] ?? '';
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    printError(error, '');
    process.exitCode = 1;
  },
);
