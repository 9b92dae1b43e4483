import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { benchRoutes, elementsPage, encyclopediaPage, newsPage, smallPage } from '../../e2e/fixtures/benchPages.js';
import { countTokens } from './tokens.js';

/** Opening tags: each is one element (the pages spell out html, head and body). */
const elements = (html: string): number => (html.match(/<[a-z][a-z0-9]*[\s>]/g) ?? []).length;

describe('bench pages', () => {
  it('are the same bytes on every call (no unseeded randomness)', () => {
    expect(newsPage()).toBe(newsPage());
    expect(encyclopediaPage()).toBe(encyclopediaPage());
    expect(elementsPage(5000)).toBe(elementsPage(5000));
    expect(smallPage()).toBe(smallPage());
  });

  it('the elements page has exactly the elements it is named for', () => {
    for (const n of [6, 7, 16, 5000, 50_000]) expect(elements(elementsPage(n))).toBe(n);
  });

  it('the news front page is news-shaped: nav, many headline links with teasers, sidebar, footer; 300–600 elements', () => {
    const html = newsPage();
    expect(elements(html)).toBeGreaterThanOrEqual(300);
    expect(elements(html)).toBeLessThanOrEqual(600);
    expect((html.match(/<article>/g) ?? []).length).toBeGreaterThanOrEqual(40);
    expect((html.match(/<a href=/g) ?? []).length).toBeGreaterThanOrEqual(150);
    for (const part of ['<nav aria-label="Sections">', '<aside>', '<footer>', 'type="search"', 'type="email"']) expect(html).toContain(part);
  });

  it('the encyclopedia article is long prose with inline links, an infobox, a TOC and references', () => {
    const html = encyclopediaPage();
    const paragraphs = (html.match(/<p>[\s\S]*?<\/p>/g) ?? []).join(' ');
    const prose = paragraphs.replace(/<[^>]+>/g, '');
    expect(prose.split(/\s+/).length).toBeGreaterThan(3000);
    expect(countTokens(prose)).toBeGreaterThan(4000);
    // Inline links in the prose, but not on every other word.
    const inline = (paragraphs.match(/<a href="\/bench\/wiki\//g) ?? []).length;
    expect(inline).toBeGreaterThan(60);
    expect(inline).toBeLessThan(prose.split(/\s+/).length / 15);
    for (const part of ['class="infobox"', 'id="toc"', 'class="references"', 'class="reference"', 'id="see-also"']) expect(html).toContain(part);
    expect((html.match(/<li id="cite-note-\d+">/g) ?? []).length).toBe(40);
  });

  it('the small page has one of each control the commands act on', () => {
    const html = smallPage();
    for (const id of ['inc', 'name', 'notes', 'agree', 'country']) expect(html).toContain(`id="${id}"`);
  });
});

describe('benchRoutes', () => {
  const serve = (path: string) => {
    const sent: { status?: number; body?: string } = {};
    const res = {
      writeHead(status: number) {
        sent.status = status;
        return this;
      },
      end(body: string) {
        sent.body = body;
      },
    } as unknown as ServerResponse;
    return { handled: benchRoutes(new URL(path, 'http://127.0.0.1'), res), ...sent };
  };

  it('serves each page and leaves other paths to the server', () => {
    expect(serve('/bench/news')).toMatchObject({ handled: true, status: 200, body: newsPage() });
    expect(serve('/bench/article').body).toBe(encyclopediaPage());
    expect(serve('/bench/small').body).toBe(smallPage());
    expect(elements(serve('/bench/elements?n=123').body ?? '')).toBe(123);
    expect(serve('/rows?n=5').handled).toBe(false);
  });

  it('refuses absurd sizes instead of building them', () => {
    expect(serve('/bench/elements?n=1e9').handled).toBe(false);
    expect(serve('/bench/elements?n=abc').handled).toBe(false);
  });
});
