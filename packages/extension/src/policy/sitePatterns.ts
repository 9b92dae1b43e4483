/**
 * The person's site block list: one pattern per line in the extension options. Three forms, so the
 * common case needs no syntax at all:
 *
 *   bank.example.com            a host: that host and every subdomain, any scheme, port and path
 *   *.example.com               the same (the leading "*." is accepted because people write it)
 *   bank.example.com:8443       a host on one port only
 *   mail.google.com/mail        with a "/": that path and everything below it on the host (and its
 *                               subdomains), any port unless one is given; `*` = any characters;
 *                               the query is not looked at unless the pattern has a "?"
 *   https://*.corp.test/admin*  with "://": the same, for one scheme (`*://` for any)
 *   * /admin*                   host `*` (written without the space): that path on every site
 *
 * A rule is parsed once into a `SiteMatch` (scheme, host, port, path), and that one structure is
 * compiled twice: into `matches(url)`, which every check in the worker uses, and into the network
 * barrier's declarativeNetRequest conditions (netRules.ts), which Chrome applies to every request an
 * agent tab makes. The two agree by construction and by test (sitePatterns.test.ts runs both over
 * generated URL variants).
 *
 * What a URL cannot do to slip past a rule:
 * - Host spelling: matched on one canonical form of the host (hosts.ts): as the URL parser writes it (lower
 *   case, IDN as punycode, IPv4 in dotted form, IPv6 in brackets), without a trailing dot, an IPv4 address
 *   written as IPv6 (`[::ffff:127.0.0.2]`, NAT64…) as its IPv4 form, and every name and address of this
 *   machine (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`, `0.0.0.0`, `[::]`) as `localhost`. Rules are
 *   canonicalised the same way, so a rule may be written in Unicode, and `127.0.0.1` blocks `localhost` too.
 * - Ports: a rule without a port matches every port; a rule on 80 or 443 also takes a URL without one.
 * - Schemes: http, https, ws and wss are one family (a WebSocket to the bank is the bank).
 * - Paths: matched case-insensitively on the path as the browser sends it. Because a server decodes
 *   percent-escapes and merges slashes before it routes, a path rule also matches, on its host, any
 *   path that escapes a character that never needs escaping (`/%73ecret`) or has an empty segment
 *   (`//secret`): an agent has no honest reason to send those to a site whose paths the person
 *   keeps out of reach. One rule for both compilations, and stricter than a decode would be.
 *
 * A URL that cannot be parsed, or has no host (about:blank, data:), never matches a host or path
 * rule; a full-URL pattern with host `*` may name host-less URLs (`chrome://*`). Pure code.
 */

import { canonicalHostname } from './hosts.js';

/** The family a scheme belongs to: http/https/ws/wss are the web. */
export function schemeFamily(scheme: string): string {
  const lower = scheme.toLowerCase().replace(/:$/, '');
  return lower === 'http' || lower === 'https' || lower === 'ws' || lower === 'wss' ? 'web' : lower;
}

/** The parsed form of one rule: what every compilation reads. */
export interface SiteMatch {
  /** Scheme families the rule covers; undefined = every scheme. */
  readonly schemes?: readonly string[];
  /** `any`: every host (also none); `domain`: the name and its subdomains (canonical: hosts.ts). */
  readonly host: { readonly kind: 'any' } | { readonly kind: 'domain'; readonly name: string };
  /** A port as digits; undefined = every port. */
  readonly port?: string;
  /** The path glob (starts with "/"), and whether it names the query too (it has a "?"). */
  readonly path?: { readonly glob: string; readonly withQuery: boolean };
}

export interface SiteRule {
  /** The line as the person wrote it (trimmed): what errors and the popup name. */
  readonly text: string;
  readonly match: SiteMatch;
  readonly matches: (url: string) => boolean;
}

export type ParsedRule = { ok: true; rule: SiteRule } | { ok: false; problem: string };

/**
 * Characters a path never needs to escape (RFC 3986 unreserved, sub-delims, ":", "@" and "/"). An escape of one of
 * them in a path is the disguise a path rule also catches.
 */
export const NEEDLESS_ESCAPES: readonly string[] = [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&\'()*+,;=:@/',
].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0'));
const NEEDLESS = new Set(NEEDLESS_ESCAPES);

