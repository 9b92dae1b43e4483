/**
 * The site block list is a barrier, not a lens: no request from an agent's tab reaches a blocked site, whatever
 * starts it. The person sets the rules in the options page (their UI, driven as they would); agents act only
 * through the built CLI. What reached each site is counted at its own fixture server.
 *
 *   - from an allowed agent tab: a link, a new-window link, window.open, fetch, a beacon, a WebSocket, an iframe,
 *     an image, and `js` setting location — nothing reaches the blocked site; the same page does reach an
 *     unblocked one (the control that proves each way sends a request);
 *   - redirects onto a blocked site, in a given tab and in a new one, fail site_blocked (not cdp_error/retry),
 *     and a data: page that navigates away at once gets nowhere;
 *   - spelling tricks (trailing dot, percent-encoding, empty segments, a port the rule did not name) are caught;
 *   - nothing of the blocked site reaches the agent: no path in errors, `tabs`, `network` or `console`;
 *   - the person's own tab still reaches the site: the barrier is for agents only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixtureServer.js';
import { until, type CliResult } from './harness.js';
import { okJson, open, refFor, snapshot } from './helpers.js';
import { blockListRig, saveOptions } from './personOptions.js';

const rig = blockListRig();
let open3: FixtureServer;
beforeAll(async () => {
  open3 = await startFixtureServer('127.0.0.3');
});
afterAll(async () => {
  await open3?.close();
});

/** Path tokens of the blocked site: VAULT the agent writes itself; LEDGER only a redirect knows, and it must never be printed. */
const TOKEN = 'vault-7f3k';
const LEDGER = 'ledger-9q2w';
const kinds = ['open', 'fetch', 'beacon', 'socket', 'frame', 'image', 'blank', 'link'] as const;

const ok = (...args: string[]): Promise<Record<string, unknown>> => okJson(rig.relay, ...args);

/** Everything the agent was told in a test, to be searched for the blocked site's path. */
const told: string[] = [];
async function cli(...args: string[]): Promise<CliResult> {
  const t0 = Date.now();
  const result = await rig.relay.cli(...args);
  if (process.env.TIMING) console.log(Date.now() - t0, args.join(' ').slice(0, 80), result.code, result.stderr.slice(0, 300));
  told.push(result.stdout, result.stderr);
  return result;
}

/** Click every escape of the page, in one tab (the plain link last: it leaves the page). */
async function pressEverything(relayPath: string): Promise<number> {
  const tabId = (await open(rig.relay, relayPath)).tabId;
  await pressAll(tabId, kinds);
  return tabId;
}

async function pressAll(tabId: number, which: readonly (typeof kinds)[number][]): Promise<void> {
  const text = await snapshot(rig.relay, tabId);
  const names: Record<(typeof kinds)[number], RegExp> = {
    open: /button "Open window"/,
    fetch: /button "Fetch"/,
    beacon: /button "Beacon"/,
    socket: /button "Socket"/,
    frame: /button "Frame"/,
    image: /button "Image"/,
    blank: /link "New window link"/,
    link: /link "Plain link"/,
  };
  for (const kind of which) {
    const clicked = await cli('click', refFor(text, names[kind]));
    // The plain link moves the tab itself: onto a blocked site, the click is answered with the block (it did click).
    if (kind === 'link' && clicked.code !== 0) expect(clicked.error?.details, clicked.stderr).toMatchObject({ reason: 'site_blocked', mayHaveActed: true });
    else expect(clicked.code, `${kind}: ${clicked.stderr}`).toBe(0);
  }
}

/**
 * The requests the pages sent before now have arrived: a marker fetched by a tab of its own (the others may have
 * navigated away) has reached `server`, and a little more time has passed.
 */
async function fence(server: FixtureServer): Promise<void> {
  const marker = `/fence-${Date.now().toString(36)}`;
  const tab = await open(rig.relay, '/button.html');
  await cli('js', '--tab', String(tab.tabId), `fetch(${JSON.stringify(server.url(marker))}, { mode: 'no-cors' }).then(() => 1, () => 0)`);
  await server.waitForRequest(marker);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await cli('close', '--tab', String(tab.tabId));
}

function reached(server: FixtureServer, via?: string): string[] {
  return server.requests.filter((r) => (via === undefined ? !r.startsWith('/fence-') : r.includes(`via=${via}`)));
}

