/**
 * Builds the CLI: three CommonJS files in outDir (CommonJS because Node 20's ESM loader adds ~15 ms
 * to every start, and agents start the CLI once per action).
 *
 *   chrome-relay.cjs  the command (bin): a tiny loader (src/loader/) that prints --version itself and
 *                     otherwise runs cli.cjs compiled with a V8 code cache
 *   cli.cjs           the CLI (commander, the protocol, zod): what start-up costs is kept out of its
 *                     start — zod and child_process load on first use (lazyModule), and the params of
 *                     every tool command are worked out here, at build time, instead of from the
 *                     schemas at each start (__CLI_PARAM_INFOS__, see src/commandSpec.ts)
 *   mcp.cjs           `chrome-relay mcp` with the MCP SDK, loaded by that command only
 */
import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const packageDir = dirname(fileURLToPath(import.meta.url));
const protocolDir = join(packageDir, '../protocol');

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};

/** The sources use import.meta.url (to find dist/host and dist/extension); CommonJS has __filename. */
const metaUrl = {
  define: { 'import.meta.url': '__relayImportMetaUrl' },
  banner: { js: "const __relayImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/** What the build reads from the tool entries: the release and each tool command's params. */
async function toolTables() {
  const built = await esbuild.build({
    stdin: { contents: "export { TOOLS, TOOL_NAMES, VERSION, paramInfos } from '@chrome-relay/protocol';", resolveDir: packageDir, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  const protocol = await import(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString('base64')}`);
  const paramInfos = {};
  for (const tool of protocol.TOOL_NAMES) if (protocol.TOOLS[tool].cli !== undefined) paramInfos[tool] = protocol.paramInfos(protocol.TOOLS[tool].params);
  return { version: protocol.VERSION, paramInfos };
}

/**
 * Imports of `specifier` get a stand-in whose exports are getters that load the real module when
 * one is first read: the bundle then pays for the module only in the runs that use it. `names`
 * are its exports; a bundled module is reached through a re-export of exactly those names (so it
 * is still tree-shaken), a Node built-in is required as is.
 */
function lazyModule(specifier, names, { builtin = false } = {}) {
  const filter = new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  // Namespaces of this stand-in alone: each lazy module is its own.
  const standIn = `lazy-${specifier.replace(/\W/g, '_')}`;
  const real = `${standIn}-real`;
  return {
    name: `lazy ${specifier}`,
    setup(build) {
      build.onResolve({ filter }, (args) => {
        if (args.kind === 'dynamic-import' || args.namespace === real) return undefined;
        if (args.namespace === standIn) return builtin ? { path: specifier, external: true } : { path: specifier, namespace: real };
        return { path: specifier, namespace: standIn };
      });
      build.onLoad({ filter: /.*/, namespace: standIn }, () => ({
        contents: [
          'let real;',
          `const load = () => (real ??= require(${JSON.stringify(specifier)}));`,
          "Object.defineProperty(exports, '__esModule', { value: true });",
          `for (const name of ${JSON.stringify(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });`,
        ].join('\n'),
        loader: 'js',
      }));
      build.onLoad({ filter: /.*/, namespace: real }, () => ({
        contents: `export { ${names.join(', ')} } from ${JSON.stringify(specifier)};`,
        resolveDir: protocolDir,
        loader: 'js',
      }));
    },
  };
}

/**
 * `await import('node:x')` becomes a require of the built-in: the loader runs cli.cjs through
 * vm.Script, where a dynamic import() has no loader to call once the code came from the cache.
 */
const builtinsRequired = {
  name: 'built-ins required',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'builtin' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/** The exports of `specifier` as seen from `fromDir`. */
function exportNames(specifier, fromDir) {
  const module = createRequire(join(fromDir, 'package.json'))(specifier);
  return Object.keys(module).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
}

/**
 * The zod exports the bundled sources read. Every source imports zod as a namespace (`import * as z`,
 * enforced by scripts/zodImports.test.ts), so each use reads `z.<name>`.
 */
function zodNamesUsed() {
  const used = new Set();
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) for (const match of readFileSync(path, 'utf8').matchAll(/\bz\.([A-Za-z_$][\w$]*)/g)) used.add(match[1]);
    }
  };
  for (const dir of [join(protocolDir, 'src'), join(packageDir, 'src'), join(packageDir, '../host-files/src')]) visit(dir);
  return exportNames('zod', protocolDir).filter((name) => used.has(name));
}

/**
 * @param {{ outDir: string }} options
 * @returns {Promise<{ bundleHash: string }>}
 */
export async function buildCli({ outDir }) {
  const tables = await toolTables();
  const zodNames = zodNamesUsed();
  const childProcessNames = exportNames('node:child_process', packageDir);
  const cli = await esbuild.build({
    ...common,
    ...metaUrl,
    entryPoints: [join(packageDir, 'src/main.ts')],
    outfile: join(outDir, 'cli.cjs'),
    write: false,
    define: { ...metaUrl.define, __CLI_PARAM_INFOS__: JSON.stringify(tables.paramInfos) },
    plugins: [lazyModule('zod', zodNames), lazyModule('node:child_process', childProcessNames, { builtin: true }), builtinsRequired],
  });
  const bundle = cli.outputFiles[0].contents;
  if (/\bimport\(/.test(cli.outputFiles[0].text)) throw new Error('cli.cjs calls import(): the loader runs it through vm.Script, where that fails once the code comes from the cache');
  writeFileSync(join(outDir, 'cli.cjs'), bundle);
  const bundleHash = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
  await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: [join(packageDir, 'src/loader/main.ts')],
      outfile: join(outDir, 'chrome-relay.cjs'),
      define: { __CLI_VERSION__: JSON.stringify(tables.version), __CLI_BUNDLE_HASH__: JSON.stringify(bundleHash) },
      banner: { js: '#!/usr/bin/env node' },
    }),
    esbuild.build({ ...common, ...metaUrl, entryPoints: [join(packageDir, 'src/mcp/main.ts')], outfile: join(outDir, 'mcp.cjs') }),
  ]);
  chmodSync(join(outDir, 'chrome-relay.cjs'), 0o755);
  return { bundleHash };
}