/** A path that disguises itself: a needless escape or an empty segment. */
export function disguisedPath(path: string): boolean {
  if (path.includes('//')) return true;
  for (const match of path.matchAll(/%([0-9a-f]{2})/gi)) if (NEEDLESS.has((match[1] ?? '').toLowerCase())) return true;
  return false;
}

/** The URL parts a rule looks at, canonical; undefined when the URL cannot be parsed. */
export interface UrlParts {
  family: string;
  /** The canonical host (hosts.ts); '' when the URL has none. */
  host: string;
  /** The port as the URL parser keeps it: '' for none or the scheme's default. */
  port: string;
  path: string;
  /** With its "?", or ''. */
  query: string;
}

export function urlParts(url: string): UrlParts | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const scheme = parsed.protocol.slice(0, -1).toLowerCase();
  return {
    family: schemeFamily(scheme),
    host: parsed.hostname === '' ? '' : canonicalHostname(parsed.hostname),
    port: parsed.port,
    path: parsed.pathname,
    query: parsed.search,
  };
}

/** Turn a glob into the source of an anchored, case-insensitive regular expression (no anchors added). */
export function globSource(glob: string, star = '.*'): string {
  return glob
    .split('*')
    .map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join(star);
}

/**
 * How a path glob ends: a glob ending in `*` already says "anything"; otherwise it names that path
 * and everything below it ("/secret" covers "/secret/", "/secret/x", "/secret;jsessionid=…"), and the
 * query (when the glob does not name one) is not looked at.
 */
export function pathTailSource(path: { glob: string; withQuery: boolean }, star = '.*'): string {
  if (path.glob.endsWith('*')) return '';
  return path.withQuery ? '' : `(?:[/;]${star})?`;
}

/** Percent-encode what the browser would (non-ASCII as UTF-8 bytes), so a rule written in Unicode meets the URL as sent. */
function encodePathGlob(glob: string): string {
  return [...glob].map((c) => (c.charCodeAt(0) < 0x80 ? c : encodeURIComponent(c))).join('');
}

function pathMatcher(path: { glob: string; withQuery: boolean }): (parts: UrlParts) => boolean {
  const regExp = new RegExp(`^${globSource(path.glob)}${pathTailSource(path)}$`, 'i');
  return (parts) => disguisedPath(parts.path) || regExp.test(path.withQuery ? `${parts.path}${parts.query}` : parts.path);
}

/**
 * A rule's port against a URL's. The parser drops a scheme's default port, so a rule on 80 or 443 also takes a URL
 * without one (whatever its scheme: the stricter reading, and the one a regular expression over the URL can
 * express too).
 */
export function portMatches(rulePort: string | undefined, urlPort: string): boolean {
  if (rulePort === undefined || urlPort === rulePort) return true;
  return urlPort === '' && (rulePort === '80' || rulePort === '443');
}

/** Whether `host` (canonical) is `name` or one of its subdomains. */
export function hostMatches(host: string, name: string): boolean {
  return host === name || host.endsWith(`.${name}`);
}

function compile(text: string, match: SiteMatch): SiteRule {
  const path = match.path === undefined ? undefined : pathMatcher(match.path);
  return {
    text,
    match,
    matches: (url) => {
      const parts = urlParts(url);
      if (parts === undefined) return false;
      if (match.schemes !== undefined && !match.schemes.includes(parts.family)) return false;
      if (match.host.kind === 'domain' && (parts.host === '' || !hostMatches(parts.host, match.host.name))) return false;
      if (!portMatches(match.port, parts.port)) return false;
      return path === undefined || path(parts);
    },
  };
}

