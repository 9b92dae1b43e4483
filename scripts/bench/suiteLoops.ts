/**
 * The agent loop both ways — open → snapshot -i → click → snapshot -i — timed end to end as one sample, on 200 and
 * on 1,500 rows; plus the older loop with full snapshots, and the raw-CDP floor for a full-tree snapshot.
 */
import { FIXTURES, uniquePath, type Fixture } from './fixtures.js';
import { both, measureSequence, reason, type Bench, type Check } from './measure.js';
import { measureRawAxTree } from './rawCdp.js';
import { requireRef } from './refs.js';
import { na, NONE, time, type Cell, type Row, type Section } from './report.js';
import type { BenchTool } from './tool.js';

const opened: Check = {
  expression: 'window.lastOpened',
  holds: (_before, after) => (typeof after === 'number' ? undefined : `no row was opened (window.lastOpened is ${JSON.stringify(after)})`),
};

function loop(bench: Bench, fixture: Fixture, interactive: boolean) {
  return async (tool: BenchTool): Promise<void> => {
    await tool.run({ kind: 'open', url: bench.url(uniquePath(fixture.path)) });
    const snap = (await tool.run({ kind: 'snapshot', interactive })).stdout;
    await tool.run({ kind: 'click', ref: requireRef(snap, 'button', 'Open') });
    await tool.run({ kind: 'snapshot', interactive });
  };
}

export interface LoopFigures {
  section: Section;
  relayFull1500: Cell;
  peerFull1500: Cell;
}

export async function loopSection(bench: Bench): Promise<LoopFigures> {
  const rows: Row[] = [];
  const measure = async (label: string, fixture: Fixture, interactive: boolean) => {
    bench.log(`loop: ${label}`);
    const cells = await both(bench, (tool) => measureSequence(bench, tool, label, loop(bench, fixture, interactive), opened));
    rows.push({ label, ...cells });
    return cells;
  };
  await measure('loop open → snapshot -i → click → snapshot -i, 200 rows', FIXTURES.rows200, true);
  await measure('same loop, 1,500 rows', FIXTURES.rows1500, true);
  const full1500 = await measure('same loop with full `snapshot`, 1,500 rows', FIXTURES.rows1500, false);
  return { section: { title: 'agent loop (one sample = the four calls)', rows }, relayFull1500: full1500.relay, peerFull1500: full1500.peer };
}

export async function rawCdpSection(bench: Bench, flags: readonly string[], headful: boolean, relay5k: { full: Cell; interactive: Cell } | undefined): Promise<Section> {
  const fixture = FIXTURES.elements5k;
  bench.log(`raw CDP: Accessibility.getFullAXTree, ${fixture.label}`);
  let raw: Cell;
  let nodes = '';
  try {
    const measured = await measureRawAxTree(bench.url(uniquePath(fixture.path)), bench.plan, flags, headful);
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
