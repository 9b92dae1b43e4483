/** The `batch` command: steps as JSON on stdin (see batch.ts). Exit 1 when any step failed. */
import type { Command } from 'commander';
import { RelayError } from '@chrome-relay/protocol';
import { parseBatch, processRunner, runBatch } from '../batch.js';
import { commandIndexOf } from '../argvScan.js';
import { targetFlagsByPosition } from '../callTarget.js';
import { resolveGlobals } from '../globalOptions.js';
import { printJson } from '../output.js';
import { readerOf } from '../present.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The global options typed before `batch`, handed to every step. */
function globalArgsBefore(argv: readonly string[]): string[] {
  return argv.slice(2, commandIndexOf(argv));
}

export function registerBatchCommand(program: Command): void {
  program
    .command('batch')
    .description('Run several commands from a JSON array on stdin, in order; stop at the first failure unless --no-bail.')
    .option('--no-bail', 'run every step even after a failure')
    .addHelpText('after', '\nExample:\n  $ echo \'[{"command":"navigate","args":["https://example.com"]},{"command":"snapshot"}]\' | chrome-relay batch\n')
    .action(async (opts: { bail: boolean }, cmd: Command) => {
      if (process.stdin.isTTY) throw new RelayError('invalid_arguments', 'batch reads a JSON array of steps on stdin; pipe it in.', { phase: 'cli', details: { field: 'stdin' } });
      const steps = parseBatch(await readStdin());
      const cli = process.argv[1] ?? '';
      // A target typed before `batch` applies to every step: command steps get it in front of their
      // own arguments, tool steps as the call's envelope target (the extension treats both alike).
      const globals = { ...resolveGlobals(cmd.optsWithGlobals()), target: targetFlagsByPosition(process.argv).before };
      const outcome = await runBatch(steps, opts.bail, processRunner(cli, globalArgsBefore(process.argv), globals));
      // Every step's own answer inside one document: indented for --json or a person, one line for a program.
      printJson(outcome, readerOf(globals.json) === 'line' ? 0 : 2);
      // The failing step's own error becomes the batch's error block (and exit code 1).
      const failed = outcome.results.find((r) => !r.ok)?.error;
      if (failed) throw RelayError.fromData(failed);
    });
}
