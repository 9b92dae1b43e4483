/**
 * Eight agents at once, each with its own identity (--agent), its own leased tab and a hundred mixed
 * commands (reads, snapshots, clicks, evaluations, captures), all as CLI processes in parallel. Cross-talk
 * is any answer that belongs to another agent's tab: a tab id, URL or value that is not the agent's own,
 * or a click that landed in another tab (each page counts its own clicks). Touching another agent's leased
 * tab must be refused (target_conflict, leased). A lease race — eight agents claiming one tab at the same
 * moment — must have exactly one winner.
 */
import { join } from 'node:path';
import { runChecked, type Invocation, type Ran } from './cli.js';
import type { Rng } from '@chrome-relay/protocol/src/testing/prng.js';
import type { LiveSuite } from './suite.js';

const PHASE = '8 agents × 100';
const AGENTS = 8;
const COMMANDS = 100;

interface Agent {
  name: string;
  tab: number;
  marker: string;
  clicks: number;
  ref: string | null;
}

type Step = { invocation: Invocation; check?: (ran: Ran) => string | null; onOk?: () => void };

/** The ref of the page's Increment button in a snapshot, as typed on the command line. */
const incrementRef = (snapshot: string): string | null => {
  const ref = /button "Increment" \[ref=(e\d+)\]/.exec(snapshot)?.[1];
  return ref === undefined ? null : `@${ref}`;
};

