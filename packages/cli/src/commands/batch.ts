/** The `batch` command: steps as JSON on stdin (see batch.ts). Exit 1 when any step failed. */
import type { Command } from 'commander';
import { RelayError } from '@chrome-relay/protocol';
import { parseBatch, processRunner, runBatch } from '../batch.js';
import { commandIndexOf } from '../argvScan.js';
import { targetFlagsByPosition } from '../callTarget.js';
import { resolveGlobals } from '../globalOptions.js';
import { printJson, printText } from '../output.js';
import { batchText, toolText } from '../present.js';
import { snapshotText } from '../renderSnapshot.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The global options typed before `batch`, handed to every step; --json typed after it too (steps answer in kind). */
function globalArgsOf(argv: readonly string[], json: boolean): string[] {
  const before = argv.slice(2, commandIndexOf(argv));
  return json && !before.includes('--json') ? [...before, '--json'] : before;
}

/** A tool step's text: a snapshot's tree, any other result's text (present.ts). */
function stepText(tool: string, result: unknown): string {
  const fields = result as Record<string, unknown>;
  return tool === 'snapshot' ? snapshotText(result as Parameters<typeof snapshotText>[0]) : toolText(tool, fields);
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
      const outcome = await runBatch(steps, opts.bail, processRunner(cli, globalArgsOf(process.argv, globals.json), globals), globals.json ? undefined : stepText);
      // --json: every step's own structure inside one document; otherwise each step's text under its name.
      if (globals.json) printJson(outcome);
      else printText(batchText(outcome));
      // The failing step's own error becomes the batch's error block (and exit code 1).
      const failed = outcome.results.find((r) => !r.ok)?.error;
      if (failed) throw RelayError.fromData(failed);
    });
}
