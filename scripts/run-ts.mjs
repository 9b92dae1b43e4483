#!/usr/bin/env node
// Run a TypeScript script (benchmarks, generators) by bundling it with esbuild first: no extra runtime needed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  // Keep import.meta.url-relative paths working: each file's resolves against that file (e2e/fixtureServer.ts finds
  // e2e/pages/ from its own location, whatever script imports it).
  plugins: [
    {
      name: 'own-import-meta-url',
      setup(pluginBuild) {
        pluginBuild.onLoad({ filter: /\.ts$/ }, (args) => ({
          contents: readFileSync(args.path, 'utf8').replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href)),
          loader: 'ts',
        }));
      },
    },
  ],
  logLevel: 'warning',
});
process.argv = [process.argv[0], entry, ...args];
try {
  await import(pathToFileURL(outfile).href);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
