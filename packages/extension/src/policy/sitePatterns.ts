/**
 * The person's site block list: one pattern per line in the extension options. Two forms, so the
 * common case needs no syntax at all:
 *
 *   bank.example.com            a host: that host and every subdomain, any scheme, port and path
 *   *.example.com               the same (the leading "*." is accepted because people write it)
 *   mail.google.com/mail/*      with a "/": a glob over host + path (+ query), `*` = any characters
 *   https://*.corp.test/admin*  with "://": a glob over the whole URL
 *
 * Matching is case-insensitive for the host. A URL that cannot be parsed never matches a host rule
 * (chrome://, about:blank), but a full-URL glob may name it (`chrome://*`). Pure code: unit-tested.
 */

export interface SiteRule {
  /** The line as the person wrote it (trimmed): what errors and the popup name. */
  readonly text: string;
  readonly matches: (url: string) => boolean;
}

export type ParsedRule = { ok: true; rule: SiteRule } | { ok: false; problem: string };

const HOST = /^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$/i;

function globRegExp(glob: string): RegExp {
  const source = glob
    .split('*')
    .map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'i');
}

function hostOf(url: string): { host: string; port: string; rest: string } | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.hostname === '') return undefined;
    return { host: parsed.hostname.toLowerCase(), port: parsed.port, rest: `${parsed.host}${parsed.pathname}${parsed.search}` };
  } catch {
    return undefined;
  }
}

function hostRule(text: string): SiteRule {
  const [hostPart, port] = text.replace(/^\*\./, '').toLowerCase().split(':');
  const host = hostPart ?? '';
  return {
    text,
    matches: (url) => {
      const parts = hostOf(url);
      if (parts === undefined) return false;
      if (port !== undefined && parts.port !== port) return false;
      return parts.host === host || parts.host.endsWith(`.${host}`);
    },
  };
}

/** One line of the block list; blank lines and `#` comments are not rules (the caller skips them). */
export function parseSiteRule(line: string): ParsedRule {
  const text = line.trim();
  if (text === '') return { ok: false, problem: 'empty' };
  if (/\s/.test(text)) return { ok: false, problem: 'a pattern has no spaces; put one pattern per line' };
  if (text.includes('://')) {
    const regExp = globRegExp(text);
    return { ok: true, rule: { text, matches: (url) => regExp.test(url) } };
  }
  if (text.includes('/')) {
    const regExp = globRegExp(text);
    return {
      ok: true,
      rule: {
        text,
        matches: (url) => {
          const parts = hostOf(url);
          return parts !== undefined && regExp.test(parts.rest);
        },
      },
    };
  }
  if (!HOST.test(text)) return { ok: false, problem: 'not a host name (example.com), a host glob (*.example.com) or a URL glob (example.com/path*)' };
  return { ok: true, rule: hostRule(text) };
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
