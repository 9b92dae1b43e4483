/**
 * What an agent reads per command: the characters each everyday command prints when its stdout is a pipe (as an
 * agent's shell runs it), on the small page. A success counts stdout; the one failure row counts stderr, which is
 * what the agent reads then. Sizes, not times: one run each. `pnpm bench --chars` prints this table alone, and
 * E2E_CLI=<another build's chrome-relay.cjs> measures that build the same way (its before and after).
 */
import { CLI } from '../../e2e/harness.js';
import { execTimed } from './exec.js';
import { FIXTURES, uniquePath } from './fixtures.js';
import type { Bench } from './measure.js';
import { requireRef } from './refs.js';
import { count, na, NONE, type Row, type Section } from './report.js';

interface Step {
  label: string;
  args: string[];
  /** A failure is what is measured (stderr), not a success. */
  fails?: true;
}

export async function charsSection(bench: Bench, env: NodeJS.ProcessEnv, launchArgs: readonly string[]): Promise<Section> {
  bench.log('characters read per command (piped)');
  const run = (args: readonly string[]) => execTimed(process.execPath, [CLI, ...args], { env });
  const rows: Row[] = [];
  const measure = async (step: Step): Promise<void> => {
    const result = await run(step.args);
    const ok = step.fails === true ? result.code !== 0 : result.code === 0;
    const cell = ok ? count(step.fails === true ? result.stderr.length : result.stdout.length) : na(`exit ${result.code}: ${(result.stderr.split('\n')[0] ?? '').slice(0, 160)}`);
    rows.push({ label: step.label, relay: cell, peer: NONE });
  };

  // The page, in a tab of its own, and its refs (the tab is named on every call: nothing depends on defaults).
  const opened = await run(['navigate', bench.url(uniquePath(FIXTURES.small.path)), '--new-tab']);
  // Before --new-tab existed, navigate opened a new tab anyway.
  const first = opened.code === 0 ? opened : await run(['navigate', bench.url(uniquePath(FIXTURES.small.path))]);
  const tab = /"tabId":\s*(\d+)/.exec(first.stdout)?.[1] ?? /\btab (\d+)/.exec(first.stdout)?.[1];
  if (tab === undefined) return { title: 'characters read per command (stdout a pipe)', rows: [{ label: 'navigate', relay: na(`no tab id in: ${first.stdout.slice(0, 160)} ${first.stderr.slice(0, 160)}`), peer: NONE }] };
  const t = ['--tab', tab];
  const steps: Step[] = [
    { label: '`launch` (already running)', args: ['launch', ...launchArgs] },
    { label: '`status`', args: ['status'] },
    { label: '`tabs`', args: ['tabs'] },
    { label: '`navigate <url>`', args: ['navigate', bench.url(uniquePath(FIXTURES.small.path)), ...t] },
  ];
  for (const step of steps) await measure(step);
  // Refs of the page as the navigation above left it.
  const snap = (await run(['snapshot', '-i', '--tab', tab])).stdout;
  const ref = (role: string, label: string): string => `@${requireRef(snap, role, label)}`;
  const [inc, name, notes, agree, country] = [ref('button', 'Increment'), ref('textbox', 'Name'), ref('textbox', 'Notes'), ref('checkbox', 'Agree'), ref('combobox', 'Country')];
  const more: Step[] = [
    { label: '`snapshot -i` (text, unchanged)', args: ['snapshot', '-i', ...t] },
    { label: '`click @ref`', args: ['click', inc] },
    { label: '`fill @ref "Ada Lovelace"`', args: ['fill', name, 'Ada Lovelace'] },
    { label: '`type "abc" -s @ref`', args: ['type', 'abc', '-s', notes] },
    { label: '`keys Tab`', args: ['keys', 'Tab', ...t] },
    { label: '`check @ref`', args: ['check', agree] },
    { label: '`select @ref Germany`', args: ['select', country, 'Germany'] },
    { label: '`hover @ref`', args: ['hover', inc] },
    { label: '`scroll down 200`', args: ['scroll', 'down', '200', ...t] },
    { label: '`get title`', args: ['get', 'title', ...t] },
    { label: '`get text @ref`', args: ['get', 'text', inc] },
    { label: '`get value @ref`', args: ['get', 'value', name] },
    { label: '`js "document.title"`', args: ['js', 'document.title', ...t] },
    { label: '`wait --text Increment`', args: ['wait', '--text', 'Increment', ...t] },
    { label: '`console`', args: ['console', ...t] },
    { label: '`network`', args: ['network', ...t] },
    { label: '`screenshot`', args: ['screenshot', ...t] },
    { label: '`group list`', args: ['group', 'list'] },
    { label: '`workspace list`', args: ['workspace', 'list'] },
    { label: '`click @ref --snapshot -i` (result + tree)', args: ['click', inc, '--snapshot', '-i'] },
    { label: '`click @e999999999` (a failure: stderr)', args: ['click', '@e999999999'], fails: true },
  ];
  for (const step of more) await measure(step);
  const total = rows.reduce((sum, row) => sum + (row.relay.kind === 'count' && !row.label.includes('snapshot') && !row.label.includes('failure') ? row.relay.value : 0), 0);
  return {
    title: 'characters read per command (stdout a pipe)',
    rows,
    notes: [`sum over the rows without a snapshot or a failure: ${total.toLocaleString('en-US')} characters (${CLI})`],
  };
}
