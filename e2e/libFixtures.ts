/**
 * Fixture pages built from the real component libraries (React, Radix, MUI, react-select, Headless UI, IMask…, all
 * devDependencies from npm): a widget behaves the way its library makes it behave, not the way a hand-written
 * imitation guesses. Each page is one source `e2e/libs/<name>.tsx` (≤ ~50 lines of our own code, using the library
 * the way its docs show) and is served by the fixture server as
 *   /libs/<name>.html   a page that loads the bundle below into an empty body
 *   /libs/<name>.js     the source bundled with esbuild (production React, as apps ship it)
 *
 * Bundling a page that pulls in MUI takes a second or two of a busy core, so bundles are cached on disk in the
 * system temp folder, keyed by a hash of everything that decides their bytes (every source under e2e/libs/, the
 * lockfile that pins the libraries, esbuild's version): a whole e2e run pays it once per page, later runs nothing
 * until a source or a library changes. The cache entry is written whole and renamed into place, so two runs that
 * bundle the same page at once never read half a file.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const libsDir = join(here, 'libs');
const cacheDir = join(tmpdir(), 'chrome-relay-e2e-libs');

let inputsHash: string | undefined;

/** A hash of every input of every bundle: computed once per process (the sources do not change under a run). */
function hashOfInputs(): string {
  if (inputsHash !== undefined) return inputsHash;
  const hash = createHash('sha256').update(esbuildVersion);
  for (const name of readdirSync(libsDir).sort()) hash.update(name).update(readFileSync(join(libsDir, name)));
  hash.update(readFileSync(join(here, '..', 'pnpm-lock.yaml')));
  inputsHash = hash.digest('hex').slice(0, 16);
  return inputsHash;
}

const pending = new Map<string, Promise<string>>();

/** The bundle of `e2e/libs/<name>.tsx`, from the cache or built now. */
function bundle(name: string): Promise<string> {
  const cached = join(cacheDir, `${name}-${hashOfInputs()}.js`);
  const known = pending.get(cached);
  if (known) return known;
  const made = (async () => {
    try {
      return readFileSync(cached, 'utf8');
    } catch {
      /* not built yet */
    }
    const result = await build({
      entryPoints: [join(libsDir, `${name}.tsx`)],
      bundle: true,
      write: false,
      format: 'iife',
      target: 'chrome120',
      jsx: 'automatic',
      minify: true,
      define: { 'process.env.NODE_ENV': '"production"' },
      // A library's own stylesheet (Shoelace's theme) comes in as text the page puts in a <style>: one file per page.
      loader: { '.css': 'text' },
      logLevel: 'silent',
      legalComments: 'none',
    });
    const code = result.outputFiles[0]?.text ?? '';
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${cached}.${process.pid}.part`;
    writeFileSync(partial, code);
    renameSync(partial, cached);
    return code;
  })();
  pending.set(cached, made);
  made.catch(() => pending.delete(cached));
  return made;
}

const page = (name: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head>` +
  `<body><script src="/libs/${name}.js"></script></body></html>`;

/** Answers /libs/<name>.html and /libs/<name>.js (true when the request was one of them). */
export function libRoutes(url: URL, res: ServerResponse): boolean {
  const match = /^\/libs\/([a-z][\w-]*)\.(html|js)$/.exec(url.pathname);
  if (!match) return false;
  const [, name = '', kind] = match;
  const send = (status: number, body: string, type: string): void => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  if (!readdirSync(libsDir).includes(`${name}.tsx`)) {
    send(404, 'no such library fixture', 'text/plain');
    return true;
  }
  if (kind === 'html') {
    send(200, page(name), 'text/html; charset=utf-8');
    return true;
  }
  bundle(name).then(
    (code) => send(200, code, 'text/javascript; charset=utf-8'),
    (error: unknown) => send(500, `bundling ${name} failed: ${error instanceof Error ? error.message : String(error)}`, 'text/plain'),
  );
  return true;
}
