/**
 * The site block list as Chrome's request filter (chrome.declarativeNetRequest session rules): what the network
 * barrier (netBarrier.ts) installs so that no request an agent's tab makes — navigation, redirect, frame,
 * fetch/XHR, WebSocket, beacon, a window it opens — reaches a blocked site. Pure: it compiles each rule's
 * `SiteMatch` (sitePatterns.ts, the same structure `matches` is compiled from) and the barrier's scope.
 *
 * Two scopes per rule:
 * - **agent tabs** (`tabIds`): every request of the tabs agents work in;
 * - **new windows** (`excludedTabIds` + `initiatorDomains`): every request of a tab chrome-relay does not know yet
 *   (a window an agent tab opens gets its id, and its first request, before the worker hears of it) or of no tab
 *   (a worker of the agent's page), made on behalf of a site an agent tab shows. The person's own tabs are
 *   excluded by id; their new tabs opened from elsewhere (bookmarks, other sites, other apps) do not match the
 *   initiator. While chrome-relay itself opens a tab, the initiator condition is dropped (`opening`), because a
 *   data: page can navigate before the tab is adopted and has no domain to name.
 *
 * Host-only rules share one rule per scope (`requestDomains` takes a list and matches subdomains and a
 * trailing dot, as Chrome canonicalises them); the others are one regular expression each, which Chrome keeps
 * under a small memory budget (`isRegexSupported` says which fit; settings refuse the others).
 */
import { globSource, NEEDLESS_ESCAPES, pathTailSource, type SiteMatch, type SiteRule } from './sitePatterns.js';

/** The fields of a chrome.declarativeNetRequest rule this module writes (a structural subset of chrome's type). */
export interface NetRule {
  id: number;
  priority: number;
  action: { type: 'block' };
  condition: NetCondition;
}

export interface NetCondition {
  requestDomains?: string[];
  regexFilter?: string;
  isUrlFilterCaseSensitive?: boolean;
  tabIds?: number[];
  excludedTabIds?: number[];
  initiatorDomains?: string[];
  resourceTypes: string[];
}

/** Every resource type, main_frame included (a condition without the list leaves main_frame out). */
export const ALL_RESOURCE_TYPES: readonly string[] = [
  'main_frame',
  'sub_frame',
  'stylesheet',
  'script',
  'image',
  'font',
  'object',
  'xmlhttprequest',
  'ping',
  'csp_report',
  'media',
  'websocket',
  'webtransport',
  'webbundle',
  'other',
];

/** Chrome's budget of regular-expression rules per extension; the settings keep the block list under it. */
export const MAX_REGEX_RULES = 1000;

/** What a request is tested against, before a scope is added. */
export interface RequestMatch {
  requestDomains?: string[];
  regexFilter?: string;
}

const WEB_SCHEMES = '(?:https?|wss?)';
const ANY_SCHEME = '[a-z][a-z0-9+.-]*';
/** User info before a host: the browser strips it from requests, but a pattern must not depend on that. */
const USERINFO = '(?:[^/?#@]*@)?';

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** Only web requests reach the network filter: rules for other schemes (chrome:, file:) have nothing to stop there. */
function coversWeb(match: SiteMatch): boolean {
  return match.schemes === undefined || match.schemes.includes('web');
}

function hostSource(match: SiteMatch): string {
  if (match.host.kind === 'any') return '[^/?#@]*';
  return `(?:[^/?#@:]*\\.)?${escapeRegExp(match.host.name)}\\.?`;
}

/** A default port may be written or left out; another only as written. */
function portSource(match: SiteMatch): string {
  if (match.port === undefined) return '(?::[0-9]+)?';
  return match.port === '80' || match.port === '443' ? `(?::${match.port})?` : `:${match.port}`;
}

/** The needless escapes (sitePatterns.ts) as one compact alternation, grouped by the first hex digit. */
function needlessEscapeSource(): string {
  const byFirst = new Map<string, string[]>();
  for (const hex of NEEDLESS_ESCAPES) byFirst.set(hex.charAt(0), [...(byFirst.get(hex.charAt(0)) ?? []), hex.charAt(1)]);
  const groups = [...byFirst].map(([first, seconds]) => `${first}[${[...new Set(seconds)].sort().join('')}]`);
  return `%(?:${groups.join('|')})`;
}