/** A host in its canonical form (hosts.ts); undefined when it is not one. */
export function canonicalHost(host: string): string | undefined {
  if (host === '' || /[/?#@\s\\%]/.test(host)) return undefined;
  try {
    const parsed = new URL(`http://${host}/`);
    // A port or user info smuggled into the host text is not a host.
    if (parsed.port !== '' || parsed.username !== '' || parsed.password !== '') return undefined;
    const name = parsed.hostname.toLowerCase().replace(/\.+$/, '');
    return /^[a-z0-9._-]+$|^\[[0-9a-f:.]+\]$/.test(name) && !name.startsWith('.') && !name.includes('..') ? canonicalHostname(name) : undefined;
  } catch {
    return undefined;
  }
}

const HOST_PROBLEM = 'not a host name (example.com), a host glob (*.example.com), a path (example.com/path) or a URL glob (https://example.com/path*)';

/** `host[:port]` (IPv6 in brackets, `:*` for any port), with an optional leading `*.`. */
function parseAuthority(text: string): { host: SiteMatch['host']; port?: string } | undefined {
  // `host:*` is any port, as a host alone is.
  const anyPort = text.replace(/:\*$/, '');
  const bracket = /^(\[[^\]]*\])(?::(\d{1,5}))?$/.exec(anyPort);
  const plain = /^([^:[\]]*)(?::(\d{1,5}))?$/.exec(anyPort);
  const found = bracket ?? plain;
  if (found === null) return undefined;
  const [, rawHost = '', port] = found;
  if (port !== undefined && Number(port) > 65535) return undefined;
  const name = canonicalHost(rawHost.replace(/^\*\./, ''));
  if (name === undefined) return undefined;
  return port === undefined ? { host: { kind: 'domain', name } } : { host: { kind: 'domain', name }, port };
}

function parsePath(glob: string): SiteMatch['path'] {
  const encoded = encodePathGlob(glob);
  return { glob: encoded, withQuery: encoded.includes('?') };
}

/** One line of the block list; blank lines and `#` comments are not rules (the caller skips them). */
export function parseSiteRule(line: string): ParsedRule {
  const text = line.trim();
  if (text === '') return { ok: false, problem: 'empty' };
  if (/\s/.test(text)) return { ok: false, problem: 'a pattern has no spaces; put one pattern per line' };
  if (text.includes('#')) return { ok: false, problem: 'a pattern cannot name a #fragment: browsers never send it' };
  const schemeAt = text.indexOf('://');
  let schemes: string[] | undefined;
  let rest = text;
  if (schemeAt >= 0) {
    const scheme = text.slice(0, schemeAt);
    if (scheme !== '*' && !/^[a-z][a-z0-9+.-]*$/i.test(scheme)) return { ok: false, problem: 'the scheme must be a word (https) or *' };
    if (scheme !== '*') schemes = [schemeFamily(scheme)];
    rest = text.slice(schemeAt + 3);
  }
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? undefined : parsePath(rest.slice(slash));
  // Host `*`: every host — with a scheme (or empty, as in file:///x), or before a path (`*/admin*`).
  if ((schemes !== undefined && (authority === '*' || authority === '')) || (authority === '*' && path !== undefined)) {
    return { ok: true, rule: compile(text, { schemes, host: { kind: 'any' }, ...(path === undefined ? {} : { path }) }) };
  }
  const parsed = parseAuthority(authority);
  if (parsed === undefined) return { ok: false, problem: HOST_PROBLEM };
  const match: SiteMatch = {
    ...(schemes === undefined ? {} : { schemes }),
    host: parsed.host,
    ...(parsed.port === undefined ? {} : { port: parsed.port }),
    ...(path === undefined ? {} : { path }),
  };
  return { ok: true, rule: compile(text, match) };
}

/** Lines that are rules (not blank, not comments). */
export function ruleLines(lines: readonly string[]): string[] {
  return lines.map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
}

export interface RuleProblem {
  line: string;
  problem: string;
}

/** Parse every rule line; the problems name the line as written. */
export function parseSiteRules(lines: readonly string[]): { rules: SiteRule[]; problems: RuleProblem[] } {
  const rules: SiteRule[] = [];
  const problems: RuleProblem[] = [];
  for (const line of ruleLines(lines)) {
    const parsed = parseSiteRule(line);
    if (parsed.ok) rules.push(parsed.rule);
    else problems.push({ line, problem: parsed.problem });
  }
  return { rules, problems };
}

/** The first rule any of the URLs matches (a tab's committed and pending URL), or undefined. */
export function blockingRule(rules: readonly SiteRule[], urls: readonly (string | undefined)[]): { rule: SiteRule; url: string } | undefined {
  for (const url of urls) {
    if (url === undefined || url === '') continue;
    const rule = rules.find((r) => r.matches(url));
    if (rule) return { rule, url };
  }
  return undefined;
}
