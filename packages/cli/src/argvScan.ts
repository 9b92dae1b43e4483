/**
 * Where things are in argv, for the few decisions commander cannot make for us: which command runs
 * (to declare only it, program.ts; the fast path's table lookup), what was typed before it (batch hands it to every
 * step), and at which level a target flag was typed (callTarget.ts: commander files an option both the program and
 * the command define under the program wherever it appears). One pass over argv, made once per argv and shared by
 * all of them, so they agree on where the command starts: after the program-level options and their values.
 */

import { PROGRAM_OPTIONS, spellingsOf, takesValue } from './programOptions.js';

/** Program options that take a value (so the token after them is not the command name), every spelling. */
const VALUE_OPTIONS: ReadonlySet<string> = new Set(PROGRAM_OPTIONS.filter((option) => takesValue(option.flags)).flatMap((option) => spellingsOf(option.flags)));
/** The program's target options (`--tab`, `--workspace`, `--group`), by their long spelling. */
const TARGET_FLAGS: ReadonlySet<string> = new Set(PROGRAM_OPTIONS.filter((option) => option.target === true).flatMap((option) => spellingsOf(option.flags).filter((flag) => flag.startsWith('--'))));

/** A target flag as typed: its name without dashes, its value (undefined when missing), and whether it came before the command. */
export interface TypedTarget {
  readonly key: 'tab' | 'workspace' | 'group';
  readonly value: string | undefined;
  readonly beforeCommand: boolean;
}

export interface ArgvScan {
  /** Index of the command's first word in argv (argv.length when there is none). */
  readonly commandAt: number;
  /** The command's words: the tokens from the command on that are not options (up to 3). */
  readonly words: readonly string[];
  /** Every --tab/--workspace/--group typed, in order, up to a `--`. */
  readonly targets: readonly TypedTarget[];
}

const scans = new WeakMap<readonly string[], ArgvScan>();

/** `--flag value` or `--flag=value` at argv[i]: the flag, its value and the index after it. */
function optionAt(argv: readonly string[], i: number): { flag: string; value: string | undefined; next: number } {
  const token = argv[i] ?? '';
  const eq = token.startsWith('--') ? token.indexOf('=') : -1;
  if (eq > 0) return { flag: token.slice(0, eq), value: token.slice(eq + 1), next: i + 1 };
  return { flag: token, value: argv[i + 1], next: i + 2 };
}

/** The one pass over argv (node and the script first). */
export function scanArgv(argv: readonly string[]): ArgvScan {
  const known = scans.get(argv);
  if (known !== undefined) return known;
  let commandAt = -1;
  let ended = false;
  const words: string[] = [];
  const targets: TypedTarget[] = [];
  for (let i = 2; i < argv.length; ) {
    const token = argv[i] ?? '';
    if (token === '--') {
      if (commandAt === -1) commandAt = argv.length;
      ended = true;
      break;
    }
    if (!token.startsWith('-')) {
      if (commandAt === -1) commandAt = i;
      if (words.length < 3) words.push(token);
      i++;
      continue;
    }
    const { flag, value, next } = optionAt(argv, i);
    if (TARGET_FLAGS.has(flag)) {
      targets.push({ key: flag.slice(2) as TypedTarget['key'], value, beforeCommand: commandAt === -1 });
      i = next;
      continue;
    }
    // Before the command, a program option's value is not the command's name.
    i += commandAt === -1 && VALUE_OPTIONS.has(token) ? 2 : 1;
  }
  if (commandAt === -1 || ended) commandAt = commandAt === -1 ? argv.length : commandAt;
  const scan: ArgvScan = { commandAt, words, targets };
  scans.set(argv, scan);
  return scan;
}

/** Index of the command's first word in argv (argv.length when there is none). */
export function commandIndexOf(argv: readonly string[]): number {
  return scanArgv(argv).commandAt;
}

/** The command's words (up to `max`, at most 3): the tokens from the command on that are not options. */
export function commandWordsOf(argv: readonly string[], max = 3): string[] {
  return scanArgv(argv).words.slice(0, max);
}
