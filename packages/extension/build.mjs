/**
 * Builds the unpacked extension: outDir/background.js, the person's pages (popup.html, options.html
 * with their scripts and ui.css), the icons (icons.mjs draws them) and outDir/manifest.json.
 *
 * The page script (src/injected) is bundled first, to a string, and baked into the worker as the
 * constant __PAGE_SCRIPT__: the worker injects it into an isolated world through CDP, so the page
 * script is never a file the page could fetch (no web_accessible_resources).
 *
 *   node packages/extension/build.mjs [--out <dir>] [--no-key]
 *
 * --no-key (withKey:false) drops the dev `key` from the manifest: a store build gets its own id.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { writeIcons } from './icons.mjs';

const packageDir = dirname(fileURLToPath(import.meta.url));
const TARGET = 'chrome120';

/**
 * @param {{ outDir: string, withKey?: boolean, injectedEntry?: string }} options
 *   injectedEntry overrides src/injected/index.ts (tests of the build itself).
 * @returns {Promise<{ outDir: string, pageScriptBytes: number }>}
 */
export async function buildExtension({ outDir, withKey = true, injectedEntry = join(packageDir, 'src/injected/index.ts') }) {
  const injected = await esbuild.build({
    entryPoints: [injectedEntry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: TARGET,
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const pageScript = injected.outputFiles[0]?.text;
  if (pageScript === undefined) throw new Error(`esbuild produced no output for ${injectedEntry}`);

  await mkdir(outDir, { recursive: true });
  await esbuild.build({
    entryPoints: [join(packageDir, 'src/background.ts')],
    outfile: join(outDir, 'background.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: TARGET,
    define: { __PAGE_SCRIPT__: JSON.stringify(pageScript) },
    // Minified: the worker re-parses this file on every wake-up (zod is most of it).
    minify: true,
    logLevel: 'silent',
  });

  // The popup and options pages: plain scripts (no framework), talking to the worker by messages.
  await esbuild.build({
    entryPoints: { popup: join(packageDir, 'src/ui/popup.ts'), options: join(packageDir, 'src/ui/options.ts') },
    outdir: outDir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: TARGET,
    minify: true,
    logLevel: 'silent',
  });
  for (const file of ['popup.html', 'options.html', 'ui.css']) await copyFile(join(packageDir, 'src/ui', file), join(outDir, file));
  await writeIcons(outDir);

  const manifest = JSON.parse(await readFile(join(packageDir, 'manifest.json'), 'utf8'));
  if (!withKey) delete manifest.key;
  await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { outDir, pageScriptBytes: Buffer.byteLength(pageScript) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const outDir = resolve(outIndex >= 0 && args[outIndex + 1] ? args[outIndex + 1] : join(packageDir, 'dist'));
  buildExtension({ outDir, withKey: !args.includes('--no-key') }).then(
    ({ pageScriptBytes }) => console.log(`extension built in ${outDir} (page script ${pageScriptBytes} bytes)`),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
