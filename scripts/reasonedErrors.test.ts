import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * target_conflict covers situations with different fixes (a flag contradicting a ref, a lease, an
 * open dialog, two targets, a taken or ambiguous name…), so an agent needs details.reason to pick
 * its move. Every throw site goes through reasonedError, which sets it; a plain
 * `new RelayError('target_conflict', …)` would ship a conflict without one.
 */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(path).isDirectory() ? sources(path) : /(?<!\.test)\.ts$/.test(name) ? [path] : [];
  });
}

describe('target_conflict always carries a reason', () => {
  it('no source builds one without reasonedError', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..');
    const offenders = sources(join(root, 'packages')).filter((file) => /RelayError\(\s*[^,)]*'target_conflict'/.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(root, file))).toEqual([]);
  });
});
