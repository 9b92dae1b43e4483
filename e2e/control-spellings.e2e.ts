/**
 * Every way to write a blocked host is the blocked host (packages/extension/src/policy/hosts.ts): the worker's check
 * refuses it and Chrome's request filter stops it, whatever the spelling. The person writes the rules in the options
 * page; agents act through the built CLI and MCP; what reached each site is counted at its own fixture server.
 *
 *   - the control: with no rule, the agent's page reaches 127.0.0.2 by IPv4-mapped IPv6 (`[::ffff:127.0.0.2]`,
 *     `[::ffff:7f00:2]`), by decimal, hex, octal and short IPv4, and this machine by `0.0.0.0`, `[::ffff:0:0]`,
 *     `[::ffff:7f00:1]`, `app.localhost` — so each is a real road;
 *   - with `127.0.0.2` blocked, none of those spellings (nor NAT64, translated or compatible forms) is navigated to
 *     or fetched: refused with site_blocked, and 0 requests at the blocked server;
 *   - a rule written as IPv6 (`[::ffff:127.0.0.2]`) blocks the plain address; a path rule on `localhost` holds for
 *     127.0.0.1, 0.0.0.0 and the IPv6 spellings of both.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureServer } from './fixtureServer.js';
import { mcpClient, open } from './helpers.js';
import { blockListRig, saveOptions } from './personOptions.js';

const rig = blockListRig();
let mcp: Client | undefined;
beforeAll(async () => {
  mcp = await mcpClient(rig.relay.env, '--caps', 'all');
});
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
});

/** Every spelling of 127.0.0.2 an agent might try (the port is the blocked server's). */
function spellingsOf127002(port: string): string[] {
  return [
    `http://[::ffff:127.0.0.2]:${port}`,
    `http://[::ffff:7f00:2]:${port}`,
    `http://[0:0:0:0:0:FFFF:7F00:0002]:${port}`,
    `http://[::ffff:0:127.0.0.2]:${port}`,
    `http://[64:ff9b::127.0.0.2]:${port}`,
    `http://[64:ff9b:1::7f00:2]:${port}`,
    `http://[::127.0.0.2]:${port}`,
    `http://2130706434:${port}`,
    `http://0x7f.0.0.2:${port}`,
    `http://0177.0.0.02:${port}`,
    `http://127.2:${port}`,
    `http://127.0.0.2.:${port}`,
  ];
}

/** Every spelling of this machine (the port is the relay's fixture server, on 127.0.0.1). */
function spellingsOfLoopback(port: string): string[] {
  return [`http://0.0.0.0:${port}`, `http://0:${port}`, `http://[::ffff:0:0]:${port}`, `http://[::ffff:7f00:1]:${port}`, `http://[::ffff:127.0.0.1]:${port}`, `http://127.1:${port}`, `http://app.localhost:${port}`, `http://LOCALHOST.:${port}`];
}

/** The agent's page fetches each URL (no-cors: a blocked one fails, a reached one is counted at its server). */
async function fetchAll(tab: number, urls: readonly string[]): Promise<void> {
  const list = JSON.stringify(urls);
  const result = await rig.relay.cli('js', '--tab', String(tab), `Promise.all(${list}.map((u) => fetch(u, { mode: 'no-cors', credentials: 'include' }).then(() => 'sent', () => 'failed')))`);
  expect(result.code, result.stderr).toBe(0);
}

/** The requests a page sent so far have arrived: a marker from the same tab has. */
async function fence(tab: number, server: FixtureServer): Promise<void> {
  const marker = `/fence-${Date.now().toString(36)}`;
  await rig.relay.cli('js', '--tab', String(tab), `fetch(${JSON.stringify(server.url(marker))}, { mode: 'no-cors' }).then(() => 1, () => 0)`);
  await server.waitForRequest(marker);
}

const probed = (server: FixtureServer, token: string): string[] => server.requests.filter((r) => r.includes(token));