/** The path as a server would route it, disguised: a needless escape or an empty segment. */
export const DISGUISED_PATH_SOURCE = `/(?:[^?#]*${needlessEscapeSource()}|(?:[^?#]*/)?/)`;

/**
 * What a rule's requests look like to the filter, or [] for rules that only name non-web schemes. A path rule
 * gives two: its path, and the disguised paths on its host.
 */
export function requestMatches(rule: SiteRule): RequestMatch[] {
  const match = rule.match;
  if (!coversWeb(match)) return [];
  const scheme = WEB_SCHEMES;
  const ipv6 = match.host.kind === 'domain' && match.host.name.startsWith('[');
  if (match.path === undefined && match.port === undefined && match.host.kind === 'domain' && !ipv6) return [{ requestDomains: [match.host.name] }];
  const authority = `^${scheme}://${USERINFO}${hostSource(match)}${portSource(match)}`;
  if (match.path === undefined) return [{ regexFilter: `${authority}(?:[/?#].*)?$` }];
  const star = match.path.withQuery ? '[^#]*' : '[^?#]*';
  const glob = globSource(match.path.glob, star);
  const query = match.path.withQuery ? '' : '(?:\\?[^#]*)?';
  const tail = pathTailSource(match.path, star);
  return [{ regexFilter: `${authority}${glob}${tail}${query}(?:#.*)?$` }, { regexFilter: `${authority}${DISGUISED_PATH_SOURCE}` }];
}

/** Who the rules apply to (netBarrier.ts keeps it). */
export interface BarrierScope {
  /** Tabs agents work in. */
  agentTabs: readonly number[];
  /** Tabs known to be the person's. */
  personTabs: readonly number[];
  /** Hosts of the documents agent tabs show (their frames included). */
  agentDomains: readonly string[];
  /** chrome-relay is opening a tab right now: new tabs are covered whoever asks for their first page. */
  opening: boolean;
}

/** The session rules for these block rules and scope: [] when there is nothing to block or no one to block it for. */
export function barrierRules(rules: readonly SiteRule[], scope: BarrierScope): NetRule[] {
  const matches = rules.flatMap(requestMatches);
  const domains = [...new Set(matches.flatMap((m) => m.requestDomains ?? []))].sort();
  const regexes = [...new Set(matches.flatMap((m) => (m.regexFilter === undefined ? [] : [m.regexFilter])))];
  const what: RequestMatch[] = [...(domains.length > 0 ? [{ requestDomains: domains }] : []), ...regexes.map((regexFilter) => ({ regexFilter }))];
  const scopes: Pick<NetCondition, 'tabIds' | 'excludedTabIds' | 'initiatorDomains'>[] = [];
  if (scope.agentTabs.length > 0) scopes.push({ tabIds: [...scope.agentTabs].sort((a, b) => a - b) });
  if (scope.opening || scope.agentDomains.length > 0) {
    const person = [...scope.personTabs].sort((a, b) => a - b);
    if (scope.opening) {
      // Any initiator, for the moment chrome-relay opens a tab: but never requests of no tab (-1: the person's sites'
      // service workers, other extensions), which the new tab's first page is not.
      scopes.push({ excludedTabIds: [-1, ...person] });
    } else {
      scopes.push({ ...(person.length > 0 ? { excludedTabIds: person } : {}), initiatorDomains: [...scope.agentDomains].sort() });
    }
  }
  const out: NetRule[] = [];
  for (const where of scopes) {
    for (const request of what) {
      const condition: NetCondition = { ...request, ...where, resourceTypes: [...ALL_RESOURCE_TYPES] };
      if (request.regexFilter !== undefined) condition.isUrlFilterCaseSensitive = false;
      out.push({ id: out.length + 1, priority: 1, action: { type: 'block' }, condition });
    }
  }
  return out;
}

/** How many regular-expression rules a block list costs (both scopes). */
export function regexRuleCount(rules: readonly SiteRule[]): number {
  return 2 * new Set(rules.flatMap(requestMatches).flatMap((m) => (m.regexFilter === undefined ? [] : [m.regexFilter]))).size;
}
