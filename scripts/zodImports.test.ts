import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `import { z } from 'zod'` binds zod's whole namespace object, so esbuild cannot drop anything:
 * the CLI bundle grew by ~350 KB (every locale), which agents pay on each call in parse time.
 * `import * as z from 'zod'` with static member access lets esbuild tree-shake.
 */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(path).isDirectory() ? sources(path) : /\.ts$/.test(name) ? [path] : [];
  });
}

describe('zod imports stay tree-shakeable', () => {
  it('no source imports the z namespace by name', () => {
    const packages = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages');
    const offenders = sources(packages).filter((file) => /import\s+(type\s+)?\{\s*z\s*\}\s+from\s+'zod'/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
