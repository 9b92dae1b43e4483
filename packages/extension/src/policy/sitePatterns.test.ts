import { describe, expect, it } from 'vitest';
import { barrierRules, requestMatches, type RequestMatch } from './netRules.js';
import { blockingRule, parseSiteRule, parseSiteRules, type SiteRule } from './sitePatterns.js';
import { createRng } from '../../../../scripts/torture/prng.js';

function rule(pattern: string): SiteRule {
  const parsed = parseSiteRule(pattern);
  if (!parsed.ok) throw new Error(`${pattern}: ${parsed.problem}`);
  return parsed.rule;
}

function matches(pattern: string, url: string): boolean {
  return rule(pattern).matches(url);
}

describe('site block list patterns', () => {
  it('a host matches itself and its subdomains, any scheme, port and path — not look-alikes', () => {
    expect(matches('bank.example.com', 'https://bank.example.com/login')).toBe(true);
    expect(matches('bank.example.com', 'http://eu.bank.example.com:8443/x?y')).toBe(true);
    expect(matches('Bank.Example.COM', 'https://BANK.example.com/')).toBe(true);
    expect(matches('bank.example.com', 'https://notbank.example.com/')).toBe(false);
    expect(matches('bank.example.com', 'https://bank.example.com.evil.test/')).toBe(false);
    expect(matches('bank.example.com', 'https://evil.test/?u=bank.example.com')).toBe(false);
    expect(matches('bank.example.com', 'https://bank.example.com@evil.test/')).toBe(false);
    expect(matches('*.example.com', 'https://example.com/')).toBe(true);
  });

  it('a trailing dot, Unicode or punycode, IPv4 spellings and IPv6 do not slip past', () => {
    expect(matches('localhost', 'http://localhost.:8080/')).toBe(true);
    expect(matches('bank.example.com', 'https://bank.example.com./x')).toBe(true);
    expect(matches('bank.example.com.', 'https://bank.example.com/x')).toBe(true);
    expect(matches('bücher.example', 'https://xn--bcher-kva.example/')).toBe(true);
    expect(matches('xn--bcher-kva.example', 'https://BÜCHER.example/')).toBe(true);
    expect(matches('127.0.0.2', 'http://2130706434/')).toBe(true);
    expect(matches('127.0.0.2', 'http://0x7f.0.0.2/')).toBe(true);
    expect(matches('[::1]', 'http://[0:0:0:0:0:0:0:1]:9000/')).toBe(true);
    expect(matches('[::1]:9000', 'http://[::1]:9001/')).toBe(false);
    expect(matches('bank.example.com', 'https://b%61nk.example.com/')).toBe(true);
  });

  it('a host with a port matches only that port; 80 and 443 also take a URL without one', () => {
    expect(matches('127.0.0.1:8080', 'http://127.0.0.1:8080/a')).toBe(true);
    expect(matches('127.0.0.1:8080', 'http://127.0.0.1:9090/a')).toBe(false);
    expect(matches('example.com:443', 'https://example.com/')).toBe(true);
    expect(matches('example.com:443', 'http://example.com:443/')).toBe(true);
  });

  it('a path rule covers that path and below, any port, any query; a "*" is any characters', () => {
    expect(matches('mail.google.com/mail/*', 'https://mail.google.com/mail/u/0/#inbox')).toBe(true);
    expect(matches('mail.google.com/mail/*', 'https://mail.google.com/chat/')).toBe(false);
    expect(matches('localhost/secret', 'http://localhost:4000/secret')).toBe(true);
    expect(matches('localhost/secret', 'http://localhost/secret/deeper?x=1')).toBe(true);
    expect(matches('localhost/secret', 'http://localhost/secret;jsessionid=1')).toBe(true);
    expect(matches('localhost/secret', 'http://localhost/secretary')).toBe(false);
    expect(matches('localhost/secret', 'http://localhost/SECRET')).toBe(true);
    expect(matches('example.com/a?tab=billing', 'https://example.com/a?tab=billing')).toBe(true);
    expect(matches('example.com/a?tab=billing', 'https://example.com/a?tab=home')).toBe(false);
  });

  it('a path rule also takes, on its host, paths disguised by needless escapes or empty segments', () => {
    expect(matches('localhost/secret', 'http://localhost/%73ecret')).toBe(true);
    expect(matches('localhost/secret', 'http://localhost/%53ECRET')).toBe(true);
    expect(matches('localhost/secret', 'http://localhost//secret')).toBe(true);
    expect(matches('localhost/secret', 'http://localhost/other%2fsecret')).toBe(true);
    // An escape a path needs (a space) is not a disguise; another host is not the rule's.
    expect(matches('localhost/secret', 'http://localhost/my%20file')).toBe(false);
    expect(matches('localhost/secret', 'http://example.com/%73ecret')).toBe(false);
  });

  it('a scheme names its family: http, https, ws and wss are one', () => {
    expect(matches('https://*.corp.test/admin*', 'https://hr.corp.test/admin/users')).toBe(true);
    expect(matches('https://*.corp.test/admin*', 'http://hr.corp.test/admin/users')).toBe(true);
    expect(matches('https://*.corp.test/admin*', 'wss://hr.corp.test/admin/socket')).toBe(true);
    expect(matches('https://*.corp.test/admin*', 'https://hr.corp.test/home')).toBe(false);
    expect(matches('chrome://*', 'chrome://settings/')).toBe(true);
    expect(matches('chrome://*', 'https://settings/')).toBe(false);
  });

  it('a host rule never matches URLs without a host (about:blank, data:)', () => {
    expect(matches('example.com', 'about:blank')).toBe(false);
    expect(matches('example.com', 'data:text/html,example.com')).toBe(false);
  });

  it('skips blanks and comments, reports bad lines as written', () => {
    const { rules, problems } = parseSiteRules(['# my bank', '', '  bank.example.com  ', 'two words', 'bad_host!', 'a.test:99999', 'corp*.test', 'x.test/#frag']);
    expect(rules.map((r) => r.text)).toEqual(['bank.example.com']);
    expect(problems.map((p) => p.line)).toEqual(['two words', 'bad_host!', 'a.test:99999', 'corp*.test', 'x.test/#frag']);
  });

  it('names the first rule a tab URL (committed or pending) matches', () => {
    const { rules } = parseSiteRules(['a.test', 'b.test']);
    expect(blockingRule(rules, ['https://ok.test/', 'https://b.test/x'])).toMatchObject({ rule: { text: 'b.test' }, url: 'https://b.test/x' });
    expect(blockingRule(rules, [undefined, ''])).toBeUndefined();
  });
});

