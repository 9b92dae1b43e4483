/**
 * An agent's first hour, and an MCP client's (issue 34), through the BUILT CLI and the official MCP SDK client:
 * navigate works in the current tab and says the HTTP status; one ref grammar (@e12 and e12) in every place a ref is
 * written; compact answers a program can still parse; a ref from before a navigation says where the tab went; a
 * missing argument shows the usage; the lifecycle says what it did (bare stop, a second launch, status with nothing
 * connected); an MCP session with no browser gets one on its first navigate, and none beside a connected browser.
 * Page state is read over DevTools only.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, startRelay, until, type Relay } from './harness.js';
import { mcpClient, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
const roots: string[] = [];
const clients: Client[] = [];
beforeAll(async () => {
  relay = await startRelay();
}, 90_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  // Whatever a failed test left running in its own home.
  for (const root of roots) await runCli(['stop', '--all'], freshEnv(root), 60_000).catch(() => undefined);
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  await relay?.stop();
});

/** A home of its own (and HOME, TMPDIR), as a new user has: nothing launched, nothing connected. */
function newHome(): { root: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), 'cr-first-hour-'));
  roots.push(root);
  return { root, env: freshEnv(root) };
}

function freshEnv(root: string): NodeJS.ProcessEnv {
  for (const dir of ['home', 'userhome', 'tmp']) mkdirSync(join(root, dir), { recursive: true });
  return { PATH: process.env.PATH, HOME: join(root, 'userhome'), TMPDIR: join(root, 'tmp'), CHROME_RELAY_HOME: join(root, 'home') };
}

