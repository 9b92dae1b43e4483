import { describe, expect, it } from 'vitest';
import { frameBlocks, framesAroundBlocked, originOf, siteBlockOf } from './frameBlocks.js';
import { parseSiteRules } from './sitePatterns.js';

const rules = parseSiteRules(['bank.example.com', 'shop.example/account/*']).rules;
const frame = (frameId: string, url: string, parentId?: string) => ({ frameId, url, ...(parentId === undefined ? {} : { parentId }) });

describe('frameBlocks: which frames of a page the person blocked', () => {
  it('blocks a frame by its own URL: a host rule (subdomains too) and a path rule on the page’s own origin', () => {
    const frames = [
      frame('M', 'https://news.example/article'),
      frame('B', 'https://login.bank.example.com/widget', 'M'),
      frame('A', 'https://shop.example/account/orders', 'M'),
      frame('C', 'https://shop.example/cart', 'M'),
    ];
    expect(Object.fromEntries(frameBlocks(frames, rules))).toEqual({
      B: { rule: 'bank.example.com', url: 'https://login.bank.example.com/widget' },
      A: { rule: 'shop.example/account/*', url: 'https://shop.example/account/orders' },
    });
  });

  it('blocks every frame inside a blocked one, whatever it shows, with the blocked frame’s rule and URL', () => {
    const frames = [
      frame('M', 'https://news.example/'),
      frame('B', 'https://bank.example.com/', 'M'),
      frame('Blank', 'about:blank', 'B'),
      frame('Ad', 'https://ads.example/', 'Blank'),
    ];
    const blocks = frameBlocks(frames, rules);
    expect(blocks.get('Blank')).toEqual({ rule: 'bank.example.com', url: 'https://bank.example.com/' });
    expect(blocks.get('Ad')).toEqual(blocks.get('B'));
    expect(blocks.has('M')).toBe(false);
  });

  it('needs no order, ends on a parent cycle (judging by the URL alone), and blocks nothing without rules', () => {
    const frames = [frame('Ad', 'https://ads.example/', 'B'), frame('B', 'https://bank.example.com/', 'M'), frame('M', 'https://news.example/')];
    expect([...frameBlocks(frames, rules).keys()].sort()).toEqual(['Ad', 'B']);
    const cycle = [frame('X', 'https://bank.example.com/', 'Y'), frame('Y', 'https://news.example/', 'X')];
    expect([...frameBlocks(cycle, rules).keys()].sort()).toEqual(['X', 'Y']);
    expect(frameBlocks(frames, []).size).toBe(0);
  });

  it('names a URL’s rule, and only the origin of a blocked frame (its path may be what the person hides)', () => {
    expect(siteBlockOf(rules, 'https://bank.example.com/acct/123')).toEqual({ rule: 'bank.example.com', url: 'https://bank.example.com/acct/123' });
    expect(siteBlockOf(rules, 'https://news.example/')).toBeUndefined();
    expect(originOf('https://bank.example.com:8443/acct/123?id=9')).toBe('https://bank.example.com:8443');
    expect(originOf('about:blank')).toBe('');
    expect(originOf('not a url')).toBe('');
  });
});

describe('framesAroundBlocked: whose piercing reads would reach a blocked frame', () => {
  it('climbs from a blocked frame through its parents in the same process, and stops at another process', () => {
    const block = { rule: 'bank.example.com', url: 'https://bank.example.com/' };
    const frames = [
      { frameId: 'M', url: 'https://news.example/' },
      { frameId: 'S', url: 'https://news.example/embed', parentId: 'M' },
      { frameId: 'V', url: 'https://news.example/vault', parentId: 'S', blocked: block },
      { frameId: 'O', url: 'https://widgets.example/', parentId: 'M', sessionId: 's1' },
      { frameId: 'B', url: 'https://bank.example.com/', parentId: 'O', sessionId: 's2', blocked: block },
      { frameId: 'C', url: 'https://other.example/', parentId: 'M' },
    ];
    expect([...framesAroundBlocked(frames)].sort()).toEqual(['M', 'S']);
  });
});
