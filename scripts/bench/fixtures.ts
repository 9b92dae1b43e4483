/** The pages the bench measures on (served by e2e/fixtureServer.ts; generators in e2e/fixtures/benchPages.ts). */

export interface Fixture {
  label: string;
  path: string;
  /** Text every snapshot of the page must print, even cut at 8,000 characters: a blank or wrong page is no figure. */
  marker: string;
}

export const FIXTURES = {
  small: { label: 'small page', path: '/bench/small', marker: 'Increment' },
  rows200: { label: '200 rows', path: '/rows?n=200', marker: 'Open' },
  rows1500: { label: '1,500 rows', path: '/rows?n=1500', marker: 'Open' },
  elements5k: { label: '5k elements', path: '/bench/elements?n=5000', marker: 'Details 1' },
  elements50k: { label: '50k elements', path: '/bench/elements?n=50000', marker: 'Details 1' },
  news: { label: 'news front page', path: '/bench/news', marker: 'The Daily Ledger' },
  encyclopedia: { label: 'encyclopedia article', path: '/bench/article', marker: 'Open Encyclopedia' },
} as const satisfies Record<string, Fixture>;

/** The fixtures whose snapshot time and tokens are reported side by side. */
export const SNAPSHOT_FIXTURES: readonly Fixture[] = [FIXTURES.small, FIXTURES.rows1500, FIXTURES.elements5k, FIXTURES.news, FIXTURES.encyclopedia];

let visit = 0;

/** The fixture's path with a unique query, so no tool can treat a navigation as "already there". */
export function uniquePath(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}visit=${++visit}`;
}
