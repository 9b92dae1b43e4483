/**
 * No road to a password's value. On a sign-in page that copies what is typed into each field's value attribute (as
 * some frameworks do), the agent fills a password and a one-time code, then tries every other way to get them back,
 * through the built CLI and an MCP server:
 *
 *   - an attribute read by selector (`get attr -s '#password' value`; it printed the password) and by ref, and a
 *     value read: masked;
 *   - a selector that tests the value attribute, as an oracle to guess it letter by letter: `get count`,
 *     `wait --selector`, `snapshot -s`, `screenshot --selector`, `drag --to-selector`, in every spelling (case, CSS
 *     escapes, a comment, a namespace, inside :has()): refused, and a right guess and a wrong one get the very same
 *     answer;
 *   - a batch whose `fill` step carries the password: its step line does not echo it;
 *   - `js` and `wait --fn` are full page access (docs/security.md): the person can turn them off in the options, and
 *     then both are refused (js_off), over MCP too.
 * Every output is searched for both secrets.
 */
import { spawnSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI, startRelay, type CliResult, type Relay } from './harness.js';
import { keptAnswers, mcpClient, open, read, refFor, snapshot, stringEnv } from './helpers.js';
import { extensionPage, saveOptions } from './personOptions.js';

const PASSWORD = 'Pw-SECRET-9x';
const CODE = '4711-SECRET-0';

let relay: Relay;
let mcp: Client;
let options: Page;
const { told, cli } = keptAnswers(() => relay);

beforeAll(async () => {
  relay = await startRelay();
  mcp = await mcpClient(relay.env, '--caps', 'all');
  options = await extensionPage(relay, 'options.html');
}, 90_000);
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await relay?.stop();
});
// Each test searches its own outputs.
beforeEach(() => {
  told.splice(0);
});

async function mcpCall(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const result = await mcp.callTool({ name, arguments: args });
  const text = JSON.stringify(result);
  told.push(text);
  return { isError: result.isError === true, text };
}

/** The page with both secrets filled (and mirrored into the markup by the page itself). */
async function filled(): Promise<{ tab: string; text: string; page: Page }> {
  const opened = await open(relay, '/mirror.html');
  const text = await snapshot(relay, opened.tabId);
  const page = await relay.page(opened.path);
  expect((await cli('fill', refFor(text, /textbox "Password"/), PASSWORD)).code).toBe(0);
  expect((await cli('fill', refFor(text, /textbox "Code"/), CODE)).code).toBe(0);
  // The vector is real: the page holds the password in its value attribute.
  expect(await read(page, 'document.getElementById("password").getAttribute("value")')).toBe(PASSWORD);
  return { tab: String(opened.tabId), text, page };
}

function noSecrets(): void {
  for (const text of told) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(CODE);
  }
}

describe('reads of a secret field', () => {
  it('an attribute or value read, by selector or by ref, is masked (CLI and MCP)', async () => {
    const { tab, text } = await filled();
    for (const [selector, name] of [['#password', 'value'], ['#code', 'value'], ['#password', 'VALUE']] as const) {
      const got = await cli('get', 'attr', '-s', selector, name, '--tab', tab, '--json');
      expect(got.code, got.stderr).toBe(0);
      expect((got.json as { value: string }).value).toBe('••••••');
    }
    expect(((await cli('get', 'value', '-s', '#password', '--tab', tab, '--json')).json as { value: string }).value).toBe('••••••');
    expect(((await cli('get', 'attr', refFor(text, /textbox "Password"/), 'value', '--json')).json as { value: string }).value).toBe('••••••');
    // Not a secret: the user name is read as it is.
    expect((await cli('get', 'attr', '-s', '#go', 'value', '--tab', tab, '--json')).json).toMatchObject({ value: 'Sign in' });
    expect((await mcpCall('get', { what: 'attr', selector: '#password', name: 'value', tab: Number(tab) })).isError).toBe(false);
    noSecrets();
  });
});

