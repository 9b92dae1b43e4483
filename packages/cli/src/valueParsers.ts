/**
 * The named value parsers a tool entry may ask for (cliShape.ts CliParser): sugar the command line
 * offers over the wire shape, and checks that need this machine (does the file exist). Each returns
 * the value for the param, or throws invalid_arguments naming the field.
 */
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { invalidArgument } from './args.js';

const CLICK_MODIFIERS = ['Alt', 'Control', 'Meta', 'Shift'] as const;
type ClickModifier = (typeof CLICK_MODIFIERS)[number];
const MODIFIER_ALIASES: Readonly<Record<string, ClickModifier>> = { alt: 'Alt', control: 'Control', ctrl: 'Control', meta: 'Meta', cmd: 'Meta', shift: 'Shift' };

/** `--modifiers Shift,Control` (case-insensitive; Ctrl and Cmd accepted). */
export function parseModifiers(raw: string, field = 'modifiers'): ClickModifier[] {
  const names = raw.split(/[,+]/).map((part) => part.trim()).filter((part) => part !== '');
  if (names.length === 0) throw invalidArgument(field, 'give modifier names like Shift or Shift,Control', raw);
  const out: ClickModifier[] = [];
  for (const name of names) {
    const found = MODIFIER_ALIASES[name.toLowerCase()];
    if (found === undefined) throw invalidArgument(field, `unknown modifier "${name}" (use ${CLICK_MODIFIERS.join(', ')})`, raw);
    if (!out.includes(found)) out.push(found);
  }
  return out;
}

/** Every path must name an existing regular file; returned absolute. */
export function parseFiles(raw: readonly string[], field = 'files', cwd: string = process.cwd()): string[] {
  if (raw.length === 0) throw invalidArgument(field, 'give at least one file', raw);
  return raw.map((file) => {
    if (file.trim() === '') throw invalidArgument(field, 'a file path cannot be empty', file);
    const path = isAbsolute(file) ? resolve(file) : resolve(cwd, file);
    let isFile = false;
    try {
      isFile = statSync(path).isFile();
    } catch {
      throw invalidArgument(field, `${path} does not exist`, file);
    }
    if (!isFile) throw invalidArgument(field, `${path} is not a regular file`, file);
    return path;
  });
}

/** A directory relative to the current one that must already exist and be writable by this user. */
export function parseWritableDir(raw: string, field = 'dir', cwd: string = process.cwd()): string {
  if (raw.trim() === '') throw invalidArgument(field, 'give a directory', raw);
  const dir = isAbsolute(raw) ? resolve(raw) : resolve(cwd, raw);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw invalidArgument(field, `${dir} does not exist; create it first (mkdir -p ${dir})`, raw);
  }
  if (!isDir) throw invalidArgument(field, `${dir} is not a directory`, raw);
  try {
    accessSync(dir, fsConstants.W_OK);
  } catch {
    throw invalidArgument(field, `${dir} is not writable by this user`, raw);
  }
  return dir;
}
