/**
 * The bench's output: markdown tables (paste straight into an issue) with a chrome-relay column, a peer column
 * and a ratio column, and a list of the reasons behind every "n/a". Pure: a model in, text out.
 */
import type { Stats } from './timing.js';

export type Cell =
  | { kind: 'time'; stats: Stats }
  | { kind: 'count'; value: number }
  /** Could not be measured (command missing in this build, a failure, a check that did not hold). */
  | { kind: 'na'; reason: string }
  /** Not applicable: this column has nothing to say about the row. */
  | { kind: 'none' };

export const NONE: Cell = { kind: 'none' };
export const na = (reason: string): Cell => ({ kind: 'na', reason });
export const time = (s: Stats): Cell => ({ kind: 'time', stats: s });
export const count = (value: number): Cell => ({ kind: 'count', value });

export interface Row {
  label: string;
  relay: Cell;
  peer: Cell;
  /** Compare chrome-relay with this reference instead of the peer column (e.g. `node -e 0`). */
  ratioTo?: { name: string; value: number };
}

export interface Section {
  title: string;
  /** Header of the second column; the default peer column is dropped when peers were not measured. */
  peerHeader?: string;
  rows: Row[];
  /** Extra lines printed under the table (e.g. a breakdown of a figure). */
  notes?: string[];
}

export interface Report {
  sections: Section[];
  /** Whether the agent-browser column is shown. */
  peers: boolean;
  peerName: string;
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${grouped.format(ms)} ms`;
}

export function cellValue(cell: Cell): number | undefined {
  if (cell.kind === 'time') return cell.stats.median;
  if (cell.kind === 'count') return cell.value;
  return undefined;
}

export function formatCell(cell: Cell): string {
  switch (cell.kind) {
    case 'time': {
      const { median, min, max, n } = cell.stats;
      return n > 1 ? `${formatMs(median)} [${formatMs(min).replace(' ms', '')}–${formatMs(max)}]` : formatMs(median);
    }
    case 'count':
      return grouped.format(cell.value);
    case 'na':
      return 'n/a';
    case 'none':
      return '–';
  }
}

export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '–';
  if (ratio >= 100) return `${grouped.format(ratio)}×`;
  if (ratio >= 10) return `${ratio.toFixed(1)}×`;
  if (ratio >= 0.01 || ratio === 0) return `${ratio.toFixed(2)}×`;
  return `${ratio.toPrecision(2)}×`;
}

export function ratioText(row: Row): string {
  const mine = cellValue(row.relay);
  const theirs = row.ratioTo ? row.ratioTo.value : cellValue(row.peer);
  if (mine === undefined || theirs === undefined || theirs === 0) return '–';
  return row.ratioTo ? `${formatRatio(mine / theirs)} ${row.ratioTo.name}` : formatRatio(mine / theirs);
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)];
}

export function renderSection(section: Section, report: Pick<Report, 'peers' | 'peerName'>): string {
  const showPeer = section.peerHeader !== undefined || report.peers;
  const showRatio = showPeer || section.rows.some((r) => r.ratioTo);
  const header = [section.title, 'chrome-relay', ...(showPeer ? [section.peerHeader ?? report.peerName] : []), ...(showRatio ? ['ratio'] : [])];
  const rows = section.rows.map((r) => [
    r.label,
    formatCell(r.relay),
    ...(showPeer ? [formatCell(r.peer)] : []),
    ...(showRatio ? [showPeer || r.ratioTo !== undefined ? ratioText(r) : '–'] : []),
  ]);
  const lines = table(header, rows);
  // One line per column and reason: rows derived from one failed measurement share it.
  const reasons = new Map<string, string[]>();
  const note = (column: string, cell: Cell, label: string): void => {
    if (cell.kind !== 'na') return;
    const key = `${column}\u0000${cell.reason}`;
    reasons.set(key, [...(reasons.get(key) ?? []), label]);
  };
  for (const r of section.rows) {
    note('chrome-relay', r.relay, r.label);
    if (showPeer) note(section.peerHeader ?? report.peerName, r.peer, r.label);
  }
  const notes = [...reasons].map(([key, labels]) => {
    const [column, why] = key.split('\u0000');
    return `  n/a ${labels.join(', ')} (${column ?? ''}): ${why ?? ''}`;
  });
  return [...lines, ...notes, ...(section.notes ?? []).map((n) => `  ${n}`)].join('\n');
}

export function renderReport(report: Report): string {
  return report.sections.map((s) => renderSection(s, report)).join('\n\n');
}
