/**
 * Start-up and per-command figures: `node -e 0` as the floor, `--version`, `tabs`, then each action on the small
 * page (verified on the page afterwards) and open/click on a 1,500-row table.
 */
import { execTimed } from './exec.js';
import { FIXTURES, uniquePath } from './fixtures.js';
import { both, equals, grewBy, measureAction, measureOverFloor, reason, type Bench, type OverFloor } from './measure.js';
import { requireRef } from './refs.js';
import { na, NONE, time, type Cell, type Row, type Section } from './report.js';
import { sample } from './timing.js';
import type { BenchTool } from './tool.js';

export interface StartupFigures {
  section: Section;
  node: number;
  version: Cell;
  tabs: Cell;
  /** chrome-relay's start-up against `node -e 0` run in alternation with it (the summary's goals). */
  paired: { version: OverFloor | string; tabs: OverFloor | string };
  /** One `node -e 0`, timed: the floor for paired figures. */
  floor: () => Promise<number>;
}

export async function startupSection(bench: Bench, env: NodeJS.ProcessEnv): Promise<StartupFigures> {
  bench.log('start-up');
  const nodeOnce = async (): Promise<number> => (await execTimed(process.execPath, ['-e', '0'], { env })).ms;
  const node = await sample(bench.plan, { run: nodeOnce });
  const floor = { name: 'node', value: node.median };
  const version = await both(bench, (tool) => measureAction(bench, tool, { kind: 'version' }));
  const tabs = await both(bench, (tool) => measureAction(bench, tool, { kind: 'tabs' }));
  const paired = {
    version: await measureOverFloor(bench, bench.relay, { kind: 'version' }, nodeOnce),
    tabs: await measureOverFloor(bench, bench.relay, { kind: 'tabs' }, nodeOnce),
  };
  return {
    node: node.median,
    version: version.relay,
    tabs: tabs.relay,
    paired,
    floor: nodeOnce,
    section: {
      title: 'start-up (a fresh process each)',
      rows: [
        { label: '`node -e 0` (the floor of any Node CLI)', relay: time(node), peer: NONE },
        { label: '`--version` (bundle load, no I/O)', ...version, ratioTo: floor },
        { label: '`tabs`', ...tabs, ratioTo: floor },
      ],
    },
  };
}

interface SmallRefs {
  inc: string;
  name: string;
  notes: string;
  agree: string;
  country: string;
}

async function openSmall(bench: Bench, tool: BenchTool): Promise<SmallRefs | string> {
  try {
    await tool.run({ kind: 'open', url: bench.url(uniquePath(FIXTURES.small.path)) });
    const snap = (await tool.run({ kind: 'snapshot', interactive: true })).stdout;
    return {
      inc: requireRef(snap, 'button', 'Increment'),
      name: requireRef(snap, 'textbox', 'Name'),
      notes: requireRef(snap, 'textbox', 'Notes'),
      agree: requireRef(snap, 'checkbox', 'Agree'),
      country: requireRef(snap, 'combobox', 'Country'),
    };
  } catch (err) {
    return `could not set up the small page: ${reason(err)}`;
  }
}

export interface CommandFigures {
  section: Section;
  click: Cell;
  /** chrome-relay's `click @ref` on the small page, in alternation with `node -e 0`. */
  clickOverFloor: OverFloor | string;
  open1500: Cell;
}

export async function commandsSection(bench: Bench, floor: () => Promise<number>): Promise<CommandFigures> {
  bench.log('commands on the small page');
  const refs = new Map<BenchTool, SmallRefs | string>();
  for (const tool of [bench.relay, bench.peer]) if (tool) refs.set(tool, await openSmall(bench, tool));
  /** One row on the small page; a tool whose setup failed gets n/a with that reason. */
  const row = async (label: string, measure: (tool: BenchTool, r: SmallRefs) => Promise<Cell>, peerToo = true): Promise<Row> => {
    const cells = await both(bench, async (tool) => {
      if (tool !== bench.relay && !peerToo) return NONE;
      const r = refs.get(tool);
      return typeof r === 'object' ? measure(tool, r) : na(r ?? 'not set up');
    });
    return { label, ...cells };
  };
  const rows: Row[] = [
    await row('`click @ref`', (t, r) => measureAction(bench, t, { kind: 'click', ref: r.inc }, { check: grewBy('window.bench.clicks') })),
    await row('`click --snapshot @ref`', (t, r) => measureAction(bench, t, { kind: 'click', ref: r.inc, snapshot: 'full' }), false),
    // Hovering elsewhere first makes every run a real pointer move onto the button (one mouseenter each).
    await row('`hover @ref`', (t, r) => measureAction(bench, t, { kind: 'hover', ref: r.inc }, { prepare: { kind: 'hover', ref: r.name }, check: grewBy('window.bench.hovers') })),
    await row('`fill @ref`', (t, r) => measureAction(bench, t, { kind: 'fill', ref: r.name, value: 'Ada Lovelace' }, { check: equals("document.getElementById('name').value", 'Ada Lovelace') })),
    await row('`type -s @ref`', (t, r) => measureAction(bench, t, { kind: 'type', ref: r.notes, text: 'abc' }, { check: grewBy("document.getElementById('notes').value.split('abc').length - 1") })),
    await row('`keys Tab`', (t) => measureAction(bench, t, { kind: 'keys', keys: 'Tab' })),
    await row('`check @ref`', (t, r) => measureAction(bench, t, { kind: 'check', ref: r.agree }, { prepare: { kind: 'uncheck', ref: r.agree }, check: equals("document.getElementById('agree').checked", true) })),
    await row('`select @ref`', (t, r) => measureAction(bench, t, { kind: 'select', ref: r.country, value: 'Germany' }, { prepare: { kind: 'select', ref: r.country, value: 'United States' }, check: equals("document.getElementById('country').value", 'de') })),
  ];
  const click = rows[0]?.relay ?? NONE;
  const relayRefs = refs.get(bench.relay);
  const clickOverFloor = typeof relayRefs === 'object' ? await measureOverFloor(bench, bench.relay, { kind: 'click', ref: relayRefs.inc }, floor) : (relayRefs ?? 'not set up');

  bench.log('open and click on 1,500 rows');
  const open1500 = await both(bench, (tool) => measureAction(bench, tool, () => ({ kind: 'open', url: bench.url(uniquePath(FIXTURES.rows1500.path)) })));
  const click1500 = await both(bench, async (tool) => {
    try {
      const snap = (await tool.run({ kind: 'snapshot', interactive: true })).stdout;
      const ref = requireRef(snap, 'button', 'Open');
      return measureAction(bench, tool, { kind: 'click', ref }, { check: equals('window.lastOpened', 1) });
    } catch (err) {
      return na(reason(err));
    }
  });
  rows.push({ label: '`open` (navigate + load), 1,500 rows', ...open1500 }, { label: '`click @ref`, 1,500 rows', ...click1500 });
  return { section: { title: 'commands, small page', rows }, click, clickOverFloor, open1500: open1500.relay };
}
