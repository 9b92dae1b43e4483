#!/usr/bin/env node
// Run a TypeScript script (benchmarks, generators) by bundling it with esbuild first: no extra runtime needed.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <file.ts> [args…]');
  process.exit(2);
}
// Inside the repo so bare imports (puppeteer-core, …) resolve from its node_modules.
const cacheDir = join(dirname(fileURLToPath(import.meta.url)), '../node_modules/.cache');
mkdirSync(cacheDir, { recursive: true });
const outDir = mkdtempSync(join(cacheDir, 'run-ts-'));
const outfile = join(outDir, 'script.mjs');
await build({
  entryPoints: [resolve(entry)],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile,
  packages: 'external',
  // Keep import.meta.url-relative paths working: resolve them against the original file.
  define: { 'import.meta.url': JSON.stringify(pathToFileURL(resolve(entry)).href) },
  logLevel: 'warning',
});
process.argv = [process.argv[0], entry, ...args];
try {
  await import(pathToFileURL(outfile).href);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
