/**
 * Extra fixture routes for the observation e2e (hooked into fixtureServer.ts's handler):
 *   /api/secret   JSON, with Set-Cookie and X-Api-Key response headers that must be redacted
 *   /parse-slow   a page sent in two parts ?ms apart (default 800): its document commits and is parsed up to
 *                 "Top", and only the second part brings "Late button" and the end of parsing
 * Returns true when it answered the request.
 */
import type { ServerResponse } from 'node:http';

export const SECRET_COOKIE = 'sid=topsecret-cookie-value; Path=/';
export const SECRET_API_KEY = 'key-9f8e7d';

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
  if (url.pathname === '/parse-slow') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    // Enough bytes that the parser starts on the first part without waiting for more.
    res.write(`<!doctype html><title>Slow parse</title><h1>Top</h1><!--${' '.repeat(2048)}-->`);
    setTimeout(() => res.end('<button>Late button</button>'), Number(url.searchParams.get('ms') ?? '800'));
    return true;
  }
  return false;
}
