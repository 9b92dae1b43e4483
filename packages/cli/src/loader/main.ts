/**
 * dist/chrome-relay.cjs, the command agents run: it prints `--version` itself and otherwise runs the
 * CLI bundle (dist/cli.cjs) compiled with a V8 code cache (codeCache.ts). Kept tiny: it is what every
 * call loads before anything else, and it needs nothing but Node's own modules.
 */
import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { relayHome } from '@chrome-relay/host-files';
import { cacheFile, cachePlan, commandKey, readCache, writeCache } from './codeCache.js';

/** Set by scripts/build.mjs: the release, and the content hash of dist/cli.cjs. */
declare const __CLI_VERSION__: string;
declare const __CLI_BUNDLE_HASH__: string;

const argv = process.argv.slice(2);
const bundle = join(__dirname, 'cli.cjs');

/** The bundle makes no import() call (packages/cli/build.mjs checks): a script from the cache could not. */
function runBundle(): void {
  const where = cacheFile({ bundleDir: __dirname, home: relayHome(), bundleHash: __CLI_BUNDLE_HASH__, nodeVersion: process.version, arch: process.arch, uid: process.getuid?.() });
  const cached = where === undefined ? undefined : readCache(where);
  const script = new Script(Module.wrap(readFileSync(bundle, 'utf8')), {
    filename: bundle,
    ...(cached === undefined ? {} : { cachedData: cached.data }),
  });
  const covers = cachePlan(cached, script.cachedDataRejected === true, commandKey(argv));
  // After the command: by then V8 has compiled the functions this command uses, and caches them too.
  if (where !== undefined && covers !== undefined) process.once('exit', () => writeCache(where, covers, script.createCachedData()));
  const module = new Module(bundle);
  module.filename = bundle;
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  wrapper.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) process.stdout.write(`${__CLI_VERSION__}\n`);
else runBundle();
