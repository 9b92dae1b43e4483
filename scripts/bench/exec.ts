/** Run a command as a child process and time it end to end (spawn → exit), the way an agent's shell pays for it. */
import { execFile } from 'node:child_process';

export interface Exec {
  ms: number;
  code: number;
  stdout: string;
  stderr: string;
}

export function execTimed(file: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; uid?: number; gid?: number }): Promise<Exec> {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    execFile(
      file,
      [...args],
      // uid/gid: as another OS user (an agent elsewhere), with no wrapper process to pay for.
      { env: options.env, cwd: options.cwd, timeout: options.timeoutMs ?? 120_000, maxBuffer: 512 * 1024 * 1024, uid: options.uid, gid: options.gid },
      (err, stdout, stderr) => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ ms, code, stdout, stderr: err && !stderr ? err.message : stderr });
      },
    );
  });
}

/** A command that exited non-zero: the bench reports it as n/a with this message, never as a figure. */
export class CommandFailed extends Error {
  constructor(
    readonly argv: readonly string[],
    readonly result: Exec,
  ) {
    const first = result.stderr.split('\n').find((l) => l.trim()) ?? result.stdout.split('\n').find((l) => l.trim()) ?? '';
    super(`\`${argv.join(' ')}\` exited ${result.code}: ${first.slice(0, 200)}`);
  }
}
