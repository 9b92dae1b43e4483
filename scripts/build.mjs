#!/usr/bin/env node
// Builds every bundle with esbuild. The CLI package is self-contained after this:
//   packages/cli/dist/chrome-relay.cjs   the command: a small loader that runs cli.cjs from a V8 code cache
//   packages/cli/dist/cli.cjs            the CLI (startup time matters: agents call it per action; see
//                                        packages/cli/build.mjs for what is kept out of its start)
//   packages/cli/dist/mcp.cjs            `chrome-relay mcp` with the MCP SDK, loaded by that command only, so
//                                        no other command reads or parses the SDK at start-up
//   packages/cli/dist/host/host.mjs      the native host (copied into $CHROME_RELAY_HOME/host by install/launch)
//   packages/cli/dist/extension/         the unpacked MV3 extension (manifest key → stable dev id)
// Everything is written into a fresh directory and swapped in whole (swapBuild.mjs): a suite running from the old
// build keeps working while `pnpm demo`, `pnpm bench` or `pnpm docs:popup` rebuild in the same checkout.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildCli } from '../packages/cli/build.mjs';
import { buildExtension } from '../packages/extension/build.mjs';
import { stagingDirs, swapIn, sweepStaging } from './swapBuild.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
// --out DIR builds a private copy (benchmarks, parallel e2e) without touching packages/cli/dist.
const dist = outIndex > 0 && process.argv[outIndex + 1] ? resolve(process.argv[outIndex + 1]) : join(root, 'packages/cli/dist');
const storeBuild = process.argv.includes('--store');

// An ESM bundle needs a real `require` for the node: builtins of the CommonJS packages inside it.
const nodeBanner = "import { createRequire as __relayCreateRequire } from 'node:module'; const require = __relayCreateRequire(import.meta.url);";

const started = Date.now();
sweepStaging(dist);
const { fresh } = stagingDirs(dist);
rmSync(fresh, { recursive: true, force: true });
mkdirSync(fresh, { recursive: true });
await Promise.all([
  buildCli({ outDir: fresh }),
  build({
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    entryPoints: [join(root, 'packages/native-host/src/main.ts')],
    outfile: join(fresh, 'host/host.mjs'),
    banner: { js: nodeBanner },
  }),
  buildExtension({ outDir: join(fresh, 'extension'), withKey: !storeBuild }),
]).catch((error) => {
  rmSync(fresh, { recursive: true, force: true });
  throw error;
});
mkdirSync(dirname(dist), { recursive: true });
swapIn(fresh, dist);
console.error(`build: done in ${Date.now() - started} ms → ${dist}`);
