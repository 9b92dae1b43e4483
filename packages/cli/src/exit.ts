import { printError } from './output.js';

/** The process's exit code from a command's outcome (0 or 1); a failure that escaped it is printed, naming `tool`. */
export function exitWith(outcome: Promise<number>, tool = ''): void {
  outcome.then(
    (code) => {
      // A write error other than a closed pipe already set 1; keep it.
      if (!process.exitCode) process.exitCode = code;
    },
    (error: unknown) => {
      printError(error, tool);
      process.exitCode = 1;
    },
  );
}
