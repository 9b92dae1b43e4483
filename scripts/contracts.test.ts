/**
 * Contracts that are types, not strings a producer imitates for a consumer to recognise (issue 36). Each check here
 * fails when a new copy of the string appears:
 * - a CDP failure's kind is set where the error is made (packages/extension/src/cdp/failures.ts CdpFailure): only
 *   cdp/ writes Chrome's words (`cdpMessage`) into an error, and only it makes a CdpFailure.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The non-test TypeScript sources under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('CDP failure kinds are made, not read back from words', () => {
  it("only the extension's cdp/ writes a cdpMessage (Chrome's words) into an error, and only it makes a CdpFailure", () => {
    const extension = join(repo, 'packages/extension/src');
    const writers = sources(extension).filter((path) => !relative(extension, path).startsWith('cdp/') && /\bcdpMessage\s*[:,}]|new CdpFailure\(/.test(readFileSync(path, 'utf8')));
    expect(writers.map((path) => relative(repo, path))).toEqual([]);
  });
});
