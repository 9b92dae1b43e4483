/**
 * Secrets are never echoed. The agent types a password and a one-time code into a sign-in page and opens URLs that
 * carry tokens; every answer it gets — through the built CLI and an MCP server — and the person's popup, doctor and
 * status are searched for the planted secrets:
 *
 *   - `fill` into a password or one-time-code field answers with the masked value; a fill the field cut short says
 *     so without printing either value; `get value` of such a field is masked, and so are `get value|text|attr value`
 *     by ref and the snapshot's value of either field;
 *   - URL credentials (`access_token=`, `password=`, a user-info password) are redacted in `tabs`, `get url`, the
 *     snapshot header and its links, `navigate`'s answer, an error naming the URL, doctor, and the popup's rows.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type Relay } from './harness.js';
import { keptAnswers, mcpClient, open, read, refFor, snapshot } from './helpers.js';
import { extensionPage } from './personOptions.js';

const PASSWORD = 'hunter2-SECRET-1';
const CODE = '90210-SECRET-2';
const TOKEN = 'at-SECRET-3';
const USERINFO = 'uipw-SECRET-4';
const SECRETS = [PASSWORD, CODE, TOKEN, USERINFO, 'rt-SECRET-5'];

let relay: Relay;
let mcp: Client;
const { told, cli } = keptAnswers(() => relay);

beforeAll(async () => {
  relay = await startRelay();
  mcp = await mcpClient(relay.env);
}, 90_000);
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await relay?.stop();
});

describe('secrets are never echoed', () => {
  it('a password or one-time code typed by fill is masked in its answer, in get value and in a failed fill', async () => {
    const tab = await open(relay, '/login.html');
    const text = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    const filled = await cli('fill', refFor(text, /textbox "Password"/), PASSWORD, '--json');
    expect(filled.code, filled.stderr).toBe(0);
    // It did happen, exactly there: the page holds the password.
    expect(await read(page, 'document.getElementById("password").value')).toBe(PASSWORD);
    expect((filled.json as { value: string }).value).toBe('••••••');
    expect((await cli('fill', refFor(text, /textbox "Code"/), CODE)).code).toBe(0);
    expect(await read(page, 'document.getElementById("code").value')).toBe(CODE);
    const got = await cli('get', 'value', '--tab', String(tab.tabId), '--selector', '#password', '--json');
    expect((got.json as { value: string }).value).toBe('••••••');
    // Read by ref, whole: the same mask for the value, the text and the value attribute; the snapshot masks both.
    for (const field of [/textbox "Password"/, /textbox "Code"/]) {
      for (const read of [['value'], ['text'], ['attr', 'value']]) {
        const byRef = await cli('get', read[0] ?? '', refFor(text, field), ...read.slice(1), '--json');
        expect(byRef.code, byRef.stderr).toBe(0);
      }
    }
    const after = await cli('snapshot', '--tab', String(tab.tabId));
    expect(after.stdout).toMatch(/textbox "Code"( \[focused\])? \[ref=e\d+\]: "••••••"/);
    // The field keeps 4 characters: the fill failed, and says so without either value.
    const cut = await cli('fill', refFor(text, /textbox "Short password"/), PASSWORD);
    expect(cut.error?.code).toBe('partial_success_disallowed');
    const viaMcp = await mcp.callTool({ name: 'fill', arguments: { ref: refFor(text, /textbox "Password"/).slice(1), value: PASSWORD } });
    told.push(JSON.stringify(viaMcp));
    expect(viaMcp.isError).not.toBe(true);
    for (const text of told) for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it('URL credentials are redacted in tabs, get url, the snapshot, navigate, errors, doctor, status and the popup', async () => {
    const secretUrl = relay.server.url(`/login.html?access_token=${TOKEN}&view=1#password=${PASSWORD}`);
    const withUser = secretUrl.replace('http://', `http://me:${USERINFO}@`);
    const nav = await cli('navigate', withUser, '--json');
    expect(nav.code, nav.stderr).toBe(0);
    const { tabId } = nav.json as { tabId: number };
    expect(nav.stdout).toContain('access_token=[redacted]');
    await cli('tabs');
    await cli('get', 'url', '--tab', String(tabId));
    await cli('snapshot', '--tab', String(tabId), '--urls');
    await cli('snapshot', '--tab', String(tabId), '--json');
    // A failure naming the URL: a port nothing listens on.
    const failed = await cli('navigate', '--tab', String(tabId), `http://127.0.0.1:9/x?password=${PASSWORD}`);
    expect(failed.code).toBe(1);
    await cli('doctor');
    await cli('doctor', '--json');
    await cli('status');
    const viaMcp = await mcp.callTool({ name: 'tabs', arguments: {} });
    told.push(JSON.stringify(viaMcp));
    const popup = await extensionPage(relay, 'popup.html');
    const rows = await popup.evaluate(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      return document.body.innerText;
    });
    told.push(rows);
    if (process.env.DEBUG_ROWS) console.log(rows);
    expect(rows).toContain('password=[redacted]');
    for (const text of told) for (const secret of SECRETS) expect(text).not.toContain(secret);
  });
});