export async function agents(suite: LiveSuite): Promise<void> {
  const started = Date.now();
  const { relay, report } = suite;
  const env: NodeJS.ProcessEnv = { ...relay.env, CHROME_RELAY_AGENT: '' };
  const run = async (invocation: Invocation): Promise<Ran> => {
    const ran = await runChecked(invocation, env);
    report.ran(PHASE, ran);
    return ran;
  };

  // Lease race: one fresh tab, eight claims at the same moment.
  const contested = await relay.cli('navigate', relay.server.url('/other.html?contested=1'), '--new-tab', '--json');
  const contestedTab = (contested.json as { tabId?: number } | undefined)?.tabId ?? 0;
  const claims = await Promise.all(Array.from({ length: AGENTS }, (_, i) => run({ argv: ['--agent', `racer-${i}`, 'lease', 'claim', '--tab', String(contestedTab)] })));
  const winners = claims.filter((c) => c.outcome.code === 0).length;
  const losers = claims.filter((c) => c.checked.error?.code === 'target_conflict' && c.checked.error.details.reason === 'leased').length;
  report.measure(PHASE, 'lease race on one tab: winners / refused as leased', `${winners} / ${losers}`, winners === 1 && losers === AGENTS - 1);
  await relay.cli('lease', 'release', '--tab', String(contestedTab), '--force');
  await relay.cli('close', String(contestedTab));

  // Each agent: its own tab, leased to it.
  const crew: Agent[] = [];
  for (let i = 0; i < AGENTS; i++) {
    const marker = `agent-${i}`;
    const opened = await relay.cli('--agent', marker, 'navigate', relay.server.url(`/button.html?agent=${i}`), '--new-tab', '--json');
    const tab = (opened.json as { tabId?: number } | undefined)?.tabId;
    if (opened.code !== 0 || tab === undefined) {
      report.fail(PHASE, `${marker} setup`, `navigate failed: ${opened.stderr.slice(0, 300)}`);
      return;
    }
    const claimed = await relay.cli('--agent', marker, 'lease', 'claim', '--tab', String(tab));
    if (claimed.code !== 0) report.fail(PHASE, `${marker} setup`, `lease claim failed: ${claimed.stderr.slice(0, 300)}`);
    crew.push({ name: marker, tab, marker, clicks: 0, ref: null });
  }

  const steps = (agent: Agent, rng: Rng): Step[] => {
    const t = String(agent.tab);
    const as = (...argv: string[]): string[] => ['--agent', agent.name, ...argv];
    // What a check reads as fields: the structure (--json).
    const asJson = (...argv: string[]): string[] => ['--json', ...as(...argv)];
    const ownJson = (ran: Ran, field: string, expected: unknown): string | null => {
      if (ran.outcome.code !== 0) return null;
      const value = (JSON.parse(ran.outcome.stdout) as Record<string, unknown>)[field];
      return JSON.stringify(value) === JSON.stringify(expected) ? null : `${field} ${JSON.stringify(value)}, expected ${JSON.stringify(expected)}`;
    };
    const list: Step[] = [];
    for (let n = 0; n < COMMANDS; n++) {
      const kind = rng.int(0, 9);
      if (kind === 0) list.push({ invocation: { argv: asJson('js', '--tab', t, 'location.search') }, check: (r) => ownJson(r, 'value', `?agent=${agent.marker.slice(6)}`) ?? ownJson(r, 'tabId', agent.tab) });
      else if (kind === 1) list.push({ invocation: { argv: as('get', 'url', '--tab', t) }, check: (r) => (r.outcome.code === 0 && !r.outcome.stdout.includes(`agent=${agent.marker.slice(6)}`) ? `url of another tab: ${r.outcome.stdout.slice(0, 200)}` : null) });
      else if (kind === 2) {
        list.push({
          invocation: { argv: as('snapshot', '--tab', t) },
          check: (r) => {
            if (r.outcome.code !== 0) return null;
            const header = r.outcome.stdout.split('\n')[0] ?? '';
            agent.ref = incrementRef(r.outcome.stdout) ?? agent.ref;
            return header.includes(`agent=${agent.marker.slice(6)}`) && header.includes(`[tab=${agent.tab}]`) ? null : `snapshot of another tab: ${header}`;
          },
        });
      } else if (kind === 3 || kind === 4) {
        list.push({
          invocation: { argv: as('click', agent.ref ?? '@e0', '--tab', t) },
          onOk: () => {
            agent.clicks++;
          },
        });
      } else if (kind === 5) list.push({ invocation: { argv: asJson('js', '--tab', t, `window.__who = ${JSON.stringify(agent.marker)}; window.__who`) }, check: (r) => ownJson(r, 'value', agent.marker) });
      else if (kind === 6) list.push({ invocation: { argv: asJson('screenshot', '--tab', t, '-o', join(suite.scratch, `${agent.marker}.png`)) }, check: (r) => ownJson(r, 'tabId', agent.tab) });
      else if (kind === 7) list.push({ invocation: { argv: as(rng.pick(['console', 'network']), '--tab', t, '--json') }, check: (r) => ownJson(r, 'tabId', agent.tab) });
      else if (kind === 8) list.push({ invocation: { argv: as('tabs') } });
      else {
        // Someone else's tab: refused, never acted on.
        const other = crew[(crew.indexOf(agent) + 1 + rng.int(0, AGENTS - 2)) % AGENTS];
        list.push({
          invocation: { argv: as('js', '--tab', String(other?.tab ?? 0), 'window.__who') },
          check: (r) => (r.checked.error?.code === 'target_conflict' && r.checked.error.details.reason === 'leased' ? null : `another agent's leased tab answered ${r.checked.error?.code ?? 'ok'}: ${r.outcome.stdout.slice(0, 120)}`),
        });
      }
    }
    return list;
  };

  let crossTalk = 0;
  await Promise.all(
    crew.map(async (agent) => {
      const rng = suite.rng.fork(agent.name);
      // The ref comes from a snapshot first; clicks before one use a ref that must fail cleanly.
      const first = await run({ argv: ['--agent', agent.name, 'snapshot', '--tab', String(agent.tab)] });
      agent.ref = incrementRef(first.outcome.stdout);
      for (const step of steps(agent, rng)) {
        // Click steps read the ref at run time (a later snapshot may have renewed it).
        const argv = step.invocation.argv.map((word) => (word === '@e0' && agent.ref ? agent.ref : word));
        const ran = await run({ ...step.invocation, argv });
        const problem = step.check?.(ran) ?? null;
        if (problem) {
          crossTalk++;
          report.fail(PHASE, `${agent.name}: chrome-relay ${argv.join(' ')}`, `cross-talk: ${problem}`);
        }
        if (ran.outcome.code === 0) step.onOk?.();
      }
    }),
  );

  // Each page counted its own clicks: every click an agent was told landed is in its tab, and no other.
  for (const agent of crew) {
    const counted = await relay.cli('--agent', agent.name, 'js', '--tab', String(agent.tab), 'window.clicks', '--json');
    const clicks = (counted.json as { value?: unknown } | undefined)?.value;
    if (clicks !== agent.clicks) {
      crossTalk++;
      report.fail(PHASE, `${agent.name} clicks`, `the page counted ${String(clicks)} clicks, the agent was told ${agent.clicks} landed`);
    }
    await relay.cli('--agent', agent.name, 'lease', 'release', '--tab', String(agent.tab));
    await relay.cli('close', String(agent.tab));
  }
  report.measure(PHASE, 'cross-talk (answers or clicks from another agent\'s tab)', String(crossTalk), crossTalk === 0);
  report.measure(PHASE, 'clicks delivered (all agents)', String(crew.reduce((n, a) => n + a.clicks, 0)), true);
  report.phase(PHASE).ms += Date.now() - started;
}