describe('the block list as a network barrier for agent tabs', () => {
  it('no link, window, fetch, beacon, socket, frame, image or script navigation reaches a blocked site; the same page reaches an open one', async () => {
    await saveOptions(rig.options, { blocked: '127.0.0.2' });
    // The control: against a site nobody blocked, every way sends its request.
    await pressEverything(`/escape.html?to=${encodeURIComponent(open3.url(`/${TOKEN}.html`))}`);
    for (const kind of kinds) await open3.waitForRequest(`/${TOKEN}.html?via=${kind}`);

    const before = rig.crossServer.requests.length;
    const tab = await pressEverything(`/escape.html?to=${encodeURIComponent(rig.crossServer.url(`/${TOKEN}.html`))}`);
    const other = await open(rig.relay, '/escape.html');
    await cli('js', '--tab', String(other.tabId), `location.href = ${JSON.stringify(rig.crossServer.url(`/${TOKEN}.html?via=location`))}`);
    await cli('js', '--tab', String(other.tabId), `fetch(${JSON.stringify(rig.crossServer.url(`/${TOKEN}.html?via=jsfetch`))}).then(() => 'sent', (e) => String(e))`);
    await fence(rig.relay.server);
    expect(rig.crossServer.requests.slice(before)).toEqual([]);

    // The tab that followed the plain link shows the blocked site now: refused, and named by its origin only.
    const after = await cli('snapshot', '--tab', String(tab));
    expect(after.error?.details).toMatchObject({ reason: 'site_blocked', rule: '127.0.0.2' });
  });

  it('a redirect onto a blocked site fails site_blocked, in a given tab and in a new one; a data: page gets nowhere', async () => {
    await saveOptions(rig.options, { blocked: '127.0.0.2' });
    told.length = 0;
    const before = rig.crossServer.requests.length;
    // The agent's URL does not spell where the redirect leads: the blocked site's path must not reach it.
    const bounce = rig.relay.server.url(`/redirect?to64=${Buffer.from(rig.crossServer.url(`/${LEDGER}.html?via=redirect`)).toString('base64')}`);
    const tab = await open(rig.relay, '/button.html');
    const inTab = await cli('navigate', '--tab', String(tab.tabId), bounce);
    expect(inTab.error?.code, inTab.stderr).toBe('target_conflict');
    expect(inTab.error?.details).toMatchObject({ reason: 'site_blocked', rule: '127.0.0.2' });
    expect(inTab.error?.retryable).toBe(false);
    const fresh = await cli('navigate', bounce, '--new-tab');
    expect(fresh.error?.details, fresh.stderr).toMatchObject({ reason: 'site_blocked', rule: '127.0.0.2' });
    const data = await cli('navigate', '--wait', 'none', `data:text/html,<script>location.href=${JSON.stringify(rig.crossServer.url('/data.html?via=data'))}</script>`);
    expect([0, 1]).toContain(data.code);
    await fence(rig.relay.server);
    expect(rig.crossServer.requests.slice(before)).toEqual([]);
    // Nothing of the blocked site reaches the agent: not in the answers, `tabs`, nor an allowed tab's `network` and
    // `console` after its own fetch was redirected there (the redirect's Location names the blocked path).
    const fetcher = await open(rig.relay, '/button.html');
    await cli('js', '--tab', String(fetcher.tabId), `fetch(${JSON.stringify(bounce)}).then(() => 'sent', (e) => String(e))`);
    await fence(rig.relay.server);
    await cli('tabs', '--json');
    const network = await cli('network', '--tab', String(fetcher.tabId), '--json');
    expect(network.stdout).toContain('/redirect?to64=');
    await cli('console', '--tab', String(fetcher.tabId));
    for (const text of told) expect(text).not.toContain(LEDGER);
  });

  it('a trailing dot, percent-encoding, an empty segment or a port the rule did not name do not slip past a path rule', async () => {
    await saveOptions(rig.options, { blocked: 'localhost/secret*' });
    const port = new URL(rig.relay.server.origin).port;
    const spellings = [`http://localhost.:${port}/secret.html`, `http://LOCALHOST:${port}/%73ecret.html`, `http://localhost:${port}//secret.html`, `http://localhost:${port}/SECRET/x`];
    const tab = await open(rig.relay, '/escape.html');
    for (const url of spellings) {
      const refused = await cli('navigate', '--tab', String(tab.tabId), url);
      expect(refused.error?.details, `${url}: ${refused.stderr}`).toMatchObject({ reason: 'site_blocked', rule: 'localhost/secret*' });
    }
    for (const url of spellings) await cli('js', '--tab', String(tab.tabId), `fetch(${JSON.stringify(url)}, { mode: 'no-cors' }).then(() => 'sent', () => 'failed')`);
    await fence(rig.relay.server);
    expect(rig.relay.server.requests.filter((r) => /secret|%73ecret/i.test(r))).toEqual([]);
    // Not a disguise: the rest of the site is open.
    await ok('navigate', '--tab', String(tab.tabId), `http://localhost:${port}/button.html`);
  });

  it("the person's own tab still reaches the blocked site: the barrier is for agents' tabs only", async () => {
    await saveOptions(rig.options, { blocked: '127.0.0.2' });
    const page = await rig.relay.devtools.newPage();
    try {
      const url = rig.crossServer.url(`/button.html?person=${Date.now().toString(36)}`);
      await page.goto(url);
      await until(() => rig.crossServer.requests.some((r) => r.startsWith('/button.html?person=')), 5000, 'the person reaching their site');
    } finally {
      await page.close();
    }
  });
});
