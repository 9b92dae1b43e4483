/**
 * The host's only logger. stdout is the native messaging channel, so every diagnostic goes to stderr
 * (Chrome forwards it to its own stderr, visible with --enable-logging=stderr).
 */
export type Log = (line: string) => void;

export const PREFIX = '[chrome-relay-host]';

export function stderrLog(line: string): void {
  process.stderr.write(`${PREFIX} ${line}\n`);
}