/** What Chrome's request filter decides for a URL, simulated: domains as Chrome matches them, regular expressions as RE2 would. */
function filterBlocks(matches: readonly RequestMatch[], url: string): boolean {
  const parsed = new URL(url);
  const host = parsed.hostname.toLowerCase().replace(/\.+$/, '');
  return matches.some((m) => {
    const domainOk = m.requestDomains === undefined || m.requestDomains.some((d) => host === d || host.endsWith(`.${d}`));
    const regexOk = m.regexFilter === undefined || new RegExp(m.regexFilter, 'i').test(parsed.href);
    return domainOk && regexOk;
  });
}

/** A seeded generator (the torture suite's mulberry32), so a failure names a seed that reproduces it. */
const random = (seed: number): (() => number) => createRng(seed).next;

/** Ways an agent might respell a URL the person blocked: each keeps what a server would serve. */
function variant(url: string, next: () => number): string {
  const u = new URL(url);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const steps = 1 + Math.floor(next() * 3);
  let host = u.hostname;
  let path = u.pathname;
  let scheme = u.protocol;
  let port = u.port;
  let userinfo = '';
  let query = u.search;
  for (let i = 0; i < steps; i++) {
    switch (pick(['case', 'dot', 'port', 'escape', 'slash', 'user', 'query', 'scheme', 'semicolon'] as const)) {
      case 'case':
        host = [...host].map((c) => (next() < 0.5 ? c.toUpperCase() : c)).join('');
        path = [...path].map((c) => (next() < 0.3 ? c.toUpperCase() : c)).join('');
        break;
      case 'dot':
        if (!host.endsWith('.') && !host.startsWith('[')) host = `${host}.`;
        break;
      case 'port':
        port = String(1024 + Math.floor(next() * 60000));
        break;
      case 'escape':
        path = [...path].map((c) => (/[a-z0-9]/i.test(c) && next() < 0.4 ? `%${c.charCodeAt(0).toString(16)}` : c)).join('');
        break;
      case 'slash':
        path = path.replace('/', '//');
        break;
      case 'user':
        userinfo = 'me:pw@';
        break;
      case 'query':
        query = `${query === '' ? '?' : `${query}&`}x=${Math.floor(next() * 100)}`;
        break;
      case 'scheme':
        scheme = pick(['http:', 'https:', 'ws:', 'wss:']);
        break;
      case 'semicolon':
        path = `${path};jsessionid=abc`;
        break;
    }
  }
  return `${scheme}//${userinfo}${host}${port === '' ? '' : `:${port}`}${path}${query}`;
}

