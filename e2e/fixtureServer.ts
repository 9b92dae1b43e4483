/**
 * Tiny fixture server on 127.0.0.1: serves e2e/pages/*.html plus a few behaviours pages cannot fake:
 *   /slow?ms=N      answers after N ms (readiness, host killed mid-call)
 *   /redirect?to=P  302 to P (server redirects kill refs); ?to64=B64: to P given in base64, so the caller's URL does
 *                   not spell where it leads; ?ms=N answers after N ms
 *   /rows?n=N       a table of N rows, each with a named "Open" button (benchmarks, big snapshots)
 *   /icons/N.svg    a 16 px square, for pages that draw icons by file name (controls-icons.html); ?ms=N answers
 *                   after N ms (an icon swapped in on hover that is still loading)
 *   /bench/*        generated benchmark pages (small form, N elements, news front page, encyclopedia article):
 *                   see fixtures/benchPages.ts
 *   /libs/*         pages built from real component libraries (e2e/libs/<name>.tsx): see libFixtures.ts
 * Requests are recorded so tests can wait for "the browser asked for X".
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRoutes } from './fixtures/benchPages.js';
import { extraRoutes } from './fixtureRoutes.js';
import { libRoutes } from './libFixtures.js';

const pagesDir = join(dirname(fileURLToPath(import.meta.url)), 'pages');

export interface FixtureServer {
  origin: string;
  url(path: string): string;
  requests: string[];
  /** The Cookie header of each request, in the same order as `requests` ('' for none). */
  cookies: string[];
  waitForRequest(pathPrefix: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export function rowsPage(n: number): string {
  const rows: string[] = [];
  for (let i = 1; i <= n; i++) {
    rows.push(`<tr><td>Item ${i}</td><td>${(i * 37) % 1000}</td><td><button onclick="opened(${i})">Open</button></td></tr>`);
  }
  return `<!doctype html><title>Rows ${n}</title><h1>Inventory</h1><p id="status">none</p>
<script>function opened(i){document.getElementById('status').textContent='opened '+i;window.lastOpened=i;}</script>
<table><thead><tr><th>Name</th><th>Qty</th><th>Action</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const send = (status: number, body: string, type = 'text/html; charset=utf-8'): void => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  if (extraRoutes(url, res)) return;
  if (benchRoutes(url, res)) return;
  if (libRoutes(url, res)) return;
  if (url.pathname === '/slow') {
    const ms = Number(url.searchParams.get('ms') ?? '1000');
    setTimeout(() => send(200, `<!doctype html><title>Slow</title><p>slow page after ${ms} ms</p>`), ms);
    return;
  }
  if (url.pathname === '/redirect') {
    const to64 = url.searchParams.get('to64');
    const location = to64 === null ? (url.searchParams.get('to') ?? '/') : Buffer.from(to64, 'base64').toString('utf8');
    setTimeout(() => {
      res.writeHead(302, { location, 'cache-control': 'no-store' });
      res.end();
    }, Number(url.searchParams.get('ms') ?? '0'));
    return;
  }
  if (/^\/icons\/[\w-]+\.svg$/.test(url.pathname)) {
    // Any icon name: a small visible square, so pages can draw icons by file name (the name is what they mean).
    const icon = (): void => send(200, '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#557"/></svg>', 'image/svg+xml');
    const ms = Number(url.searchParams.get('ms') ?? '0');
    if (ms > 0) setTimeout(icon, ms);
    else icon();
    return;
  }
  if (url.pathname === '/rows') {
    send(200, rowsPage(Number(url.searchParams.get('n') ?? '100')));
    return;
  }
  const name = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
  if (!/^[\w.-]+\.html$/.test(name)) {
    send(404, 'not found', 'text/plain');
    return;
  }
  try {
    send(200, readFileSync(join(pagesDir, name), 'utf8'));
  } catch {
    send(404, 'not found', 'text/plain');
  }
}

export async function startFixtureServer(host = '127.0.0.1'): Promise<FixtureServer> {
  const requests: string[] = [];
  const cookies: string[] = [];
  const waiters: { prefix: string; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    cookies.push(req.headers.cookie ?? '');
    for (const w of waiters.filter((w) => path.startsWith(w.prefix))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path.startsWith('/') ? path : `/${path}`}`,
    requests,
    cookies,
    waitForRequest(prefix, timeoutMs = 10_000) {
      if (requests.some((r) => r.startsWith(prefix))) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no request for ${prefix} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ prefix, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
