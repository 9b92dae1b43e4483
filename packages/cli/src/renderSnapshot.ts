/**
 * Snapshot tree → the indented text agents read. One line per node:
 *   - button "Submit" [disabled] [ref=e12]
 *   - textbox "Email" [ref=e4]: current value
 *   - text: free text
 * Names are JSON-quoted so quotes and newlines in page text cannot break the line format.
 */
import type { SnapshotNode } from '@chrome-relay/protocol';

export interface RenderOptions {
  urls?: boolean;
}

function attributes(node: SnapshotNode): string {
  const parts: string[] = [];
  if (node.level !== undefined) parts.push(`[level=${node.level}]`);
  if (node.checked === 'true') parts.push('[checked]');
  else if (node.checked === 'mixed') parts.push('[checked=mixed]');
  if (node.disabled) parts.push('[disabled]');
  if (node.expanded !== undefined) parts.push(node.expanded ? '[expanded]' : '[collapsed]');
  if (node.selected) parts.push('[selected]');
  if (node.ref) parts.push(`[ref=${node.ref}]`);
  return parts.length ? ` ${parts.join(' ')}` : '';
}

function renderNode(node: SnapshotNode, depth: number, out: string[], options: RenderOptions): void {
  const indent = '  '.repeat(depth);
  if (node.role === 'text') {
    out.push(`${indent}- text: ${node.name ?? ''}`);
    return;
  }
  let line = `${indent}- ${node.role}`;
  if (node.name) line += ` ${JSON.stringify(node.name)}`;
  line += attributes(node);
  if (node.value !== undefined && node.value !== '') line += `: ${JSON.stringify(node.value)}`;
  if (options.urls && node.url) line += ` -> ${node.url}`;
  const children = node.children ?? [];
  if (children.length > 0) line += ':';
  out.push(line);
  for (const child of children) renderNode(child, depth + 1, out, options);
}

export function renderSnapshot(tree: readonly SnapshotNode[], options: RenderOptions = {}): string {
  const out: string[] = [];
  for (const node of tree) renderNode(node, 0, out, options);
  return out.join('\n');
}
