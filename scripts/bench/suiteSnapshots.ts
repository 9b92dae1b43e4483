/**
 * Snapshot figures per fixture: time of `snapshot -i` and of the full `snapshot`, and the tokens of what each
 * prints; then the 50k-element page (time, output size, `--max-chars`).
 */
import { SNAPSHOT_FIXTURES, FIXTURES, uniquePath, type Fixture } from './fixtures.js';
import { measureAction, reason, type Bench } from './measure.js';
import { count, na, NONE, type Cell, type Row, type Section } from './report.js';
import type { BenchTool } from './tool.js';
import type { Plan } from './timing.js';
import { countTokens, TOKEN_ENCODING } from './tokens.js';

interface Figures {
  time: Cell;
  tokens: Cell;
  chars: number | undefined;
}

/** Time a snapshot mode on the page the tool is on, and count the tokens of what it printed. */
async function snapshotFigures(bench: Bench, tool: BenchTool, fixture: Fixture, interactive: boolean, plan: Plan, maxChars?: number): Promise<Figures> {
  let printed: string | undefined;
  const action = { kind: 'snapshot', interactive, ...(maxChars !== undefined ? { maxChars } : {}) } as const;
  const cell = await measureAction(bench, tool, action, { plan, expectOutput: fixture.marker, output: (s) => (printed = s) });
  if (cell.kind !== 'time' || printed === undefined) return { time: cell, tokens: cell, chars: undefined };
  return { time: cell, tokens: count(countTokens(printed)), chars: printed.length };
}

async function open(bench: Bench, tool: BenchTool, fixture: Fixture): Promise<string | undefined> {
  try {
    await tool.run({ kind: 'open', url: bench.url(uniquePath(fixture.path)) });
    return undefined;
  } catch (err) {
    return `could not open ${fixture.label}: ${reason(err)}`;
  }
}

interface PerTool {
  interactive: Figures;
  full: Figures;
}

/** Opens the page afresh first, so a failure of an earlier mode (a tool that gave up on the page) cannot leak in. */
async function openThenSnapshot(bench: Bench, tool: BenchTool, fixture: Fixture, interactive: boolean, plan: Plan, maxChars?: number): Promise<Figures> {
  const failed = await open(bench, tool, fixture);
  if (failed) return { time: na(failed), tokens: na(failed), chars: undefined };
  return snapshotFigures(bench, tool, fixture, interactive, plan, maxChars);
}

async function fixtureFigures(bench: Bench, tool: BenchTool, fixture: Fixture, plan: Plan): Promise<PerTool> {
  return { interactive: await openThenSnapshot(bench, tool, fixture, true, plan), full: await openThenSnapshot(bench, tool, fixture, false, plan) };
}

export interface SnapshotFigures {
  timeSection: Section;
  tokenSection: Section;
  /** chrome-relay's times on the 5k page and on 1,500 rows, for the raw-CDP and summary lines. */
  relay5k: PerTool | undefined;
  relay1500: PerTool | undefined;
}

export async function snapshotSections(bench: Bench): Promise<SnapshotFigures> {
  const timeRows: Row[] = [];
  const interactiveTokens: Row[] = [];
  const fullTokens: Row[] = [];
  let relay5k: PerTool | undefined;
  let relay1500: PerTool | undefined;
  for (const fixture of SNAPSHOT_FIXTURES) {
    bench.log(`snapshots: ${fixture.label}`);
    const relay = await fixtureFigures(bench, bench.relay, fixture, bench.plan);
    const peer = bench.peer ? await fixtureFigures(bench, bench.peer, fixture, bench.plan) : undefined;
    if (fixture === FIXTURES.elements5k) relay5k = relay;
    if (fixture === FIXTURES.rows1500) relay1500 = relay;
    timeRows.push(
      { label: `\`snapshot -i\`, ${fixture.label}`, relay: relay.interactive.time, peer: peer?.interactive.time ?? NONE },
      { label: `\`snapshot\`, ${fixture.label}`, relay: relay.full.time, peer: peer?.full.time ?? NONE },
    );
    interactiveTokens.push({ label: `\`snapshot -i\` tokens, ${fixture.label}`, relay: relay.interactive.tokens, peer: peer?.interactive.tokens ?? NONE });
    fullTokens.push({ label: `\`snapshot\` tokens, ${fixture.label}`, relay: relay.full.tokens, peer: peer?.full.tokens ?? NONE });
  }
  return {
    timeSection: { title: 'snapshot time', rows: timeRows },
    tokenSection: { title: `snapshot tokens (${TOKEN_ENCODING})`, rows: [...interactiveTokens, ...fullTokens] },
    relay5k,
    relay1500,
  };
}

/**
 * The 50k-element page: output sizes, the --max-chars cut, and few runs. agent-browser takes ~25 s per snapshot
 * there, so it gets `peerPlan` (one run) to keep the bench within minutes.
 */
export async function bigPageSection(bench: Bench, plans: { relay: Plan; peer: Plan }, maxChars: number): Promise<Section> {
  const fixture = FIXTURES.elements50k;
  bench.log(`snapshots: ${fixture.label}`);
  const perTool = async (tool: BenchTool, plan: Plan) => ({
    interactive: await openThenSnapshot(bench, tool, fixture, true, plan),
    full: await openThenSnapshot(bench, tool, fixture, false, plan),
    cut: await openThenSnapshot(bench, tool, fixture, false, plan, maxChars),
  });
  const relay = await perTool(bench.relay, plans.relay);
  const peer = bench.peer ? await perTool(bench.peer, plans.peer) : undefined;
  const chars = (f: Figures | undefined): Cell => (f === undefined ? NONE : f.chars !== undefined ? count(f.chars) : f.time);
  // agent-browser's nearest option is --max-output.
  return {
    title: `${fixture.label} (runs: ${plans.relay.runs}${bench.peer ? ` and ${plans.peer.runs}` : ''})`,
    rows: [
      { label: '`snapshot -i`', relay: relay.interactive.time, peer: peer?.interactive.time ?? NONE },
      { label: '`snapshot`', relay: relay.full.time, peer: peer?.full.time ?? NONE },
      { label: '`snapshot` output, characters', relay: chars(relay.full), peer: chars(peer?.full) },
      { label: '`snapshot` output, tokens', relay: relay.full.tokens, peer: peer?.full.tokens ?? NONE },
      { label: '`snapshot -i` output, characters', relay: chars(relay.interactive), peer: chars(peer?.interactive) },
      { label: `\`snapshot --max-chars ${maxChars}\` (peer: --max-output)`, relay: relay.cut.time, peer: peer?.cut.time ?? NONE },
      { label: `\`snapshot --max-chars ${maxChars}\` output, characters`, relay: chars(relay.cut), peer: chars(peer?.cut) },
      { label: `\`snapshot --max-chars ${maxChars}\` output, tokens`, relay: relay.cut.tokens, peer: peer?.cut.tokens ?? NONE },
    ],
  };
}
