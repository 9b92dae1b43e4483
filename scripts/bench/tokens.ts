/**
 * Token counts with a real BPE tokenizer: js-tiktoken's o200k_base (the GPT-4o family encoding). Its ranks ship
 * inside the npm package (js-tiktoken/ranks/*), so counting needs no download at run time.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

export const TOKEN_ENCODING = 'o200k_base';

let encoder: Tiktoken | undefined;

/** Tokens of `text` as a model would read it (special-token lookalikes in page text count as plain text). */
export function countTokens(text: string): number {
  // Built on first use: loading the ranks takes about a second.
  encoder ??= new Tiktoken(o200kBase);
  return encoder.encode(text, [], []).length;
}

/** The installed js-tiktoken version, for the report header. */
export function tokenizerVersion(): string {
  try {
    const entry = createRequire(import.meta.url).resolve('js-tiktoken');
    const pkg = join(entry.slice(0, entry.lastIndexOf(`${sep}js-tiktoken${sep}`)), 'js-tiktoken', 'package.json');
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
