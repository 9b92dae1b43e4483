/**
 * Extra fixture routes for the observation e2e (hooked into fixtureServer.ts's handler):
 *   /api/secret   JSON, with Set-Cookie and X-Api-Key response headers that must be redacted
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
  return false;
}
