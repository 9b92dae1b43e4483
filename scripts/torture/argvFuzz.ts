/**
 * The CLI fuzzed through its argv (and stdin for batch), as a subprocess: without a browser (a home where
 * nothing runs), and against the live one in rounds, each round binding its tab placeholders to fresh tabs
 * of fixture pages — the hostile ones among them (forged snapshot text, invisible content, pointer swaps
 * when the delivery fixtures are present). Every invocation is held to the contract (contract.ts); every
 * plain snapshot printed is held to the snapshot grammar (no line a page could forge).
 * Directed cases pin the codes the issue named: --profile, --agent, setup commands in batch, results too
 * big or bigger than Chrome's inbound 1 MiB, requests over 1 MiB, tabs with another extension's frame.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSnapshotText } from '../../e2e/snapshotGrammar.js';
import { ArgvCorpus, bindTabs, type FuzzInvocation } from './argvCorpus.js';
import { runPool, type Invocation, type Ran } from './cli.js';
import { sleep, type LiveSuite, type Suite } from './suite.js';

const OFFLINE = 'argv, no browser';
const LIVE = 'argv, live browser';
const PAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../e2e/pages');
/** Fixture pages a live round opens: plain ones and the hostile ones. */
const ROUND_PAGES = ['/hostile.html', '/invisible.html', '/button.html', '/form.html', '/overlay.html', '/twins.html'];

/** The delivery fixtures (pointer swaps, covers that move) when this tree has them: e2e/pages/delivery-*.html. */
function deliveryPages(): string[] {
  return readdirSync(PAGES_DIR)
    .filter((name) => /^delivery-[\w-]+\.html$/.test(name))
    .sort()
    .map((name) => `/${name}`);
}

function scratchFiles(scratch: string): void {
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'upload.txt'), 'torture upload\n');
}

export function offlineEnv(suite: Suite): NodeJS.ProcessEnv {
  const root = join(suite.scratch, 'offline');
  for (const dir of ['home', 'userhome', 'tmp']) mkdirSync(join(root, dir), { recursive: true });
  return { PATH: process.env.PATH, HOME: join(root, 'userhome'), TMPDIR: join(root, 'tmp'), CHROME_RELAY_HOME: join(root, 'home') };
}

function record(suite: Suite, phase: string, results: readonly Ran[]): void {
  for (const ran of results) suite.report.ran(phase, ran);
}

export async function offlineArgv(suite: Suite, count: number): Promise<void> {
  const started = Date.now();
  const env = offlineEnv(suite);
  const scratch = join(suite.scratch, 'offline-files');
  scratchFiles(scratch);
  const corpus = new ArgvCorpus(suite.rng.fork('argv-offline'), { live: false, tabSlots: 4, scratch, origin: '' });
  const invocations: Invocation[] = Array.from({ length: count }, () => ({ ...corpus.next(), limitMs: 20_000 }));
  const directed: Invocation[] = [
    { label: 'no browser', argv: ['tabs'], expect: { exit: 1, code: 'extension_not_connected', details: { reason: 'no_host' }, retryable: true, message: /within 30 s/ } },
    { label: 'invalid --agent', argv: ['--agent', 'two words', 'tabs'], expect: { exit: 1, code: 'invalid_arguments', details: { field: 'agent' } } },
    { label: 'launch in batch', argv: ['batch'], stdin: '[{"command":"launch","args":["--headless"]}]', expect: { exit: 1, code: 'invalid_arguments', details: { field: 'stdin.0' } } },
    { label: 'restart_host in batch', argv: ['batch'], stdin: '[{"tool":"restart_host"}]', expect: { exit: 1, code: 'invalid_arguments', details: { field: 'stdin.0' } } },
    { label: 'update in batch', argv: ['batch'], stdin: '[{"command":"tabs"},{"command":"update"}]', expect: { exit: 1, code: 'invalid_arguments', details: { field: 'stdin.1' } } },
  ];
  let done = 0;
  const results = await runPool([...directed, ...invocations], env, suite.workers, () => {
    if (++done % 500 === 0) suite.log(`${OFFLINE}: ${done}/${count + directed.length}`);
  });
  // The agent variable is named when it is what gave a bad identity.
  const envAgent = await runPool([{ label: 'invalid CHROME_RELAY_AGENT', argv: ['tabs'], expect: { exit: 1, code: 'invalid_arguments', details: { field: 'CHROME_RELAY_AGENT' } } }], { ...env, CHROME_RELAY_AGENT: 'bad agent' }, 1);
  record(suite, OFFLINE, [...results, ...envAgent]);
  suite.report.phase(OFFLINE).ms += Date.now() - started;
}

