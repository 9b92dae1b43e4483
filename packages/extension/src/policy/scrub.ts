/**
 * What no answer carries, whatever tool produced it (a tab list, `get url`, a snapshot's header or links, a network
 * entry, a console line, a redirect's Location header, an error message): every answer, result or error, leaves the
 * worker through here (policy.ts), and every URL in it is
 * - cut to its origin when it is on a blocked site: the agent still learns which site is out of reach; the path and
 *   query, which may be the person's (an account number, a search), do not;
 * - otherwise stripped of credentials (observe/redact.ts `redactUrl`: `access_token=`, `password=`, a user-info
 *   password…), the one redaction every surface shares.
 * Pure.
 */
import { redactUrl } from '../observe/redact.js';
import { blockingRule, type SiteRule } from './sitePatterns.js';

/**
 * A URL inside text: a scheme, "://", and everything up to a space, a quote or a closing parenthesis or brace.
 * Square brackets belong to URLs (an IPv6 host, a value already `[redacted]`), so they do not end one.
 */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`\\)}]+/gi;
/** A relative URL with a query or fragment (a link's href as the page wrote it): "/path?…", not inside another URL. */
const RELATIVE_URL = /(?<![\w:/.])\/[^\s"'<>`\\)}?#]*[?#][^\s"'<>`\\)}]*/g;

export const BLOCKED_PATH = '[blocked]';

function cut(url: string): string {
  try {
    const origin = new URL(url).origin;
    if (origin === 'null') return BLOCKED_PATH;
    // An origin alone (what `tabs` already shows of a blocked tab) has nothing to cut.
    return url === origin || url === `${origin}/` ? url : `${origin}/${BLOCKED_PATH}`;
  } catch {
    return BLOCKED_PATH;
  }
}

/** Text with each URL on a blocked site cut to its origin, and every other URL's credentials redacted. */
export function scrubText(text: string, rules: readonly SiteRule[]): string {
  const absolute = text.includes('://') ? text.replace(URL_IN_TEXT, (url) => (rules.length > 0 && blockingRule(rules, [url]) !== undefined ? cut(url) : redactUrl(url))) : text;
  return absolute.includes('/') ? absolute.replace(RELATIVE_URL, (url) => redactUrl(url)) : absolute;
}

/** A JSON-like value with every string scrubbed (a new value where anything changed; the same one otherwise). */
export function scrubValue<T>(value: T, rules: readonly SiteRule[]): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubText(v, rules);
    if (Array.isArray(v)) {
      const out = v.map(walk);
      return out.some((item, i) => item !== v[i]) ? out : v;
    }
    if (typeof v === 'object' && v !== null) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v)) {
        const next = walk(item);
        if (next !== item) changed = true;
        out[key] = next;
      }
      return changed ? out : v;
    }
    return v;
  };
  return walk(value) as T;
}
