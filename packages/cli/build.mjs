/**
 * Builds the CLI: three CommonJS files in outDir (CommonJS because Node 20's ESM loader adds ~15 ms
 * to every start, and agents start the CLI once per action).
 *
 *   chrome-relay.cjs  the command (bin): a tiny loader (src/loader/) that prints --version itself,
 *                     hands tool commands to call.cjs and everything else to cli.cjs, each compiled
 *                     with a V8 code cache
 *   call.cjs          the fast path of tool commands (src/fast/): their command line read from a table
 *                     made here from the commander declarations (__CLI_FAST_TABLE__), then the same
 *                     call and output code as cli.cjs; no commander, no hand-written commands
 *   schemas.cjs       the tool entries with their zod schemas, and zod: what call.cjs loads when a call
 *                     fails or meets another build
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

/**
 * What the build reads from the tool entries: the release, each tool command's params, and each
 * entry without its schemas (plain data: policies, command line) for call.cjs (lightToolEntries).
 */
async function toolTables() {
  const protocol = await importBuilt(
    `export { TOOLS, TOOL_NAMES, VERSION, paramInfos } from '@chrome-relay/protocol'; export * as toolsModule from ${JSON.stringify(join(protocolDir, 'src/tools.ts'))};`,
    packageDir,
  );
  const paramInfos = {};
  for (const tool of protocol.TOOL_NAMES) if (protocol.TOOLS[tool].cli !== undefined) paramInfos[tool] = protocol.paramInfos(protocol.TOOLS[tool].params);
  const entries = {};
  for (const tool of protocol.TOOL_NAMES) {
    // The MCP face is read by dist/mcp.cjs only (built from the sources): no tool command parses it at start-up.
    const plain = Object.entries(Object.getOwnPropertyDescriptors(protocol.TOOLS[tool])).filter(([key, d]) => 'value' in d && key !== 'mcp');
    entries[tool] = Object.fromEntries(plain.map(([key, d]) => [key, d.value]));
  }
  return { version: protocol.VERSION, paramInfos, entries, toolsExports: Object.keys(protocol.toolsModule).sort() };
}

/** What call.cjs finds in dist/schemas.cjs: the tool entries with their schemas, and the zod they are made of. */
const SCHEMAS_BUNDLE = `require(${JSON.stringify(join(packageDir, 'src/fast/schemas.ts'))}).schemasBundle()`;
/** The runtime exports of protocol's tools.ts, which lightToolEntries stands in for. */
const TOOLS_EXPORTS = ['SnapshotTreeSchema', 'TOOLS'];

/**
 * call.cjs: protocol's tools.ts (every tool entry, with the code of every schema) becomes the entries
 * without their schemas, baked in as JSON, whose params and result load dist/schemas.cjs when first
 * read — in a call, only when it failed or met another build. toolLookup.ts, which reads plain fields
 * only, works on them unchanged.
 */