/** Open one tab per page (new tabs, so earlier rounds' closes and leases do not matter); their ids. */
async function openTabs(suite: LiveSuite, pages: readonly string[]): Promise<number[]> {
  const tabs: number[] = [];
  for (const page of pages) {
    const opened = await suite.relay.cli('--timeout', '15000', 'navigate', suite.relay.server.url(page), '--new-tab');
    const tabId = (opened.json as { tabId?: number } | undefined)?.tabId;
    if (opened.code === 0 && typeof tabId === 'number') tabs.push(tabId);
    else suite.report.fail(LIVE, `open ${page}`, `navigate failed: ${opened.stderr.slice(0, 300)}`);
  }
  return tabs;
}

/**
 * The snapshot text the grammar applies to: --max-chars ends a cut tree with chrome-relay's own notice line
 * (`!!! TRUNCATED: …`, renderSnapshot.ts; no page string in it), and the last line kept may announce children
 * that were cut: both are left out of the check.
 */
function treeLines(stdout: string): string {
  const lines = stdout.replace(/\n$/, '').split('\n');
  if (!/^!!! TRUNCATED: [^"]*$/.test(lines.at(-1) ?? '')) return stdout;
  return `${lines.slice(0, Math.max(1, lines.length - 2)).join('\n')}\n`;
}

/** A plain snapshot invocation whose stdout must follow the grammar. */
function printsPlainSnapshot(invocation: FuzzInvocation): boolean {
  const { argv } = invocation;
  const at = argv.indexOf('snapshot');
  if (at < 0 || argv[at - 1] === '--text' || argv.includes('batch')) return false;
  return !argv.some((word) => ['--json', '--diff', '--help', '-h', '--version', '-V', 'help'].includes(word) || word.startsWith('--json'));
}

export async function liveArgv(suite: LiveSuite, count: number, roundSize = 100): Promise<void> {
  const started = Date.now();
  const { relay, report } = suite;
  const scratch = join(suite.scratch, 'live-files');
  scratchFiles(scratch);
  const pages = [...ROUND_PAGES, ...deliveryPages()];
  const corpus = new ArgvCorpus(suite.rng.fork('argv-live'), { live: true, tabSlots: pages.length, scratch, origin: relay.server.origin });
  const env: NodeJS.ProcessEnv = { ...relay.env, CHROME_RELAY_AGENT: '' };
  for (let round = 0; round * roundSize < count; round++) {
    const tabs = await openTabs(suite, pages);
    const drawn = Array.from({ length: Math.min(roundSize, count - round * roundSize) }, () => corpus.next());
    const invocations: Invocation[] = drawn.map((d) => ({ ...bindTabs(d, tabs), limitMs: 45_000 }));
    const results = await runPool(invocations, env, suite.workers);
    record(suite, LIVE, results);
    for (const ran of results) {
      if (ran.outcome.code !== 0 || !printsPlainSnapshot(ran.invocation)) continue;
      const problems = checkSnapshotText(treeLines(ran.outcome.stdout)).problems;
      if (problems.length > 0) report.fail(LIVE, `chrome-relay ${ran.invocation.argv.join(' ')}`, `snapshot off grammar: ${problems.slice(0, 3).join(' | ')}`);
    }
    suite.log(`${LIVE}: round ${round + 1} done (${Math.min(count, (round + 1) * roundSize)}/${count})`);
    // Dialogs the fuzz opened would block the next steps on those tabs: answer them.
    await runPool(tabs.map((tab) => ({ argv: ['dialog', 'dismiss', '--tab', String(tab)] })), env, suite.workers);
    // Whatever the round did to its pages (the hostile ones first among them), their snapshots still follow
    // the grammar: nothing on a page can forge a line.
    const snapshots = await runPool(tabs.flatMap((tab) => [{ argv: ['snapshot', '--tab', String(tab)] }, { argv: ['snapshot', '-i', '--urls', '--tab', String(tab)] }]), env, suite.workers);
    for (const ran of snapshots) {
      report.ran('snapshot grammar', ran);
      if (ran.outcome.code !== 0) continue;
      const problems = checkSnapshotText(ran.outcome.stdout).problems;
      if (problems.length > 0) report.fail('snapshot grammar', `chrome-relay ${ran.invocation.argv.join(' ')}`, `snapshot off grammar: ${problems.slice(0, 3).join(' | ')}`);
    }
    await relay.cli('close', ...tabs.map(String));
  }
  report.phase(LIVE).ms += Date.now() - started;
}

/** The named cases against the live browser, each with the code it must answer. */
export async function liveDirected(suite: LiveSuite): Promise<void> {
  const phase = 'directed, live browser';
  const started = Date.now();
  const { relay, report } = suite;
  const env: NodeJS.ProcessEnv = { ...relay.env, CHROME_RELAY_AGENT: '' };
  const [tab] = await openTabs(suite, ['/button.html']);
  const t = String(tab ?? 0);
  // navigate to such a page in a new tab fails naming the cause (and closes the tab it opened for it).
  const framed = await runPool(
    [{ label: 'navigate to a page with another extension\'s frame', argv: ['navigate', relay.server.url('/extension-frame.html'), '--new-tab'], expect: { exit: 1, code: 'chrome_api_error', retryable: false, details: { cause: 'extension_frame' } } }],
    env,
    1,
  );
  for (const ran of framed) report.ran(phase, ran);
  // A tab that gains such a frame while chrome-relay works on it: every tool answers the same, at once.
  const [frameTab] = await openTabs(suite, ['/button.html?framed=1']);
  await relay.cli('js', '--tab', String(frameTab ?? 0), `document.body.append(Object.assign(document.createElement('iframe'), { src: 'chrome-extension://${'b'.repeat(32)}/panel.html' })); 1`);
  await sleep(500);
  const twoMegCode = `'${'x'.repeat(2_000_000)}'.length`;
  const cases: Invocation[] = [
    { label: '--profile naming no connected browser', argv: ['--profile', '/nonexistent', 'tabs'], expect: { exit: 1, code: 'target_not_found', details: { field: 'profile', connectedProfiles: [relay.profile] }, retryable: false } },
    { label: 'invalid --agent', argv: ['--agent', 'bad agent!', 'tabs'], expect: { exit: 1, code: 'invalid_arguments', details: { field: 'agent' } } },
    { label: 'result over 64 MiB', argv: ['js', '--tab', t, "'x'.repeat(7e7)"], expect: { exit: 1, code: 'invalid_arguments', retryable: false, message: /over the \d+ a native message can carry.*slice/ } },
    { label: 'result over Chrome\'s 1 MiB inbound limit (2 MB) arrives whole', argv: ['js', '--tab', t, "'y'.repeat(2e6)"], expect: { exit: 0 } },
    { label: 'request over Chrome\'s 1 MiB to the extension', argv: ['batch'], stdin: JSON.stringify([{ tool: 'js', params: { code: twoMegCode, tab: tab ?? 0 } }]), expect: { exit: 1, code: 'invalid_arguments' } },
    { label: 'a tab with another extension\'s frame', argv: ['snapshot', '--tab', String(frameTab ?? 0)], expect: { exit: 1, code: 'chrome_api_error', retryable: false, details: { cause: 'extension_frame' } } },
    { label: 'js in a tab with another extension\'s frame', argv: ['js', '--tab', String(frameTab ?? 0), '1'], expect: { exit: 1, code: 'chrome_api_error', retryable: false } },
  ];
  const results = await runPool(cases, env, 1);
  for (const ran of results) {
    report.ran(phase, ran);
    if (ran.invocation.label === 'result over 64 MiB') report.measure(phase, 'js result over 64 MiB: answered after', `${(ran.outcome.ms / 1000).toFixed(1)} s (call deadline 30 s)`, ran.outcome.ms < 25_000);
    if (ran.invocation.label?.startsWith('result over Chrome') && ran.outcome.code === 0) {
      const value = (JSON.parse(ran.outcome.stdout) as { value?: string }).value ?? '';
      report.measure(phase, '2 MB js result delivered', `${value.length} chars`, value.length === 2_000_000);
    }
  }
  await relay.cli('close', t, String(frameTab ?? 0));
  report.phase(phase).ms += Date.now() - started;
}
