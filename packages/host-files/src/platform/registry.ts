/**
 * The Windows registry, as chrome-relay uses it: the default value of a key under HKCU, which names a
 * host manifest (Chromium reads `HKCU\Software\<vendor>\NativeMessagingHosts\<host>` that way). Reached
 * through reg.exe with argument arrays, never a shell string, so no path can be read as a command.
 *
 * Reading goes through `reg export` to a file rather than `reg query`'s output: the export is UTF-16,
 * while query writes in the console's code page, which would garble a user name with accents in the
 * manifest's path.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, win32 } from 'node:path';

export interface Registry {
  /** The default value of `key`, or null when the key or its default value does not exist. */
  readDefault(key: string): string | null;
  /** Create `key` (and its parents) with this default value. */
  writeDefault(key: string, value: string): void;
  /** Remove `key` and everything under it; nothing when it does not exist. */
  deleteKey(key: string): void;
}

/** One reg.exe run: exit status and output. */
export type RegRunner = (args: readonly string[]) => { status: number | null; stdout: string; stderr: string };

/** The argument arrays, in one place (unit tests pin them). */
const REG_ARGS = {
  export: (key: string, file: string): string[] => ['export', key, file, '/y'],
  add: (key: string, value: string): string[] => ['add', key, '/ve', '/t', 'REG_SZ', '/d', value, '/f'],
  delete: (key: string): string[] => ['delete', key, '/f'],
  query: (key: string): string[] => ['query', key],
};

/** The default value (`@="…"`) of the first key in a .reg export, unescaped; null when it has none. */
export function defaultValueOfExport(text: string): string | null {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const first = lines.findIndex((line) => line.startsWith('['));
  if (first < 0) return null;
  for (const line of lines.slice(first + 1)) {
    if (line.startsWith('[')) break;
    const match = /^@="((?:[^"\\]|\\.)*)"$/.exec(line);
    if (match?.[1] !== undefined) return match[1].replace(/\\(.)/g, '$1');
  }
  return null;
}

/** %SystemRoot%\System32\reg.exe, by absolute path: a reg.exe earlier on PATH is never run. */
export function regExePath(env: NodeJS.ProcessEnv): string {
  const root = env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows';
  return win32.join(root, 'System32', 'reg.exe');
}

function failure(args: readonly string[], result: ReturnType<RegRunner>): Error {
  return new Error(`reg ${args.join(' ')} failed (exit ${result.status ?? 'none'}): ${(result.stderr || result.stdout).trim()}`);
}

/** A Registry over reg.exe; `run` starts it (execFileSync in production, a recorder in tests). */
export function regExeRegistry(run: RegRunner, scratchDir: string = tmpdir()): Registry {
  return {
    readDefault(key) {
      // A missing key: `reg query` fails; asked first, so no export error text needs reading.
      if (run(REG_ARGS.query(key)).status !== 0) return null;
      const file = join(scratchDir, `chrome-relay-reg-${process.pid}-${randomBytes(4).toString('hex')}.reg`);
      try {
        const args = REG_ARGS.export(key, file);
        const result = run(args);
        if (result.status !== 0) throw failure(args, result);
        return defaultValueOfExport(readFileSync(file, 'utf16le'));
      } finally {
        rmSync(file, { force: true });
      }
    },
    writeDefault(key, value) {
      const args = REG_ARGS.add(key, value);
      const result = run(args);
      if (result.status !== 0) throw failure(args, result);
    },
    deleteKey(key) {
      if (run(REG_ARGS.query(key)).status !== 0) return;
      const args = REG_ARGS.delete(key);
      const result = run(args);
      if (result.status !== 0) throw failure(args, result);
    },
  };
}
