import { describe, expect, it } from 'vitest';
import { canonicalHostname, LOOPBACK, requestHostForms } from './hosts.js';

/** The host a URL's own parser gives, then folded. */
const canonicalOf = (url: string): string => canonicalHostname(new URL(url).hostname);

describe('one canonical form for every way to write a host', () => {
  it('an IPv4 address written as IPv6 is that IPv4 address', () => {
    for (const url of [
      'http://[::ffff:127.0.0.2]/',
      'http://[::ffff:7f00:2]/',
      'http://[0:0:0:0:0:FFFF:7F00:0002]/',
      'http://[::ffff:0:127.0.0.2]/',
      'http://[64:ff9b::127.0.0.2]/',
      'http://[64:ff9b:1::7f00:2]/',
      'http://[::127.0.0.2]/',
    ]) {
      expect(canonicalOf(url), url).toBe('127.0.0.2');
    }
    expect(canonicalOf('http://[::ffff:10.1.2.3]/')).toBe('10.1.2.3');
  });

  it('every name and address of this machine is localhost; other loopback addresses stay themselves', () => {
    for (const url of ['http://localhost/', 'http://LOCALHOST./', 'http://app.localhost/', 'http://127.0.0.1/', 'http://127.1/', 'http://0x7f000001/', 'http://0.0.0.0/', 'http://0/', 'http://[::1]/', 'http://[::]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:0.0.0.0]/', 'http://[64:ff9b::]/']) {
      expect(canonicalOf(url), url).toBe(LOOPBACK);
    }
    expect(canonicalOf('http://127.0.0.2/')).toBe('127.0.0.2');
    expect(canonicalOf('http://notlocalhost/')).toBe('notlocalhost');
    expect(canonicalOf('http://localhost.example/')).toBe('localhost.example');
  });

  it("IPv6's own addresses stay IPv6: an IPv4-compatible form needs an IPv4 address in it", () => {
    expect(canonicalOf('http://[::2]/')).toBe('[::2]');
    expect(canonicalOf('http://[::0.0.5.1]/')).toBe('[::501]');
    expect(canonicalOf('http://[2001:db8::7f00:2]/')).toBe('[2001:db8::7f00:2]');
    expect(canonicalOf('http://[::ffff:1:7f00:2]/')).toBe('[::ffff:1:7f00:2]');
  });

  it('a name loses its trailing dots and case; the parser already folded IPv4 spellings', () => {
    expect(canonicalOf('http://Bank.Example.COM../')).toBe('bank.example.com');
    for (const url of ['http://2130706434/', 'http://0x7f.0.0.2/', 'http://0177.0.0.02/', 'http://127.2/', 'http://127.0.0.2./', 'http://%31%32%37.0.0.2/', 'http://１２７.0.0.2/']) {
      expect(canonicalOf(url), url).toBe('127.0.0.2');
    }
  });

  it("the request filter's forms are every spelling that folds back, and nothing else", () => {
    expect(requestHostForms('127.0.0.2')).toEqual(['127.0.0.2', '[::ffff:7f00:2]', '[::ffff:0:7f00:2]', '[64:ff9b::7f00:2]', '[64:ff9b:1::7f00:2]', '[::7f00:2]']);
    // 0.0.5.1 has no IPv4-compatible form: [::501] is IPv6's own.
    expect(requestHostForms('0.0.5.1')).not.toContain('[::501]');
    expect(requestHostForms('bank.test')).toEqual(['bank.test']);
    expect(requestHostForms('[2001:db8::1]')).toEqual(['[2001:db8::1]']);
    const loopback = requestHostForms(LOOPBACK);
    expect(loopback).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '0.0.0.0', '[::1]', '[::]', '[::ffff:7f00:1]', '[::ffff:0:0]', '[::7f00:1]']));
    for (const form of [...loopback, ...requestHostForms('127.0.0.2')]) {
      expect(canonicalHostname(form), form).toBe(form.startsWith('127.0.0.2') || form.includes('7f00:2') ? '127.0.0.2' : LOOPBACK);
    }
    expect(new Set(loopback).size).toBe(loopback.length);
  });
});
