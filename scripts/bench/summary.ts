/**
 * The ratio lines `pnpm bench` has always printed, so figures stay comparable with earlier runs: start-up and click
 * against `node -e 0`, and the 1,500-row snapshot, navigate and loop (full snapshots). The goals:
 * `--version` ≤ 1.10× and `tabs` ≤ 1.20× Node's own start, an action ≤ Node's start + 30 ms.
 */
import type { OverFloor } from './measure.js';
import { formatMs, formatRatio } from './report.js';

export interface SummaryFigures {
  node: number;
  version: number | undefined;
  tabs: number | undefined;
  click: number | undefined;
  snapshot1500: number | undefined;
  navigate1500: number | undefined;
  loop1500: number | undefined;
  /** agent-browser's same loop in this run, when peers were measured. */
  peerLoop1500: number | undefined;
  /** The same goals from runs paired with `node -e 0` (a string: why there is no figure). */
  paired?: { version: OverFloor | string; tabs: OverFloor | string; click: OverFloor | string };
}

const vsNode = (value: number | undefined, node: number): string => (value === undefined ? 'n/a' : formatRatio(value / node));
const ms = (value: number | undefined): string => (value === undefined ? 'n/a' : formatMs(value));
const overNode = (value: number | undefined, node: number): string => (value === undefined ? 'n/a' : `${value >= node ? '+' : '−'}${formatMs(Math.abs(value - node))}`);

const signedMs = (value: number): string => `${value >= 0 ? '+' : '−'}${formatMs(Math.abs(value))}`;
const pairedLine = (label: string, figure: OverFloor | string, goal: string): string =>
  `  ${label} ${typeof figure === 'string' ? `n/a (${figure})` : `${formatRatio(figure.ratio)} node, ${signedMs(figure.overMs)} over it`}   (goal ${goal})`;

export function renderSummary(f: SummaryFigures): string {
  const peer = f.peerLoop1500 === undefined ? 'agent-browser ≈ 1,500 ms' : `agent-browser ${formatMs(f.peerLoop1500)} in this run`;
  const paired =
    f.paired === undefined
      ? []
      : [
          'paired with node -e 0 (each run next to one node -e 0, alternating order; medians of the per-pair figures):',
          pairedLine('--version =', f.paired.version, '≤ 1.10×'),
          pairedLine('tabs      =', f.paired.tabs, '≤ 1.20×'),
          pairedLine('click     =', f.paired.click, '≤ +30 ms'),
        ];
  return [
    'ratios (same run):',
    `  --version / node -e 0 = ${vsNode(f.version, f.node)}   (goal ≤ 1.10×)`,
    `  tabs / node -e 0      = ${vsNode(f.tabs, f.node)}   (goal ≤ 1.20×)`,
    `  click / node -e 0     = ${vsNode(f.click, f.node)}, ${overNode(f.click, f.node)} over it   (goal ≤ +30 ms)`,
    `  snapshot 1,500 rows   = ${ms(f.snapshot1500)}; navigate = ${ms(f.navigate1500)}; loop = ${ms(f.loop1500)} (${peer}; goal ≤ 750 ms)`,
    ...paired,
  ].join('\n');
}