/** The ids of the tabs the relay's browser shows (the structure: --json). */
async function tabIds(): Promise<number[]> {
  const listed = await relay.cli('tabs', '--json');
  expect(listed.code, listed.stderr).toBe(0);
  return (listed.json as { windows: { tabs: { id: number }[] }[] }).windows.flatMap((w) => w.tabs.map((t) => t.id));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const unique = (path: string): string => `${path}${path.includes('?') ? '&' : '?'}fh=${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe('navigate works in the current tab', () => {
  it('navigate twice leaves one agent tab; --new-tab opens another; a 404 loads (exit 0) and says so', async () => {
    const first = await relay.cli('navigate', relay.server.url(unique('/button.html')), '--new-tab');
    expect(first.code, first.stderr).toBe(0);
    const tab = (first.json as { tabId: number }).tabId;
    const before = await tabIds();
    const second = await relay.cli('navigate', relay.server.url(unique('/form.html')));
    expect(second.code, second.stderr).toBe(0);
    expect(second.json).toMatchObject({ tabId: tab, title: 'Form fixture', status: 200 });
    const third = await relay.cli('navigate', relay.server.url(unique('/button.html')));
    expect(third.json).toMatchObject({ tabId: tab, title: 'Button fixture' });
    expect(await tabIds()).toEqual(before);

    const missing = await relay.cli('navigate', relay.server.url('/no-such-page.html'));
    expect(missing.code, missing.stderr).toBe(0);
    expect(missing.json).toMatchObject({ tabId: tab, status: 404, ready: true });
    const other = await relay.cli('navigate', relay.server.url(unique('/button.html')), '--new-tab');
    expect(other.json).toMatchObject({ newTab: true });
    expect((other.json as { tabId: number }).tabId).not.toBe(tab);
    expect((await tabIds()).length).toBe(before.length + 1);
  });
});

describe('one ref grammar: @e12 and e12 wherever a ref is written', () => {
  it('CLI arguments and flags, a batch step of either kind, and MCP params all take both spellings', async () => {
    const path = unique('/form.html');
    const nav = await relay.cli('navigate', relay.server.url(path));
    const tab = (nav.json as { tabId: number }).tabId;
    const page = await relay.page(path);
    const text = await snapshot(relay, tab);
    const name = refFor(text, /textbox "Name"/).slice(1);
    const go = refFor(text, /button "Go"/).slice(1);

    // A positional: bare, and with @.
    expect((await relay.cli('fill', name, 'bare')).code).toBe(0);
    expect(await read<string>(page, "document.getElementById('react').value")).toBe('bare');
    expect((await relay.cli('get', 'value', name)).json).toMatchObject({ value: 'bare' });
    expect((await relay.cli('get', 'value', `@${name}`)).json).toMatchObject({ value: 'bare' });
    // -s: a ref either way, or a CSS selector.
    expect((await relay.cli('get', 'value', '-s', name)).json).toMatchObject({ value: 'bare' });
    expect((await relay.cli('get', 'value', '-s', '#react')).json).toMatchObject({ value: 'bare' });
    expect((await relay.cli('type', '!', '-s', name)).code).toBe(0);
    expect(await read<string>(page, "document.getElementById('react').value")).toBe('bare!');
    expect((await relay.cli('snapshot', '-s', go)).stdout).toMatch(/^- button "Go" \[ref=e\d+\]$/m);

    // A batch: a command step with a bare ref, a tool step with @.
    const batch = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [CLI, 'batch'], { env: relay.env }, (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }));
      child.stdin?.end(JSON.stringify([{ command: 'fill', args: [name, 'batched'] }, { tool: 'get', params: { what: 'value', ref: `@${name}` } }]));
    });
    expect(batch.code, batch.stderr).toBe(0);
    expect(JSON.parse(batch.stdout)).toMatchObject({ ok: true, results: [{ ok: true }, { ok: true, result: { value: 'batched' } }] });

    // MCP: `ref: "@e9"` as the CLI writes it.
    const client = await mcpClient(relay.env);
    clients.push(client);
    const filled = await client.callTool({ name: 'fill', arguments: { ref: `@${name}`, value: 'from mcp' } });
    expect(filled.isError, JSON.stringify(filled.content)).not.toBe(true);
    expect(await read<string>(page, "document.getElementById('react').value")).toBe('from mcp');
    const clicked = await client.callTool({ name: 'click', arguments: { ref: go } });
    expect(clicked.isError, JSON.stringify(clicked.content)).not.toBe(true);
    // Not a ref at all: refused, naming the grammar.
    const bad = await client.callTool({ name: 'fill', arguments: { ref: '#react', value: 'x' } });
    expect(JSON.stringify(bad.structuredContent)).toContain('must be a ref like @e12 (or e12)');
  });

  it('a missing argument shows the usage line, on the command line and over MCP', async () => {
    const cli = await relay.cli('fill');
    expect(cli.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'ref' } });
    expect(cli.error?.message).toContain('(usage: `chrome-relay fill <ref> <value>`)');
    const client = await mcpClient(relay.env);
    clients.push(client);
    const mcp = await client.callTool({ name: 'fill', arguments: { value: 'x' } });
    const error = (mcp.structuredContent as { relayError: { code: string; message: string } }).relayError;
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toContain('ref: is required (usage: `fill {"ref": <ref>, "value": <value>}`)');
    expect(error.message).not.toContain('received undefined');
  });

  it('a ref from before a navigation says the tab navigated and where it is now, also after a snapshot of the new page', async () => {
    const nav = await relay.cli('navigate', relay.server.url(unique('/button.html')));
    const tab = (nav.json as { tabId: number }).tabId;
    const old = refFor(await snapshot(relay, tab), /button "Increment"/);
    const next = relay.server.url(unique('/form.html'));
    expect((await relay.cli('navigate', next, '--tab', String(tab))).code).toBe(0);
    await snapshot(relay, tab);
    const stale = await relay.cli('click', old);
    expect(stale.error).toMatchObject({ code: 'stale_ref', details: { reason: 'navigated', tab, url: next } });
    expect(stale.error?.message).toContain(`navigated since the snapshot that issued it; tab ${tab} now shows ${JSON.stringify(next)}`);
  });
});

describe('compact answers', () => {
  it('a program gets one line it can parse; a list is text; --snapshot is a result line, then the tree; --json the whole structure', async () => {
    const path = unique('/button.html');
    const nav = await relay.cli('navigate', relay.server.url(path));
    expect(nav.stdout.trim().split('\n')).toHaveLength(1);
    const tab = String((nav.json as { tabId: number }).tabId);
    const title = await relay.cli('get', 'title', '--tab', tab);
    expect(title.stdout).toBe(`${JSON.stringify({ tabId: Number(tab), what: 'title', value: 'Button fixture' })}\n`);
    const tabs = await relay.cli('tabs');
    expect(tabs.json).toBeUndefined();
    expect(tabs.stdout).toContain(`tab ${tab}: "Button fixture" — ${JSON.stringify(relay.server.url(path))}`);
    const ref = refFor(await snapshot(relay, Number(tab)), /button "Increment"/);
    const clicked = await relay.cli('click', ref, '--snapshot', '-i');
    const [line, ...tree] = clicked.stdout.trimEnd().split('\n');
    expect(JSON.parse(line ?? '')).toMatchObject({ clicked: true, tabId: Number(tab) });
    expect(tree[0]).toMatch(/^# "Button fixture"/);
    expect(tree.filter((l) => l.startsWith('- ')).length).toBeGreaterThan(0);
    const whole = await relay.cli('click', ref, '--snapshot', '-i', '--json');
    expect(whole.json).toMatchObject({ result: { clicked: true, healed: false, navigated: false }, snapshot: { tree: expect.any(Array) } });
    expect(whole.stdout.split('\n').length).toBeGreaterThan(5);
    // A screenshot without -o lands in one folder of the home that stays, not in a temp folder.
    const shot = await relay.cli('screenshot', '--tab', tab);
    expect((shot.json as { path: string }).path.startsWith(join(relay.home, 'screenshots'))).toBe(true);
    expect(existsSync((shot.json as { path: string }).path)).toBe(true);
  });

  it('snapshot -i lists every choice of a dropdown, the selected one too', async () => {
    const nav = await relay.cli('navigate', relay.server.url(unique('/form.html')));
    const listed = await relay.cli('snapshot', '-i', '--tab', String((nav.json as { tabId: number }).tabId));
    expect(listed.stdout).toMatch(/- combobox "Country" \[ref=e\d+\]: "United States":\n {2}- option "United States" \[selected\]\n {2}- option "Germany"/);
  });
});

describe('the lifecycle says what it did', () => {
  it('bare stop ends the browser `launch --user-data-dir` started; several: a closed code naming them, or --all; a second launch reports it as it runs', async () => {
    const { root, env } = newHome();
    const profile = join(root, 'my-profile');
    const launched = await runCli(['launch', '--headless', '--user-data-dir', profile], env, 90_000);
    expect(launched.code, launched.stderr).toBe(0);
    const pid = (launched.json as { pid: number }).pid;
    const again = await runCli(['launch', '--user-data-dir', profile], env);
    expect(again.json).toMatchObject({ pid, alreadyRunning: true, headless: true, note: expect.stringContaining('already runs headless') });

    const stopped = await runCli(['stop'], env, 60_000);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.json).toMatchObject({ stopped: [{ browserPid: pid, browser: 'stopped' }] });
    await until(() => !alive(pid), 10_000, 'the launched browser gone');

    const one = await runCli(['launch', '--headless', '--user-data-dir', join(root, 'a')], env, 90_000);
    const two = await runCli(['launch', '--headless', '--user-data-dir', join(root, 'b')], env, 90_000);
    expect([one.code, two.code]).toEqual([0, 0]);
    const ambiguous = await runCli(['stop'], env);
    expect(ambiguous.error).toMatchObject({ code: 'target_conflict', details: { reason: 'several_launched', profiles: expect.arrayContaining([expect.stringContaining(`${join(root, 'a')}`)]) } });
    expect(alive((one.json as { pid: number }).pid)).toBe(true);
    const all = await runCli(['stop', '--all'], env, 60_000);
    expect((all.json as { stopped: unknown[] }).stopped).toHaveLength(2);
  }, 240_000);

  it('status with nothing connected is one short line; uninstall names what it keeps', async () => {
    const { env } = newHome();
    const status = await runCli(['status'], env);
    expect(status.error).toMatchObject({ code: 'extension_not_connected', details: { reason: 'no_host' } });
    expect(status.error?.message.length).toBeLessThan(200);
    expect(status.stderr.split('\n')[0]).toMatch(/^chrome-relay: extension_not_connected: No browser is connected\./);
    const launched = await runCli(['launch', '--headless'], env, 90_000);
    expect(launched.code, launched.stderr).toBe(0);
    expect((await runCli(['stop'], env, 60_000)).code).toBe(0);
    const uninstalled = await runCli(['uninstall', '--json'], env);
    expect(uninstalled.code, uninstalled.stderr).toBe(0);
    const kept = (uninstalled.json as { kept: { path: string; reason: string }[] }).kept;
    expect(kept.map((k) => k.path)).toEqual(expect.arrayContaining([join(env.CHROME_RELAY_HOME ?? '', 'profiles'), join(env.CHROME_RELAY_HOME ?? '', 'logs')]));
    for (const entry of readdirSync(env.CHROME_RELAY_HOME ?? '')) expect(kept.map((k) => k.path), entry).toContain(join(env.CHROME_RELAY_HOME ?? '', entry));
  }, 180_000);
});

describe('an MCP session and the browser', () => {
  it('with no browser it gets one on its first navigate, says so, and the browser ends with the server', async () => {
    const { env } = newHome();
    const client = await mcpClient(env, '--headless');
    const nav = await client.callTool({ name: 'navigate', arguments: { url: relay.server.url(unique('/button.html')) } });
    expect(nav.isError, JSON.stringify(nav.content)).not.toBe(true);
    expect(nav.structuredContent).toMatchObject({ tabId: expect.any(Number), title: 'Button fixture', status: 200 });
    const texts = (nav.content as { type: string; text?: string }[]).map((c) => c.text ?? '');
    const notice = texts.find((t) => t.includes('browser_started')) ?? '';
    expect(notice).toContain('started its dedicated one for this session');
    const pid = Number(/pid (\d+)/.exec(notice)?.[1]);
    expect(alive(pid)).toBe(true);
    // It works there, and later calls say nothing more about it.
    const snap = await client.callTool({ name: 'snapshot', arguments: {} });
    expect((snap.content as { text: string }[])[0]?.text).toMatch(/button "Increment"/);
    expect(JSON.stringify(snap.content)).not.toContain('browser_started');
    await client.close();
    await until(() => !alive(pid), 15_000, 'the browser the server started, gone with it');
    expect(existsSync(join(env.CHROME_RELAY_HOME ?? '', 'launched')) ? readdirSync(join(env.CHROME_RELAY_HOME ?? '', 'launched')) : []).toEqual([]);
  }, 120_000);

  it('none beside a connected browser: the call goes there; --no-launch never starts one', async () => {
    const launchedBefore = readdirSync(join(relay.home, 'launched'));
    const client = await mcpClient(relay.env, '--headless');
    clients.push(client);
    const path = unique('/button.html');
    const nav = await client.callTool({ name: 'navigate', arguments: { url: relay.server.url(path), newTab: true } });
    expect(nav.isError, JSON.stringify(nav.content)).not.toBe(true);
    expect(JSON.stringify(nav.content)).not.toContain('browser_started');
    // The page is in the connected browser (the one DevTools observes).
    expect(await read<number>(await relay.page(path), 'window.clicks')).toBe(0);
    expect(readdirSync(join(relay.home, 'launched'))).toEqual(launchedBefore);

    const { env } = newHome();
    const off = await mcpClient(env, '--no-launch');
    clients.push(off);
    const refused = await off.callTool({ name: 'navigate', arguments: { url: relay.server.url('/button.html') } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ relayError: { code: 'extension_not_connected', details: { reason: 'no_host' } } });
    expect(existsSync(join(env.CHROME_RELAY_HOME ?? '', 'launched'))).toBe(false);
  }, 120_000);
});