describe('selectors as an oracle', () => {
  it('a selector testing the value attribute is refused while a secret field carries one, and a right guess reads as a wrong one', async () => {
    const { tab, text } = await filled();
    const guesses = (first: string): string[] => [
      `input[value^="${first}"]`,
      `input[VALUE^=${first}]`,
      `input[v\\61lue^="${first}"]`,
      `input[/**/value^="${first}"]`,
      `input[*|value^="${first}"]`,
      `form:has([value^="${first}"])`,
      `:is(#nothing, [value^="${first}" i])`,
    ];
    const answer = (result: CliResult): string => JSON.stringify({ code: result.code, error: result.error?.code, field: result.error?.details['field'], secret: result.error?.details['secret'] });
    const right = guesses('P');
    const wrong = guesses('Q');
    for (const [index, selector] of right.entries()) {
      const other = wrong[index] ?? '';
      const reads: [string[], string[]][] = [[['get', 'count', '-s', selector, '--tab', tab], ['get', 'count', '-s', other, '--tab', tab]]];
      // Every command that takes a selector, for two of the spellings (they all match selectors one way).
      if (index < 2) {
        reads.push(
          [['wait', '--selector', selector, '--timeout', '300', '--tab', tab], ['wait', '--selector', other, '--timeout', '300', '--tab', tab]],
          [['snapshot', '-s', selector, '--tab', tab], ['snapshot', '-s', other, '--tab', tab]],
          [['screenshot', '--selector', selector, '--tab', tab], ['screenshot', '--selector', other, '--tab', tab]],
          [['drag', refFor(text, /textbox "User"/), '--to-selector', selector], ['drag', refFor(text, /textbox "User"/), '--to-selector', other]],
        );
      }
      for (const [asRight, asWrong] of reads) {
        const a = await cli(...asRight);
        const b = await cli(...asWrong);
        expect(a.error, `${asRight.join(' ')}: ${a.stderr}`).toMatchObject({ code: 'invalid_arguments', details: { secret: true } });
        expect(answer(a)).toBe(answer(b));
      }
    }
    const viaMcp = await mcpCall('get', { what: 'count', selector: 'input[value^="P"]', tab: Number(tab) });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.text).toContain('invalid_arguments');
    // A selector that tests nothing secret still works on the same page.
    expect((await cli('get', 'count', '-s', 'input[type=password]', '--tab', tab, '--json')).json).toMatchObject({ value: 1 });
    expect((await cli('get', 'count', '-s', 'input[value="Sign in"]', '--tab', tab)).error).toMatchObject({ code: 'invalid_arguments' });
    noSecrets();
  });
});

describe('batch', () => {
  it("a fill step's value is not echoed in its step line", async () => {
    const { text } = await filled();
    const steps = [
      { command: 'fill', args: [refFor(text, /textbox "Password"/), PASSWORD] },
      { command: 'fill', args: [refFor(text, /textbox "Code"/), '--', CODE] },
      { tool: 'fill', params: { ref: refFor(text, /textbox "Password"/).slice(1), value: PASSWORD } },
    ];
    const batch = spawnSync(process.execPath, [CLI, 'batch'], { env: stringEnv(relay.env), input: JSON.stringify(steps), encoding: 'utf8', timeout: 60_000 });
    told.push(batch.stdout, batch.stderr);
    expect(batch.status, batch.stderr).toBe(0);
    noSecrets();
  });
});

describe("agents' JavaScript, which the person may turn off", () => {
  it('js and wait --fn are refused while off (CLI and MCP), and work again once on', async () => {
    const { tab } = await filled();
    await saveOptions(options, { agentJs: false });
    try {
      for (const args of [['js', 'document.getElementById("password").value', '--tab', tab], ['wait', '--fn', 'document.getElementById("password").value.startsWith("P")', '--tab', tab, '--timeout', '500']]) {
        const result = await cli(...args);
        expect(result.error, args.join(' ')).toMatchObject({ code: 'target_conflict', details: { reason: 'js_off' } });
      }
      const viaMcp = await mcpCall('js', { expression: 'document.getElementById("password").value', tab: Number(tab) });
      expect(viaMcp.isError).toBe(true);
      expect(viaMcp.text).toContain('js_off');
      // Everything else keeps working.
      expect((await cli('get', 'title', '--tab', tab)).code).toBe(0);
    } finally {
      await saveOptions(options, { agentJs: true });
    }
    expect((await relay.cli('js', '1 + 1', '--tab', tab, '--json')).json).toMatchObject({ value: 2 });
    noSecrets();
  });
});
