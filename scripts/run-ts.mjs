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
  // The root's own packages stay external (resolved from its node_modules at run time); a workspace
  // package's dependencies (zod under packages/protocol) are bundled, as Node could not find them from here.
  external: rootPackages(),
  // Keep import.meta.url-relative paths working: each file gets its own original URL (a global define would give
  // every module the entry's URL, so e2e/harness.ts would look for the CLI and pages beside the script instead).
  plugins: [ownImportMetaUrl()],
  logLevel: 'warning',
});

function rootPackages() {
  const manifest = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../package.json'), 'utf8'));
  return Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => !name.startsWith('@chrome-relay/'));
}

/** Replace `import.meta.url` in each TypeScript source with that file's own URL. */
function ownImportMetaUrl() {
  return {
    name: 'own-import-meta-url',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.ts$/ }, (args) => ({
        contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: 'ts',
      }));
    },
  };
}

process.argv = [process.argv[0], entry, ...args];
try {
  await import(pathToFileURL(outfile).href);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
