/**
 * Parsers for the action commands (keys, type, history, close, wait, get, js, dialog, download).
 * Same contract as args.ts: bad input becomes invalid_arguments naming the field, before anything
 * is sent. Checks that need the page (is this key name known, does the selector match) happen in
 * the extension; checks that need this machine (does the download directory exist) happen here.
 */
import { statSync, accessSync, constants as fsConstants } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { RelayError, type ToolParams } from '@chrome-relay/protocol';
import { parseTab } from './args.js';

function invalid(field: string, message: string, value: unknown): RelayError {
  return new RelayError('invalid_arguments', `${field}: ${message}`, { phase: 'cli', details: { field, value } });
}

/** Key combinations for `keys`: each non-empty (names are checked against the key table in the extension). */
export function parseKeyList(raw: readonly string[]): string[] {
  if (raw.length === 0) throw invalid('keys', 'give at least one key, e.g. Enter or Control+a', raw);
  for (const key of raw) {
    if (key.trim() === '') throw invalid('keys', 'a key cannot be empty; write e.g. Enter, Tab, Shift+Tab, Control+a', key);
  }
  return [...raw];
}

export function parseTypeText(raw: string): string {
  if (raw === '') throw invalid('text', 'give the text to type (use `chrome-relay keys` for Enter, Tab and shortcuts)', raw);
  return raw;
}

/** `close 12 34`: every id a positive whole number, reported under field "tabs". */
export function parseTabList(raw: readonly string[]): number[] {
  return raw.map((value) => {
    try {
      return parseTab(value);
    } catch {
      throw invalid('tabs', `must be tab ids (whole numbers from \`chrome-relay tabs\`), got "${value}"`, value);
    }
  });
}

/**
 * `download --dir DIR`: relative to the current directory, and it must already be a directory this
 * user can write (the completed download is moved there by the CLI).
 */
export function parseDownloadDir(raw: string, cwd: string = process.cwd()): string {
  if (raw.trim() === '') throw invalid('dir', 'give a directory for downloads', raw);
  const dir = isAbsolute(raw) ? resolve(raw) : resolve(cwd, raw);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw invalid('dir', `${dir} does not exist; create it first (mkdir -p ${dir})`, raw);
  }
  if (!isDir) throw invalid('dir', `${dir} is not a directory`, raw);
  try {
    accessSync(dir, fsConstants.W_OK);
  } catch {
    throw invalid('dir', `${dir} is not writable by this user`, raw);
  }
  return dir;
}

export interface WaitFlags {
  text?: string;
  url?: string;
  load?: boolean;
  networkidle?: boolean;
  fn?: string;
  selector?: string;
  download?: boolean;
}

const WAIT_FLAG_NAMES = ['--text', '--url', '--load', '--networkidle', '--fn', '--selector', '--download'] as const;

/** Exactly one condition flag → the wait tool's condition params. */
export function waitCondition(flags: WaitFlags): Omit<ToolParams<'wait'>, 'tab' | 'timeoutMs'> {
  const given: (typeof WAIT_FLAG_NAMES)[number][] = [];
  if (flags.text !== undefined) given.push('--text');
  if (flags.url !== undefined) given.push('--url');
  if (flags.load) given.push('--load');
  if (flags.networkidle) given.push('--networkidle');
  if (flags.fn !== undefined) given.push('--fn');
  if (flags.selector !== undefined) given.push('--selector');
  if (flags.download) given.push('--download');
  if (given.length !== 1) {
    throw invalid(
      'condition',
      `give exactly one of ${WAIT_FLAG_NAMES.join(', ')}${given.length ? ` (got ${given.join(' and ')})` : ''}`,
      given,
    );
  }
  for (const [field, value] of [
    ['text', flags.text],
    ['url', flags.url],
    ['fn', flags.fn],
    ['selector', flags.selector],
  ] as const) {
    if (value !== undefined && value.trim() === '') throw invalid(field, 'cannot be empty', value);
  }
  if (flags.text !== undefined) return { text: flags.text };
  if (flags.url !== undefined) return { url: flags.url };
  if (flags.load) return { load: true };
  if (flags.networkidle) return { networkIdle: true };
  if (flags.fn !== undefined) return { fn: flags.fn };
  if (flags.selector !== undefined) return { selector: flags.selector };
  return { download: true };
}

/** `get <what> [attribute]` + --selector → the get tool's params (the schema re-checks the combination). */
export function getParams(what: string, attribute: string | undefined, selector: string | undefined): Omit<ToolParams<'get'>, 'tab'> {
  const choices = ['title', 'url', 'text', 'value', 'attr', 'count'] as const;
  const found = choices.find((c) => c === what);
  if (!found) throw invalid('what', `must be one of ${choices.join(', ')}, got "${what}"`, what);
  if (found === 'attr' && attribute === undefined) throw invalid('name', 'get attr needs the attribute name, e.g. `get attr href --selector a.next`', attribute);
  if (found !== 'attr' && attribute !== undefined) throw invalid('name', `only get attr takes an attribute name, not get ${found}`, attribute);
  const needsSelector = found !== 'title' && found !== 'url';
  if (needsSelector && selector === undefined) throw invalid('selector', `get ${found} needs --selector <css>`, selector);
  if (!needsSelector && selector !== undefined) throw invalid('selector', `get ${found} reads the tab and takes no --selector`, selector);
  const params: Omit<ToolParams<'get'>, 'tab'> = { what: found };
  if (selector !== undefined) params.selector = selector;
  if (attribute !== undefined) params.name = attribute;
  return params;
}
