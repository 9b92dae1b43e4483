/**
 * Running a bundle of dist/ compiled with its V8 code cache (codeCache.ts): the loader runs cli.cjs
 * or call.cjs this way, and call.cjs runs schemas.cjs this way when a call first needs a schema.
 */
import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { relayHome } from '@chrome-relay/host-files';
import { cacheFile, cachePlan, commandKey, readCache, writeCache } from './codeCache.js';

/**
 * Run `<dir>/<name>.cjs` (content hash `bundleHash`, from the build) and return its exports. The
 * bundles make no import() call (packages/cli/build.mjs checks): a script from the cache could not.
 */
export function runBundle(dir: string, name: string, bundleHash: string): unknown {
  const bundle = join(dir, `${name}.cjs`);
  const where = cacheFile({ bundleDir: dir, home: relayHome(), bundle: name, bundleHash, nodeVersion: process.version, arch: process.arch, uid: process.getuid?.() });
  const cached = where === undefined ? undefined : readCache(where);
  const script = new Script(Module.wrap(readFileSync(bundle, 'utf8')), {
    filename: bundle,
    ...(cached === undefined ? {} : { cachedData: cached.data }),
  });
  const covers = cachePlan(cached, script.cachedDataRejected === true, commandKey(process.argv.slice(2)));
  // After the command: by then V8 has compiled the functions this command uses, and caches them too.
  if (where !== undefined && covers !== undefined) process.once('exit', () => writeCache(where, covers, script.createCachedData()));
  const module = new Module(bundle);
  module.filename = bundle;
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  wrapper.call(module.exports, module.exports, createRequire(bundle), module, bundle, dir);
  return module.exports;
}
