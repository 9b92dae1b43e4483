#!/usr/bin/env node
// Builds every bundle with esbuild. The CLI package is self-contained after this:
//   packages/cli/dist/chrome-relay.cjs   the CLI (one file; startup time matters: agents call it per action —
//                                        CommonJS because Node 20's ESM loader adds ~15 ms per start)
//   packages/cli/dist/mcp.cjs            `chrome-relay mcp` with the MCP SDK, loaded by that command only, so
//                                        no other command reads or parses the SDK at start-up
//   packages/cli/dist/host/host.mjs      the native host (copied into $CHROME_RELAY_HOME/host by install/launch)
//   packages/cli/dist/extension/         the unpacked MV3 extension (manifest key → stable dev id)
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildExtension } from '../packages/extension/build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
// --out DIR builds a private copy (benchmarks, parallel e2e) without touching packages/cli/dist.
const dist = outIndex > 0 && process.argv[outIndex + 1] ? resolve(process.argv[outIndex + 1]) : join(root, 'packages/cli/dist');
const storeBuild = process.argv.includes('--store');

// commander is CommonJS; an ESM bundle needs a real `require` for its node: builtins.
const nodeBanner = "import { createRequire as __relayCreateRequire } from 'node:module'; const require = __relayCreateRequire(import.meta.url);";

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};

const started = Date.now();
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await Promise.all([
  build({
    ...common,
    format: 'cjs',
    entryPoints: [join(root, 'packages/cli/src/main.ts')],
    outfile: join(dist, 'chrome-relay.cjs'),
    // The sources use import.meta.url (to find dist/host and dist/extension); CommonJS has __filename.
    define: { 'import.meta.url': '__relayImportMetaUrl' },
    banner: { js: `#!/usr/bin/env node\nconst __relayImportMetaUrl = require('node:url').pathToFileURL(__filename).href;` },
  }),
  build({
    ...common,
    format: 'cjs',
    entryPoints: [join(root, 'packages/cli/src/mcp/main.ts')],
    outfile: join(dist, 'mcp.cjs'),
    define: { 'import.meta.url': '__relayImportMetaUrl' },
    banner: { js: `const __relayImportMetaUrl = require('node:url').pathToFileURL(__filename).href;` },
  }),
  build({
    ...common,
    entryPoints: [join(root, 'packages/native-host/src/main.ts')],
    outfile: join(dist, 'host/host.mjs'),
    banner: { js: nodeBanner },
  }),
  buildExtension({ outDir: join(dist, 'extension'), withKey: !storeBuild }),
]);
chmodSync(join(dist, 'chrome-relay.cjs'), 0o755);
console.error(`build: done in ${Date.now() - started} ms → ${dist}`);
