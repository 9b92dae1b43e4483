/**
 * Extra fixture routes for the observation e2e (hooked into fixtureServer.ts's handler):
 *   /api/secret   JSON, with Set-Cookie and X-Api-Key response headers that must be redacted
 *   /parse-slow   a page sent in two parts ?ms apart (default 800): its document commits and is parsed up to
 *                 "Top", and only the second part brings "Late button" and the end of parsing
 *   /worker.js    a worker script (service, shared or dedicated alike) that fetches ?to= (and ?also=, if given) every
 *                 ?every= ms (default 300), adding &n=<count>, with credentials: what a page an agent set up leaves
 *                 running
 *   /session      sets the person's session cookie (SESSION_COOKIE) for this host, as a login would
 * Returns true when it answered the request.
 */
import type { ServerResponse } from 'node:http';

export const SECRET_COOKIE = 'sid=topsecret-cookie-value; Path=/';
export const SECRET_API_KEY = 'key-9f8e7d';
/** The person's session on a fixture host (/session sets it): a request that carries it acts as the person. */
export const SESSION_COOKIE = 'session=person-7c1d';

/** The body of /worker.js: fetch each target every `every` ms; a service worker keeps at it until Chrome stops it (30 s after its last event). */
function workerScript(targets: readonly string[], every: number): string {
  return `const targets = ${JSON.stringify(targets)};
let n = 0;
const tick = () => { n++; for (const to of targets) fetch(to + (to.includes('?') ? '&' : '?') + 'n=' + n, { mode: 'no-cors', credentials: 'include' }).catch(() => {}); };
setInterval(tick, ${every});
tick();
self.addEventListener('install', (event) => { self.skipWaiting(); });
self.addEventListener('connect', (event) => { event.ports[0].postMessage('connected'); });
`;
}

export function extraRoutes(url: URL, res: ServerResponse): boolean {
  if (url.pathname === '/api/secret') {
    res.writeHead(200, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'set-cookie': SECRET_COOKIE,
      'x-api-key': SECRET_API_KEY,
      'x-visible': 'plain',
    });
    res.end(JSON.stringify({ secret: 'body-ok' }));
    return true;
  }
  if (url.pathname === '/worker.js') {
    res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store', 'service-worker-allowed': '/' });
    res.end(workerScript(url.searchParams.getAll('to').concat(url.searchParams.getAll('also')), Number(url.searchParams.get('every') ?? '300')));
    return true;
  }
  if (url.pathname === '/session') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'set-cookie': `${SESSION_COOKIE}; Path=/` });
    res.end('<!doctype html><title>Signed in</title><p>signed in</p>');
    return true;
  }
  if (url.pathname === '/parse-slow') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    // Enough bytes that the parser starts on the first part without waiting for more.
    res.write(`<!doctype html><title>Slow parse</title><h1>Top</h1><!--${' '.repeat(2048)}-->`);
    setTimeout(() => res.end('<button>Late button</button>'), Number(url.searchParams.get('ms') ?? '800'));
    return true;
  }
  return false;
}
