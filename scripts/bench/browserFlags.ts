/**
 * The one Chromium binary and flag list every browser in the bench gets (chrome-relay's, agent-browser's and the
 * raw-CDP reference), from the verified recipe in CHROMIUM.md. Each tool may add its own flags on top; the bench
 * prints those differences rather than hiding them.
 */
import { readFileSync } from 'node:fs';
import { QUIET_BROWSER_FLAGS } from '../../packages/cli/src/quietBrowserFlags.js';

export const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/lib/chromium/chromium';

export function commonFlags(headful: boolean): string[] {
  return [
    ...QUIET_BROWSER_FLAGS,
    '--window-size=1280,720',
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ...(headful ? [] : ['--headless=new', '--disable-gpu']),
  ];
}

/** The command line of a running process (Linux /proc), or undefined elsewhere or when it is gone. */
export function processArgs(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

/** Flags a browser runs with beyond the common list (user-data-dir and extension paths shortened). */
export function extraFlags(args: readonly string[], common: readonly string[]): string[] {
  const known = new Set(common);
  return args
    .slice(1)
    .filter((a) => a.startsWith('--') && !known.has(a))
    .map((a) => a.replace(/^(--(?:user-data-dir|load-extension|disable-extensions-except)=).*$/, '$1…'));
}
