/**
 * Where things are in argv, for the few decisions commander cannot make for us: which command runs
 * (to declare only it, program.ts), what was typed before it (batch hands it to every step), and at
 * which level a target flag was typed (callTarget.ts). One scan, so all three agree on where the
 * command starts: after the program-level options and their values.
 */

/** Program options that take a value (so the token after them is not the command name). */
const VALUE_OPTIONS: ReadonlySet<string> = new Set(['--profile', '--timeout', '--agent', '--tab', '--workspace', '--group']);

/** Index of the command's first word in argv (argv.length when there is none). */
export function commandIndexOf(argv: readonly string[]): number {
  for (let i = 2; i < argv.length; i++) {
    const token = argv[i] ?? '';
    if (token === '--') return argv.length;
    if (!token.startsWith('-')) return i;
    if (VALUE_OPTIONS.has(token)) i++;
  }
  return argv.length;
}

/** The command's words (up to `max`): the tokens from the command on that are not options. */
export function commandWordsOf(argv: readonly string[], max = 3): string[] {
  const words: string[] = [];
  for (let i = commandIndexOf(argv); i < argv.length && words.length < max; i++) {
    const token = argv[i] ?? '';
    if (token === '--') break;
    if (!token.startsWith('-')) words.push(token);
  }
  return words;
}

/** `--flag value` or `--flag=value` at argv[i]: the flag, its value and the index after it. */
export function optionAt(argv: readonly string[], i: number): { flag: string; value: string | undefined; next: number } {
  const token = argv[i] ?? '';
  const eq = token.startsWith('--') ? token.indexOf('=') : -1;
  if (eq > 0) return { flag: token.slice(0, eq), value: token.slice(eq + 1), next: i + 1 };
  return { flag: token, value: argv[i + 1], next: i + 2 };
}
