import { describe, expect, it } from 'vitest';
import { ALL_RESOURCE_TYPES, barrierRules, requestMatches, type RequestMatch } from './netRules.js';
import { blockingRule, parseSiteRule, parseSiteRules, type SiteRule } from './sitePatterns.js';
import { createRng } from '@chrome-relay/protocol/src/testing/prng.js';

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

  it('an IPv4 address written as IPv6, and every name of this machine, are the same host (hosts.ts)', () => {
    expect(matches('127.0.0.2', 'http://[::ffff:127.0.0.2]:8080/')).toBe(true);
    expect(matches('127.0.0.2', 'http://[::ffff:7f00:2]/x')).toBe(true);
    expect(matches('127.0.0.2', 'http://[64:ff9b::7f00:2]/x')).toBe(true);
    expect(matches('127.0.0.2', 'http://[::127.0.0.2]/x')).toBe(true);
    expect(matches('[::ffff:127.0.0.2]', 'http://127.0.0.2/')).toBe(true);
    expect(matches('127.0.0.2', 'http://127.0.0.3/')).toBe(false);
    expect(matches('127.0.0.1', 'http://localhost:3000/')).toBe(true);
    expect(matches('localhost/admin', 'http://127.0.0.1:3000/admin')).toBe(true);
    expect(matches('localhost', 'http://0.0.0.0/')).toBe(true);
    expect(matches('[::1]', 'http://app.localhost/')).toBe(true);
    expect(matches('localhost', 'http://127.0.0.2/')).toBe(false);
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

/** The bytes of a dotted IPv4 address, or undefined. */
function ipv4Bytes(host: string): number[] | undefined {
  const parts = host.split('.').map(Number);
  return /^\d+(\.\d+){3}$/.test(host) && parts.every((n) => n <= 255) ? parts : undefined;
}

/** Other ways to write the same address (hosts.ts): numeric IPv4 forms, IPv4 inside IPv6, the names of this machine. */
function addressSpellings(host: string): string[] {
  const loopback = ['localhost', 'app.localhost', '127.0.0.1', '127.1', '0x7f000001', '0.0.0.0', '0', '[::1]', '[::]', '[::ffff:127.0.0.1]', '[::ffff:0.0.0.0]', '[64:ff9b::7f00:1]'];
  if (loopback.includes(host.toLowerCase())) return loopback;
  // The address this spelling stands for (an earlier step may have respelled it already).
  const address = new URL(`http://${host}/`).hostname;
  const bytes = ipv4Bytes(address);
  if (bytes === undefined) return [host];
  const [a = 0, b = 0, c = 0, d = 0] = bytes;
  const hex = (n: number): string => n.toString(16);
  return [
    String(((a * 256 + b) * 256 + c) * 256 + d),
    `0x${hex(a)}.${b}.${c}.0${d.toString(8)}`,
    `0${a.toString(8)}.${b}.${c}.${d}`,
    `${a}.${(b << 16) + (c << 8) + d}`,
    `[::ffff:${address}]`,
    `[::FFFF:${hex((a << 8) + b)}:${hex((c << 8) + d)}]`,
    `[0:0:0:0:ffff:0:${address}]`,
    `[64:ff9b::${address}]`,
    `[64:ff9b:1::${address}]`,
    ...(a === 0 ? [] : [`[::${address}]`]),
  ];
}

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
    switch (pick(['case', 'dot', 'port', 'escape', 'slash', 'user', 'query', 'scheme', 'semicolon', 'address'] as const)) {
      case 'address':
        host = pick(addressSpellings(host));
        break;
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
    ['127.0.0.2', 'http://127.0.0.2:8000/x?action=delete-account'],
    ['[::ffff:10.0.0.7]', 'http://10.0.0.7/router'],
    ['127.0.0.1:3000', 'http://127.0.0.1:3000/'],
    ['localhost/admin', 'http://localhost:5000/admin/users'],
    ['[::1]', 'http://[::1]:9000/'],
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
      'http://127.0.0.3:8000/x',
      'http://[::ffff:127.0.0.3]/x',
      'http://10.0.0.8/router',
      'http://[2001:db8::7f00:2]/',
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

  it("every tab but the person's while agents have tabs; workers of agents' sites; silenced tabs for everything", () => {
    const rules = [rule('bank.test'), rule('localhost/secret')];
    const installed = barrierRules(rules, { agentsPresent: true, personTabs: [9, 1], workerHosts: ['127.0.0.1', 'shop.test'], silenced: [] });
    expect(installed.every((r) => r.condition.resourceTypes.includes('main_frame') && r.condition.resourceTypes.includes('websocket'))).toBe(true);
    const tabs = installed.filter((r) => r.condition.excludedTabIds !== undefined);
    // Every tab but the person's (and -1, which has its own scope), whoever started the request.
    expect(tabs.map((r) => [r.condition.excludedTabIds, r.condition.initiatorDomains])).toEqual([[[-1, 1, 9], undefined], [[-1, 1, 9], undefined], [[-1, 1, 9], undefined]]);
    const workers = installed.filter((r) => r.condition.tabIds?.join() === '-1');
    expect(workers.map((r) => r.condition.initiatorDomains)).toEqual([['127.0.0.1', 'shop.test'], ['127.0.0.1', 'shop.test'], ['127.0.0.1', 'shop.test']]);
    // Too many agent sites to list: every worker.
    expect(barrierRules(rules, { agentsPresent: false, personTabs: [], workerHosts: 'all', silenced: [] }).map((r) => r.condition.initiatorDomains)).toEqual([undefined, undefined, undefined]);
    // Without agents nothing is installed; without block rules nothing but the pause's silence.
    expect(barrierRules(rules, { agentsPresent: false, personTabs: [1, 2], workerHosts: [], silenced: [] })).toEqual([]);
    expect(barrierRules([], { agentsPresent: true, personTabs: [], workerHosts: ['a.test'], silenced: [] })).toEqual([]);
    const silence = barrierRules([], { agentsPresent: true, personTabs: [], workerHosts: [], silenced: [4, 3] });
    expect(silence).toEqual([{ id: 1, priority: 1, action: { type: 'block' }, condition: { tabIds: [3, 4], resourceTypes: [...ALL_RESOURCE_TYPES] } }]);
  });

  it('a host rule is every spelling the filter can see: IPv4 inside IPv6, the names of this machine', () => {
    expect(requestMatches(rule('127.0.0.2'))).toEqual([{ requestDomains: ['127.0.0.2', '[::ffff:7f00:2]', '[::ffff:0:7f00:2]', '[64:ff9b::7f00:2]', '[64:ff9b:1::7f00:2]', '[::7f00:2]'] }]);
    expect(requestMatches(rule('[::ffff:127.0.0.2]'))).toEqual(requestMatches(rule('127.0.0.2')));
    expect(requestMatches(rule('127.0.0.1'))[0]?.requestDomains).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '0.0.0.0', '[::1]', '[::]', '[::ffff:7f00:1]']));
  });
});
