/**
 * Nothing of a blocked site reaches an agent: every answer (result or error) leaves the worker with each URL on a
 * blocked site cut to its origin, whatever tool produced it — a network entry, a console line, a redirect's
 * Location header, a click that followed a link. The origin stays, so the agent still learns which site is out of
 * reach; the path and query, which may be the person's (an account number, a search), do not. Pure.
 */
import { blockingRule, type SiteRule } from './sitePatterns.js';

/** A URL inside text: a scheme, "://", and everything up to a space, quote or bracket. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`\\)\]}]+/gi;

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

/** Text with each URL on a blocked site cut to its origin. */
export function scrubText(text: string, rules: readonly SiteRule[]): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (url) => (blockingRule(rules, [url]) === undefined ? url : cut(url)));
}

/** A JSON-like value with every string scrubbed (a new value where anything changed; the same one otherwise). */
export function scrubValue<T>(value: T, rules: readonly SiteRule[]): T {
  if (rules.length === 0) return value;
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