describe('the two compilations of a rule agree (checks in the worker, the network filter)', () => {
  const cases: [string, string][] = [
    ['bank.example.com', 'https://bank.example.com/login'],
    ['localhost', 'http://localhost/x'],
    ['localhost/secret', 'http://localhost/secret'],
    ['localhost/secret', 'http://localhost/secret/inner'],
    ['127.0.0.2/secret*', 'http://127.0.0.2/secret-place'],
    ['mail.google.com/mail/*', 'https://mail.google.com/mail/u/0'],
    ['https://*.corp.test/admin*', 'https://hr.corp.test/admin/users'],
    ['shop.test:8443', 'https://shop.test:8443/cart'],
    ['[::1]/private', 'http://[::1]/private'],
    ['example.com/a?tab=billing', 'https://example.com/a?tab=billing'],
    ['bücher.example/konto', 'https://bücher.example/konto'],
    ['*/frame-solid.html?blocked*', 'http://127.0.0.2:8000/frame-solid.html?blocked=1'],
  ];

  it('every respelling of a blocked URL stays blocked, in both, over seeded variants', () => {
    for (const [pattern, url] of cases) {
      const r = rule(pattern);
      const net = requestMatches(r);
      expect(r.matches(url), `${pattern} ${url}`).toBe(true);
      expect(filterBlocks(net, url), `${pattern} ${url}`).toBe(true);
      for (let seed = 1; seed <= 300; seed++) {
        const respelled = variant(url, random(seed * 7919 + pattern.length));
        // Another port is another site only for a rule that names its port.
        if (r.match.port !== undefined && new URL(respelled).port !== new URL(url).port) continue;
        // A query-naming rule names that exact path and query (docs say to prefer a path); other parameters make another URL.
        if (r.match.path?.withQuery === true && (new URL(respelled).search !== new URL(url).search || respelled.includes(';'))) continue;
        expect(r.matches(respelled), `seed ${seed}: ${pattern} must block ${respelled}`).toBe(true);
        expect(filterBlocks(net, respelled), `seed ${seed}: the filter for ${pattern} must block ${respelled}`).toBe(true);
      }
    }
  });

  it('on URLs that are not blocked, both let them through alike', () => {
    const others = [
      'https://example.org/',
      'https://bank.example.co/',
      'http://localhost/secretary',
      'http://localhost/public/secret',
      'http://127.0.0.2/other',
      'https://mail.google.com/chat/',
      'https://hr.corp.test/home',
      'https://shop.test:8444/cart',
      'http://[::2]/private',
      'https://example.com/a?tab=home',
      'https://bücher.example/suche',
    ];
    for (const [pattern] of cases) {
      const r = rule(pattern);
      const net = requestMatches(r);
      for (const url of others) {
        for (let seed = 1; seed <= 40; seed++) {
          const respelled = seed === 1 ? url : variant(url, random(seed));
          expect(filterBlocks(net, respelled), `seed ${seed}: ${pattern} on ${respelled}`).toBe(r.matches(respelled));
        }
      }
    }
  });

  it('agent tabs get every request type; new windows only on behalf of agent sites, never the person\'s tabs', () => {
    const rules = [rule('bank.test'), rule('localhost/secret')];
    const installed = barrierRules(rules, { agentTabs: [7, 3], personTabs: [1], agentDomains: ['127.0.0.1'], opening: false });
    expect(installed.every((r) => r.condition.resourceTypes.includes('main_frame') && r.condition.resourceTypes.includes('websocket'))).toBe(true);
    expect(installed.filter((r) => r.condition.tabIds !== undefined).map((r) => r.condition.tabIds)).toEqual([[3, 7], [3, 7], [3, 7]]);
    const windows = installed.filter((r) => r.condition.tabIds === undefined);
    expect(windows.every((r) => r.condition.excludedTabIds?.join() === '1' && r.condition.initiatorDomains?.join() === '127.0.0.1')).toBe(true);
    // While chrome-relay opens a tab: every unknown tab, whoever initiated its request.
    const opening = barrierRules(rules, { agentTabs: [], personTabs: [1], agentDomains: [], opening: true });
    expect(opening.map((r) => r.condition.initiatorDomains)).toEqual([undefined, undefined, undefined]);
    // Requests of no tab (the person's sites' workers) are never caught by that moment.
    expect(opening.map((r) => r.condition.excludedTabIds)).toEqual([[-1, 1], [-1, 1], [-1, 1]]);
    expect(barrierRules(rules, { agentTabs: [], personTabs: [1, 2], agentDomains: [], opening: false })).toEqual([]);
    expect(barrierRules([], { agentTabs: [1], personTabs: [], agentDomains: ['a.test'], opening: false })).toEqual([]);
  });
});
