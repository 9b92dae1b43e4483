/**
 * Parsers for the element commands (fill, select, scroll, drag, upload, click options, snapshot
 * options). Same contract as args.ts: bad input is invalid_arguments naming the field, before
 * anything is sent. File paths are checked here because the CLI shares the filesystem with the
 * browser; the extension receives absolute paths of files that existed a moment ago.
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { RelayError, type ToolParams } from '@chrome-relay/protocol';
import { parseRefArg } from './args.js';

function invalid(field: string, message: string, value: unknown): RelayError {
  return new RelayError('invalid_arguments', `${field}: ${message}`, { phase: 'cli', details: { field, value } });
}

/** Every path must name an existing regular file; returned absolute. */
export function parseUploadFiles(raw: readonly string[], cwd: string = process.cwd()): string[] {
  if (raw.length === 0) throw invalid('files', 'give at least one file to upload', raw);
  return raw.map((file) => {
    if (file.trim() === '') throw invalid('files', 'a file path cannot be empty', file);
    const path = isAbsolute(file) ? resolve(file) : resolve(cwd, file);
    let isFile = false;
    try {
      isFile = statSync(path).isFile();
    } catch {
      throw invalid('files', `${path} does not exist`, file);
    }
    if (!isFile) throw invalid('files', `${path} is not a regular file`, file);
    return path;
  });
}

/** `upload @ref files…` or `upload --via @button files…`. */
export function uploadParams(positionals: readonly string[], via: string | undefined, cwd?: string): Omit<ToolParams<'upload'>, 'tab'> {
  if (via !== undefined) return { ref: parseRefArg(via, 'via'), files: parseUploadFiles(positionals, cwd), via: true };
  const [first, ...files] = positionals;
  if (first === undefined) throw invalid('ref', 'give the file input ref then the files, e.g. `upload @e7 ./photo.png`', positionals);
  return { ref: parseRefArg(first), files: parseUploadFiles(files, cwd) };
}

export const SCROLL_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

/** `scroll <direction> [amount] [--in @ref]` or `scroll --into-view @ref`. */
export function scrollParams(direction: string | undefined, amount: string | undefined, flags: { in?: string; intoView?: string }): Omit<ToolParams<'scroll'>, 'tab'> {
  if (flags.intoView !== undefined) {
    if (direction !== undefined || flags.in !== undefined) throw invalid('direction', 'give either --into-view @ref or a direction, not both', direction);
    return { ref: parseRefArg(flags.intoView, 'into-view'), intoView: true };
  }
  if (direction === undefined) throw invalid('direction', 'give a direction (up, down, left, right) or --into-view @ref', direction);
  const dir = SCROLL_DIRECTIONS.find((d) => d === direction);
  if (dir === undefined) throw invalid('direction', `must be one of ${SCROLL_DIRECTIONS.join(', ')}, got "${direction}"`, direction);
  const params: Omit<ToolParams<'scroll'>, 'tab'> = { direction: dir };
  if (amount !== undefined) {
    const px = Number(amount);
    if (!/^\d+$/.test(amount.trim()) || !Number.isSafeInteger(px) || px < 1) throw invalid('amount', `must be a positive whole number of CSS pixels, got "${amount}"`, amount);
    params.amount = px;
  }
  if (flags.in !== undefined) params.ref = parseRefArg(flags.in, 'in');
  return params;
}

export const CLICK_MODIFIERS = ['Alt', 'Control', 'Meta', 'Shift'] as const;
type ClickModifier = (typeof CLICK_MODIFIERS)[number];
const MODIFIER_ALIASES: Readonly<Record<string, ClickModifier>> = { alt: 'Alt', control: 'Control', ctrl: 'Control', meta: 'Meta', cmd: 'Meta', shift: 'Shift' };

/** `--modifiers Shift,Control` (case-insensitive; Ctrl and Cmd accepted). */
export function parseModifiers(raw: string): ClickModifier[] {
  const names = raw.split(/[,+]/).map((part) => part.trim()).filter((part) => part !== '');
  if (names.length === 0) throw invalid('modifiers', 'give modifier names like Shift or Shift,Control', raw);
  const out: ClickModifier[] = [];
  for (const name of names) {
    const found = MODIFIER_ALIASES[name.toLowerCase()];
    if (found === undefined) throw invalid('modifiers', `unknown modifier "${name}" (use ${CLICK_MODIFIERS.join(', ')})`, raw);
    if (!out.includes(found)) out.push(found);
  }
  return out;
}

/** `snapshot -s @e3` (a ref) or `-s "form#login"` (a CSS selector). */
export function parseScope(raw: string): { scopeRef: string } | { scopeSelector: string } {
  const trimmed = raw.trim();
  if (trimmed === '') throw invalid('scope', 'give a ref (@e12) or a CSS selector', raw);
  if (trimmed.startsWith('@')) return { scopeRef: parseRefArg(trimmed, 'scope') };
  return { scopeSelector: trimmed };
}
