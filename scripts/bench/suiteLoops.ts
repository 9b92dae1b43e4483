/**
 * The agent loop both ways — open → snapshot -i → click → snapshot -i — timed end to end as one sample, on 200 and
 * on 1,500 rows; plus the older loop with full snapshots, and the raw-CDP floor for a full-tree snapshot. Then the
 * same loop as chrome-relay's composite actions run it — navigate --snapshot -i → click --snapshot -i, two
 * processes — against the peer's four-command loop from the same run (the peer has no composite actions).
 */
import { FIXTURES, uniquePath, type Fixture } from './fixtures.js';
import { measureSequence, reason, type Bench, type Check } from './measure.js';
import { measureRawAxTree } from './rawCdp.js';
import { requireRef } from './refs.js';
import { formatMs, na, NONE, time, type Cell, type Row, type Section } from './report.js';
import type { BenchTool } from './tool.js';

const opened: Check = {
  expression: 'window.lastOpened',
  holds: (_before, after) => (typeof after === 'number' ? undefined : `no row was opened (window.lastOpened is ${JSON.stringify(after)})`),
};

const STEPS = ['open', 'snapshot', 'click', 'snapshot'];
const COMPOSITE_STEPS = ['navigate --snapshot -i', 'click --snapshot -i'];

/** The four calls; returns each call's time. */
function loop(bench: Bench, fixture: Fixture, interactive: boolean) {
  return async (tool: BenchTool): Promise<number[]> => {
    const opened = await tool.run({ kind: 'open', url: bench.url(uniquePath(fixture.path)) });
    const snap = await tool.run({ kind: 'snapshot', interactive });
    const clicked = await tool.run({ kind: 'click', ref: requireRef(snap.stdout, 'button', 'Open') });
    const after = await tool.run({ kind: 'snapshot', interactive });
    return [opened.ms, snap.ms, clicked.ms, after.ms];
  };
}

/** The two calls of the composite loop; returns each call's time. */
function compositeLoop(bench: Bench, fixture: Fixture) {
  return async (tool: BenchTool): Promise<number[]> => {
    const opened = await tool.run({ kind: 'open', url: bench.url(uniquePath(fixture.path)), snapshot: 'interactive' });
    const clicked = await tool.run({ kind: 'click', ref: requireRef(opened.stdout, 'button', 'Open'), snapshot: 'interactive' });
    // The loop's last look is the click's own snapshot: make sure it is there.
    requireRef(clicked.stdout, 'button', 'Open');
    return [opened.ms, clicked.ms];
  };
}

function breakdown(label: string, tool: string, medians: number[], steps: readonly string[] = STEPS): string | undefined {
  if (medians.length !== steps.length) return undefined;
  return `${label} (${tool}), median per call: ${medians.map((m, i) => `${steps[i] ?? '?'} ${formatMs(m)}`).join(', ')}`;
}

export interface LoopFigures {
  section: Section;
  relayFull1500: Cell;
  peerFull1500: Cell;
}

export async function loopSection(bench: Bench): Promise<LoopFigures> {
  const rows: Row[] = [];
  const notes: string[] = [];
  const measure = async (label: string, fixture: Fixture, interactive: boolean) => {
    bench.log(`loop: ${label}`);
    const cells: { relay: Cell; peer: Cell } = { relay: NONE, peer: NONE };
    for (const tool of [bench.relay, bench.peer]) {
      if (!tool) continue;
      const figures = await measureSequence(bench, tool, label, loop(bench, fixture, interactive), opened);
      cells[tool === bench.relay ? 'relay' : 'peer'] = figures.cell;
      const line = breakdown(label, tool.name, figures.stepMedians);
      if (line) notes.push(line);
    }
    rows.push({ label, ...cells });
    return cells;
  };
  const loop200 = await measure('loop open → snapshot -i → click → snapshot -i, 200 rows', FIXTURES.rows200, true);
  const loop1500 = await measure('same loop, 1,500 rows', FIXTURES.rows1500, true);
  const full1500 = await measure('same loop with full `snapshot`, 1,500 rows', FIXTURES.rows1500, false);
  const composite = async (label: string, fixture: Fixture, peerLoop: Cell) => {
    bench.log(`loop: ${label}`);
    const figures = await measureSequence(bench, bench.relay, label, compositeLoop(bench, fixture), opened);
    const line = breakdown(label, bench.relay.name, figures.stepMedians, COMPOSITE_STEPS);
    if (line) notes.push(line);
    rows.push({ label, relay: figures.cell, peer: peerLoop });
  };
  await composite('composite loop navigate --snapshot -i → click --snapshot -i, 200 rows', FIXTURES.rows200, loop200.peer);
  await composite('same composite loop, 1,500 rows', FIXTURES.rows1500, loop1500.peer);
  if (bench.peer) notes.push(`composite loops: the ${bench.peer.name} column is its four-command loop above (it has no composite actions)`);
  return { section: { title: 'agent loop (one sample = the four calls)', rows, notes }, relayFull1500: full1500.relay, peerFull1500: full1500.peer };
}

export async function rawCdpSection(bench: Bench, flags: readonly string[], display: string | undefined, relay5k: { full: Cell; interactive: Cell } | undefined): Promise<Section> {
  const fixture = FIXTURES.elements5k;
  bench.log(`raw CDP: Accessibility.getFullAXTree, ${fixture.label}`);
  let raw: Cell;
  let nodes = '';
  try {
    const measured = await measureRawAxTree(bench.url(uniquePath(fixture.path)), bench.plan, flags, display);
    raw = time(measured.stats);
    nodes = ` (${measured.nodes.toLocaleString('en-US')} AX nodes)`;
  } catch (err) {
    raw = na(reason(err));
  }
  return {
    title: `vs raw CDP (puppeteer-core, a browser of its own), ${fixture.label}`,
    peerHeader: `getFullAXTree${nodes}`,
    rows: [
      { label: '`snapshot` (full tree)', relay: relay5k?.full ?? NONE, peer: raw },
      { label: '`snapshot -i`', relay: relay5k?.interactive ?? NONE, peer: raw },
    ],
  };
}
