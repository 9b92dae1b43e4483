/**
 * The site block list as Chrome's request filter (chrome.declarativeNetRequest session rules): what the network
 * barrier (netBarrier.ts) installs so that no request an agent's page starts — navigation, redirect, frame,
 * fetch/XHR, WebSocket, beacon, a window it opens, a worker it leaves behind — reaches a blocked site. Pure: it
 * compiles each rule's `SiteMatch` (sitePatterns.ts, the same structure `matches` is compiled from) and the
 * barrier's scope.
 *
 * The scopes (`BarrierScope`):
 * - **every tab but the person's** (`excludedTabIds`: the person's tabs and -1), while agents have tabs: their
 *   tabs, and any tab the worker has not classified yet. A window an agent's page opens gets its id, and sends its
 *   first request, before Chrome names its source to the worker (measured: ~15 ms before); from a `data:` page,
 *   a sandboxed frame or `noopener`, nothing about the request says whose it is (its initiator is opaque, or
 *   empty like a bookmark's). So an unclassified tab is the agents' until the worker knows better, and a tab of
 *   the person's that was stopped in that moment is loaded again (netBarrier.ts).
 * - **workers** (`tabIds: [-1]`): requests of no tab — service and shared workers — made on behalf of a site an
 *   agent's tab ever showed (`initiatorDomains`), since such a worker outlives the tab that started it.
 * - **silenced tabs** while the person has paused agents: every request, wherever it goes.
 *
 * A rule's hosts are every spelling Chrome's filter can see for its canonical host (hosts.ts `requestHostForms`:
 * `127.0.0.2` is also `[::ffff:7f00:2]`, `localhost` also `127.0.0.1`, `[::1]`, `0.0.0.0`…). Host-only rules share
 * one rule per scope (`requestDomains` takes a list and matches subdomains and a trailing dot, as Chrome
 * canonicalises them, and bracketed IPv6 addresses — measured in Chromium 156); the others are one regular
 * expression each, which Chrome keeps under a small memory budget (`isRegexSupported` says which fit; settings
 * refuse the others).
 */
import { requestHostForms } from './hosts.js';
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

/** Only web requests reach the network filter: rules for other schemes (chrome:, file:) have nothing to stop there. */
function coversWeb(match: SiteMatch): boolean {
  return match.schemes === undefined || match.schemes.includes('web');
}

/**
 * Any host, as the authority of a URL Chrome sends writes it (an IPv6 address in brackets). Which host is
 * `requestDomains`' part: the regular expression only says the rest, which keeps it small enough for Chrome's
 * budget whatever spellings the host has.
 */
const ANY_HOST = '(?:\\[[^\\]/?#]*\\]|[^/?#@:]*)';

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
  const hosts: Pick<RequestMatch, 'requestDomains'> = match.host.kind === 'domain' ? { requestDomains: requestHostForms(match.host.name) } : {};
  if (match.path === undefined && match.port === undefined && match.host.kind === 'domain') return [hosts];
  const authority = `^${scheme}://${USERINFO}${ANY_HOST}${portSource(match)}`;
  if (match.path === undefined) return [{ ...hosts, regexFilter: `${authority}(?:[/?#].*)?$` }];
  const star = match.path.withQuery ? '[^#]*' : '[^?#]*';
  const glob = globSource(match.path.glob, star);
  const query = match.path.withQuery ? '' : '(?:\\?[^#]*)?';
  const tail = pathTailSource(match.path, star);
  return [
    { ...hosts, regexFilter: `${authority}${glob}${tail}${query}(?:#.*)?$` },
    { ...hosts, regexFilter: `${authority}${DISGUISED_PATH_SOURCE}` },
  ];
}

/** Who the rules apply to (netBarrier.ts keeps it). */
export interface BarrierScope {
  /** Agents have tabs (or chrome-relay is opening one): every tab but the person's is under the barrier. */
  agentsPresent: boolean;
  /** Tabs known to be the person's: the only tabs left out. */
  personTabs: readonly number[];
  /** Sites whose workers are the agents' (hosts of documents agent tabs showed); 'all' when too many to list. */
  workerHosts: readonly string[] | 'all';
  /** The person paused agents: every request of these tabs is refused, to any site. */
  silenced: readonly number[];
}

/** The rules' requests, once each: host-only rules share one list of hosts; the others stay one each. */
function requestsToBlock(rules: readonly SiteRule[]): RequestMatch[] {
  const matches = rules.flatMap(requestMatches);
  const domains = [...new Set(matches.flatMap((m) => (m.regexFilter === undefined ? (m.requestDomains ?? []) : [])))].sort();
  const seen = new Set<string>();
  const regexes = matches.filter((m) => {
    const key = JSON.stringify(m);
    if (m.regexFilter === undefined || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [...(domains.length > 0 ? [{ requestDomains: domains }] : []), ...regexes];
}

function blockRule(id: number, condition: NetCondition): NetRule {
  return { id, priority: 1, action: { type: 'block' }, condition };
}

/** The session rules for these block rules and scope: [] when there is nothing to block or no one to block it for. */
export function barrierRules(rules: readonly SiteRule[], scope: BarrierScope): NetRule[] {
  const what = requestsToBlock(rules);
  const scopes: Pick<NetCondition, 'tabIds' | 'excludedTabIds' | 'initiatorDomains'>[] = [];
  // -1 (requests of no tab: workers, other extensions) has a scope of its own below.
  if (scope.agentsPresent) scopes.push({ excludedTabIds: [-1, ...[...scope.personTabs].sort((a, b) => a - b)] });
  if (scope.workerHosts === 'all') scopes.push({ tabIds: [-1] });
  else if (scope.workerHosts.length > 0) scopes.push({ tabIds: [-1], initiatorDomains: [...scope.workerHosts].sort() });
  const out: NetRule[] = [];
  for (const where of scopes) {
    for (const request of what) {
      const condition: NetCondition = { ...request, ...where, resourceTypes: [...ALL_RESOURCE_TYPES] };
      if (request.regexFilter !== undefined) condition.isUrlFilterCaseSensitive = false;
      out.push(blockRule(out.length + 1, condition));
    }
  }
  if (scope.silenced.length > 0) out.push(blockRule(out.length + 1, { tabIds: [...scope.silenced].sort((a, b) => a - b), resourceTypes: [...ALL_RESOURCE_TYPES] }));
  return out;
}

/** How many regular-expression rules a block list costs (both scopes). */
export function regexRuleCount(rules: readonly SiteRule[]): number {
  return 2 * requestsToBlock(rules).filter((m) => m.regexFilter !== undefined).length;
}
