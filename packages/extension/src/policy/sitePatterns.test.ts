import { describe, expect, it } from 'vitest';
import { blockingRule, parseSiteRule, parseSiteRules } from './sitePatterns.js';

function matches(pattern: string, url: string): boolean {
  const parsed = parseSiteRule(pattern);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.rule.matches(url);
}

describe('site block list patterns', () => {
  it('a host matches itself and its subdomains, any scheme, port and path — not look-alikes', () => {
    expect(matches('bank.example.com', 'https://bank.example.com/login')).toBe(true);
    expect(matches('bank.example.com', 'http://eu.bank.example.com:8443/x?y')).toBe(true);
    expect(matches('Bank.Example.COM', 'https://BANK.example.com/')).toBe(true);
    expect(matches('bank.example.com', 'https://notbank.example.com/')).toBe(false);
    expect(matches('bank.example.com', 'https://bank.example.com.evil.test/')).toBe(false);
    expect(matches('bank.example.com', 'https://evil.test/?u=bank.example.com')).toBe(false);
    expect(matches('*.example.com', 'https://example.com/')).toBe(true);
  });

  it('a host with a port matches only that port', () => {
    expect(matches('127.0.0.1:8080', 'http://127.0.0.1:8080/a')).toBe(true);
    expect(matches('127.0.0.1:8080', 'http://127.0.0.1:9090/a')).toBe(false);
  });

  it('a pattern with a path globs host + path + query; one with a scheme globs the whole URL', () => {
    expect(matches('mail.google.com/mail/*', 'https://mail.google.com/mail/u/0/#inbox')).toBe(true);
    expect(matches('mail.google.com/mail/*', 'https://mail.google.com/chat/')).toBe(false);
    expect(matches('https://*.corp.test/admin*', 'https://hr.corp.test/admin/users')).toBe(true);
    expect(matches('https://*.corp.test/admin*', 'http://hr.corp.test/admin/users')).toBe(false);
    expect(matches('chrome://*', 'chrome://settings/')).toBe(true);
  });

  it('a host rule never matches URLs without a host (about:blank, data:)', () => {
    expect(matches('example.com', 'about:blank')).toBe(false);
    expect(matches('example.com', 'data:text/html,example.com')).toBe(false);
  });

  it('skips blanks and comments, reports bad lines as written', () => {
    const { rules, problems } = parseSiteRules(['# my bank', '', '  bank.example.com  ', 'two words', 'bad_host!']);
    expect(rules.map((r) => r.text)).toEqual(['bank.example.com']);
    expect(problems.map((p) => p.line)).toEqual(['two words', 'bad_host!']);
  });

  it('names the first rule a tab URL (committed or pending) matches', () => {
    const { rules } = parseSiteRules(['a.test', 'b.test']);
    expect(blockingRule(rules, ['https://ok.test/', 'https://b.test/x'])).toMatchObject({ rule: { text: 'b.test' }, url: 'https://b.test/x' });
    expect(blockingRule(rules, [undefined, ''])).toBeUndefined();
  });
});