function lightToolEntries(entries, toolsExports) {
  if (JSON.stringify(toolsExports) !== JSON.stringify(TOOLS_EXPORTS)) throw new Error(`protocol/src/tools.ts exports ${toolsExports.join(', ')}: teach lightToolEntries (packages/cli/build.mjs) the new ones`);
  const toolsFile = join(protocolDir, 'src/tools.ts');
  return {
    name: 'light tool entries',
    setup(build) {
      build.onResolve({ filter: /^\.\/tools\.js$/ }, (args) => (join(args.resolveDir, 'tools.ts') === toolsFile ? { path: toolsFile, namespace: 'light-tools' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'light-tools' }, () => ({
        contents: [
          `const load = () => ${SCHEMAS_BUNDLE};`,
          `const entries = JSON.parse(${JSON.stringify(JSON.stringify(entries))});`,
          'for (const [name, entry] of Object.entries(entries)) {',
          "  for (const part of ['params', 'result']) Object.defineProperty(entry, part, { enumerable: true, get: () => load().TOOLS[name][part] });",
          '}',
          'export const TOOLS = entries;',
          'export const SnapshotTreeSchema = () => load().SnapshotTreeSchema();',
        ].join('\n'),
        loader: 'js',
        resolveDir: packageDir,
      }));
    },
  };
}

/** Import an ESM bundle built in memory (build-time tables worked out from the sources). */
async function importBuilt(contents, resolveDir) {
  const built = await esbuild.build({
    stdin: { contents, resolveDir, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
    // A data: URL has no path to resolve from: node: built-ins are all a bundled CommonJS package requires.
    banner: { js: `import { createRequire as __relayCreateRequire } from 'node:module'; const require = __relayCreateRequire(${JSON.stringify(join(resolveDir, 'package.json'))});` },
  });
  return import(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString('base64')}`);
}

/** The fast path's command table (src/fast/commandTable.ts), from the commander declarations. */
async function fastTable() {
  const { commandTable } = await importBuilt("export { commandTable } from './src/fast/commandTable.ts';", packageDir);
  return commandTable();
}

/**
 * Imports of `specifier` get a stand-in whose exports are getters that load the real module when
 * one is first read: the bundle then pays for the module only in the runs that use it. `names`
 * are its exports; a bundled module is reached through a re-export of exactly those names (so it
 * is still tree-shaken), a Node built-in is required as is, and `from` (an expression) reaches a
 * module another bundle carries.
 */
function lazyModule(specifier, names, { builtin = false, from } = {}) {
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
          `const load = () => (real ??= ${from ?? `require(${JSON.stringify(specifier)})`});`,
          "Object.defineProperty(exports, '__esModule', { value: true });",
          `for (const name of ${JSON.stringify(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });`,
        ].join('\n'),
        loader: 'js',
        resolveDir: packageDir,
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
  const [tables, table] = await Promise.all([toolTables(), fastTable()]);
  const zodNames = zodNamesUsed();
  const childProcessNames = exportNames('node:child_process', packageDir);
  /** One bundle the loader runs through vm.Script: written, and its content hash returned. */
  const loaded = async (name, entry, define, plugins) => {
    const built = await esbuild.build({
      ...common,
      ...metaUrl,
      ...(typeof entry === 'string' ? { entryPoints: [join(packageDir, entry)] } : { stdin: entry }),
      outfile: join(outDir, `${name}.cjs`),
      write: false,
      metafile: process.env.CLI_BUILD_ANALYZE === name,
      define: { ...metaUrl.define, ...define, __CLI_PARAM_INFOS__: JSON.stringify(JSON.stringify(tables.paramInfos)) },
      plugins: [...plugins, lazyModule('node:child_process', childProcessNames, { builtin: true }), builtinsRequired],
    });
    if (process.env.CLI_BUILD_ANALYZE === name) console.error(await esbuild.analyzeMetafile(built.metafile));
    const bundle = built.outputFiles[0].contents;
    if (/\bimport\(/.test(built.outputFiles[0].text)) throw new Error(`${name}.cjs calls import(): the loader runs it through vm.Script, where that fails once the code comes from the cache`);
    writeFileSync(join(outDir, `${name}.cjs`), bundle);
    return createHash('sha256').update(bundle).digest('hex').slice(0, 16);
  };
  // What call.cjs loads when a schema is first needed (lightToolEntries); first, for its hash.
  const schemasHash = await loaded(
    'schemas',
    // zod as the names the sources use (tree-shaken like cli.cjs's), one object: the stand-in reads it by name.
    { contents: `export { ${TOOLS_EXPORTS.join(', ')} } from './src/tools.ts'; import * as all from 'zod'; export const zod = { ${zodNames.map((name) => `${name}: all.${name}`).join(', ')} };`, resolveDir: protocolDir, loader: 'ts' },
    {},
    [],
  );
  const [bundleHash, callHash] = await Promise.all([
    loaded('cli', 'src/main.ts', {}, [lazyModule('zod', zodNames)]),
    loaded('call', 'src/fast/main.ts', { __CLI_FAST_TABLE__: JSON.stringify(JSON.stringify(table)), __SCHEMAS_BUNDLE_HASH__: JSON.stringify(schemasHash) }, [
      lightToolEntries(tables.entries, tables.toolsExports),
      lazyModule('zod', zodNames, { from: `${SCHEMAS_BUNDLE}.zod` }),
    ]),
  ]);
  const fastWords = [...new Set(table.commands.map((command) => command.path[0]))];
  await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: [join(packageDir, 'src/loader/main.ts')],
      outfile: join(outDir, 'chrome-relay.cjs'),
      define: {
        __CLI_VERSION__: JSON.stringify(tables.version),
        __CLI_BUNDLE_HASH__: JSON.stringify(bundleHash),
        __CALL_BUNDLE_HASH__: JSON.stringify(callHash),
        __FAST_COMMAND_WORDS__: JSON.stringify(fastWords),
      },
      banner: { js: '#!/usr/bin/env node' },
    }),
    esbuild.build({ ...common, ...metaUrl, entryPoints: [join(packageDir, 'src/mcp/main.ts')], outfile: join(outDir, 'mcp.cjs') }),
  ]);
  chmodSync(join(outDir, 'chrome-relay.cjs'), 0o755);
  return { bundleHash };
}