describe('one canonical form for every way to write a host', () => {
  it('with 127.0.0.2 blocked, no spelling of it is navigated to or fetched, by the CLI or MCP — each one a real road without the rule', async () => {
    // The control: with no rule, each spelling reaches its host.
    const control = (await open(rig.relay, '/button.html')).tabId;
    const port = new URL(rig.crossServer.origin).port;
    const relayPort = new URL(rig.relay.server.origin).port;
    const token = `road-${Date.now().toString(36)}`;
    await fetchAll(control, [...spellingsOf127002(port), ...spellingsOfLoopback(relayPort)].map((base) => `${base}/${token}?via=${encodeURIComponent(base)}`));
    await fence(control, rig.crossServer);
    await fence(control, rig.relay.server);
    const reached = [...probed(rig.crossServer, token), ...probed(rig.relay.server, token)].map((r) => decodeURIComponent(r.split('via=')[1] ?? ''));
    // IPv4-mapped IPv6 and the numeric IPv4 forms reach 127.0.0.2; 0.0.0.0 and the mapped loopback reach 127.0.0.1.
    // (NAT64, translated and compatible forms need a network that routes them: blocked all the same, below.)
    for (const road of [`http://[::ffff:127.0.0.2]:${port}`, `http://[::ffff:7f00:2]:${port}`, `http://2130706434:${port}`, `http://0x7f.0.0.2:${port}`, `http://0.0.0.0:${relayPort}`, `http://[::ffff:0:0]:${relayPort}`, `http://[::ffff:7f00:1]:${relayPort}`, `http://app.localhost:${relayPort}`]) {
      expect(reached, road).toContain(road);
    }

    await saveOptions(rig.options, { blocked: '127.0.0.2' });
    const tab = (await open(rig.relay, '/button.html')).tabId;
    const before = rig.crossServer.requests.length;
    const spellings = spellingsOf127002(port);
    for (const base of spellings) {
      const refused = await rig.relay.cli('navigate', '--tab', String(tab), `${base}/x?action=delete-account`);
      expect(refused.error?.details, `${base}: ${refused.stderr}`).toMatchObject({ reason: 'site_blocked', rule: '127.0.0.2' });
    }
    for (const base of spellings.slice(0, 4)) {
      const viaMcp = await mcp?.callTool({ name: 'navigate', arguments: { url: `${base}/x?via=mcp` } });
      expect(viaMcp?.isError, base).toBe(true);
      expect(JSON.stringify(viaMcp?.content)).toContain('site_blocked');
    }
    // The page itself, on its own (what an agent's `js` makes it do): the request filter stops every spelling.
    await fetchAll(tab, spellings.map((base) => `${base}/x?via=fetch`));
    await rig.relay.cli('js', '--tab', String(tab), `location.href = ${JSON.stringify(`${spellings[0] ?? ''}/x?via=location`)}; 1`);
    await fence((await open(rig.relay, '/button.html')).tabId, rig.relay.server);
    expect(rig.crossServer.requests.slice(before)).toEqual([]);
  });

  it('a rule written as IPv6 blocks the plain address; a path rule on localhost holds for every name and address of this machine', async () => {
    await saveOptions(rig.options, { blocked: '[::ffff:127.0.0.2]\nlocalhost/secret*' });
    const tab = (await open(rig.relay, '/button.html')).tabId;
    const refused = await rig.relay.cli('navigate', '--tab', String(tab), rig.crossServer.url('/x'));
    expect(refused.error?.details, refused.stderr).toMatchObject({ reason: 'site_blocked', rule: '[::ffff:127.0.0.2]' });
    const relayPort = new URL(rig.relay.server.origin).port;
    const secret = `secret-${Date.now().toString(36)}`;
    const urls = [rig.relay.server.url(`/${secret}`), ...spellingsOfLoopback(relayPort).map((base) => `${base}/${secret}`)];
    for (const url of urls) {
      const navigated = await rig.relay.cli('navigate', '--tab', String(tab), url);
      expect(navigated.error?.details, `${url}: ${navigated.stderr}`).toMatchObject({ reason: 'site_blocked', rule: 'localhost/secret*' });
    }
    const before = rig.crossServer.requests.length;
    await fetchAll(tab, [...urls, rig.crossServer.url('/x?via=fetch')]);
    await fence(tab, rig.relay.server);
    expect(probed(rig.relay.server, secret)).toEqual([]);
    expect(rig.crossServer.requests.slice(before)).toEqual([]);
    // Not a disguise: the rest of this machine is open.
    const open127 = await rig.relay.cli('navigate', '--tab', String(tab), `http://0.0.0.0:${relayPort}/button.html`);
    expect(open127.code, open127.stderr).toBe(0);
  });
});
