/**
 * The page actions that need no ref, each through the built CLI on a fixture that would catch
 * the wrong behaviour. Assertions read the page's own state through the DevTools observer (never chrome-relay's
 * word); the observer never acts on the page.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, until, type Relay } from './harness.js';
import { open, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

type Json = Record<string, unknown>;
interface KeyRecord { key: string; code: string; keyCode: number; shift: boolean; ctrl: boolean; trusted: boolean; target: string }

async function ok(...args: string[]): Promise<Json> {
  const result = await relay.cli('--json', ...args);
  expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(0);
  return result.json as Json;
}

async function focus(tabId: number, name: RegExp): Promise<void> {
  await ok('click', refFor(await snapshot(relay, tabId), name));
}

describe('keys', () => {
  it('presses combinations with the key, code and modifiers a keyboard sends', async () => {
    const tab = await open(relay, '/keys.html');
    const page = await relay.page(tab.path);
    await focus(tab.tabId, /textbox "Name"/);
    expect(await ok('keys', 'Control+a', 'Backspace')).toMatchObject({ tabId: tab.tabId, pressed: ['Control+a', 'Backspace'] });
    expect(await read<string>(page, "document.getElementById('name').value")).toBe('');
    await ok('keys', 'Tab');
    await ok('keys', 'Shift+Tab');
    expect(await read<string[]>(page, 'focusLog')).toEqual(['name', 'notes', 'name']);
    const log = await read<KeyRecord[]>(page, 'keys');
    expect(log.find((k) => k.key === 'a')).toEqual({ key: 'a', code: 'KeyA', keyCode: 65, shift: false, ctrl: true, trusted: true, target: 'name' });
    expect(log.find((k) => k.key === 'Tab' && k.shift)).toEqual({ key: 'Tab', code: 'Tab', keyCode: 9, shift: true, ctrl: false, trusted: true, target: 'notes' });
    await ok('keys', 'Enter');
    expect(await read<number>(page, 'submits')).toBe(1);
  });

  it('rejects an unknown key name before pressing anything', async () => {
    const tab = await open(relay, '/keys.html');
    const page = await relay.page(tab.path);
    await focus(tab.tabId, /textbox "Name"/);
    const before = (await read<KeyRecord[]>(page, 'keys')).length;
    const result = await relay.cli('keys', 'a', 'Control+Banana');
    expect(result.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'keys' } });
    expect(result.error?.message).toContain('Banana');
    expect((await read<KeyRecord[]>(page, 'keys')).length).toBe(before);
  });
});

describe('type', () => {
  it('reaches a beforeinput-driven editor and a React-style controlled input', async () => {
    const tab = await open(relay, '/editor.html');
    const page = await relay.page(tab.path);
    await focus(tab.tabId, /textbox "Editor"/);
    expect(await ok('type', 'Hi, é✓')).toMatchObject({ typed: 6, into: 'div#editor[contenteditable]' });
    expect(await read<string>(page, 'model')).toBe('Hi, é✓');
    expect(new Set(await read<string[]>(page, 'inputTypes'))).toEqual(new Set(['insertText']));
    await focus(tab.tabId, /textbox "Controlled"/);
    await ok('type', 'abc');
    expect(await read<string>(page, 'state')).toBe('ABC');
    expect(await read<string>(page, "document.getElementById('controlled').value")).toBe('ABC');
  });

  it('--snapshot prints the result, then a fresh snapshot of the same tab', async () => {
    const tab = await open(relay, '/editor.html');
    await focus(tab.tabId, /textbox "Controlled"/);
    const text = await relay.cli('type', 'xy', '--snapshot');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^typed 2 characters into \S+\n# "Editor fixture" — ".*" \[tab=\d+\]\n[\s\S]*textbox "Controlled" \[focused\] \[ref=e\d+\]/);
    const json = await relay.cli('--json', 'type', 'z', '--snapshot');
    expect(json.json).toMatchObject({ result: { tabId: tab.tabId, typed: 1 }, snapshot: { tabId: tab.tabId, title: 'Editor fixture' } });
  });

  it('refuses to type when nothing editable has focus', async () => {
    const tab = await open(relay, '/editor.html');
    const result = await relay.cli('type', 'lost', '--tab', String(tab.tabId));
    expect(result.error).toMatchObject({ code: 'element_not_found', details: { tab: tab.tabId } });
    expect(await read<string>(await relay.page(tab.path), 'model')).toBe('');
  });
});

describe('back, forward, reload, close', () => {
  it('moves through the tab history and waits for each document', async () => {
    const tab = await open(relay, '/nav-a.html');
    await ok('navigate', relay.server.url('/nav-b.html'), '--tab', String(tab.tabId));
    const back = await ok('back', '--tab', String(tab.tabId));
    expect(back).toMatchObject({ tabId: tab.tabId, ready: true, title: 'Nav A', url: relay.server.url(tab.path) });
    const page = await relay.page(tab.path);
    expect(await read<string>(page, 'location.pathname')).toBe('/nav-a.html');
    expect(await ok('forward', '--tab', String(tab.tabId))).toMatchObject({ ready: true, title: 'Nav B', url: relay.server.url('/nav-b.html') });
    await ok('back', '--tab', String(tab.tabId));
    // The tab's first entry is the placeholder it was opened on; there is nothing before it.
    expect(await ok('back', '--tab', String(tab.tabId))).toMatchObject({ url: 'about:blank' });
    const none = await relay.cli('back', '--tab', String(tab.tabId));
    expect(none.error).toMatchObject({ code: 'target_not_found', details: { tab: tab.tabId } });
  });

  it('back over a pushState entry keeps the document', async () => {
    const tab = await open(relay, '/spa.html');
    const page = await relay.page(tab.path);
    await ok('click', refFor(await snapshot(relay, tab.tabId), /button "Go to profile"/));
    await until(async () => (await read<string>(page, 'location.pathname')) === '/spa/profile', 5000, 'pushState');
    await read(page, 'window.mark = 1');
    expect(await ok('back', '--tab', String(tab.tabId))).toMatchObject({ ready: true, url: relay.server.url(tab.path) });
    expect(await read<string>(page, 'location.pathname')).toBe('/spa.html');
    expect(await read<number>(page, 'window.mark')).toBe(1);
  });

  it('reload loads a new document', async () => {
    const tab = await open(relay, '/nav-a.html');
    // A mark in the current document: a real reload replaces the document, and the mark with it.
    await read(await relay.page(tab.path), 'window.mark = 1');
    expect(await ok('reload', '--tab', String(tab.tabId))).toEqual({ tabId: tab.tabId, ready: true, title: 'Nav A', url: relay.server.url(tab.path) });
    expect(await read<number | undefined>(await relay.page(tab.path), 'window.mark')).toBeUndefined();
  });

  it('closes all or none', async () => {
    const a = await open(relay, '/other.html');
    const b = await open(relay, '/other.html');
    const missing = await relay.cli('close', String(a.tabId), '999999', String(b.tabId));
    expect(missing.error).toMatchObject({ code: 'target_not_found', details: { missing: [999999] } });
    const ids = async () => (await ok('tabs')).windows as { tabs: { id: number }[] }[];
    expect((await ids()).flatMap((w) => w.tabs.map((t) => t.id))).toEqual(expect.arrayContaining([a.tabId, b.tabId]));
    expect(await ok('close', String(a.tabId), String(b.tabId))).toEqual({ closed: [a.tabId, b.tabId] });
    const left = (await ids()).flatMap((w) => w.tabs.map((t) => t.id));
    expect(left).not.toContain(a.tabId);
    expect(left).not.toContain(b.tabId);
  });
});

describe('wait', () => {
  it('returns once text, selector, URL and a JS condition hold — not before', async () => {
    const tab = await open(relay, '/wait.html');
    const page = await relay.page(tab.path);
    await ok('js', 'start()', '--tab', String(tab.tabId));
    const text = await ok('wait', '--text', 'Done loading', '--tab', String(tab.tabId));
    expect(text).toMatchObject({ condition: 'text' });
    expect(await read<string>(page, "document.getElementById('status').textContent")).toBe('Done loading');
    await ok('wait', '--selector', '#later', '--tab', String(tab.tabId));
    expect(await read<boolean>(page, "document.getElementById('later').hidden")).toBe(false);
    const url = await ok('wait', '--url', '**/wait/finished', '--tab', String(tab.tabId));
    expect(url).toMatchObject({ condition: 'url', url: relay.server.url('/wait/finished') });
    expect(await ok('wait', '--fn', 'window.ready === true', '--tab', String(tab.tabId))).toMatchObject({ condition: 'fn' });
    expect(await ok('wait', '--load', '--tab', String(tab.tabId))).toMatchObject({ condition: 'load' });
  });

  it('times out with the page state when the element exists but stays invisible', async () => {
    const tab = await open(relay, '/wait.html');
    const started = Date.now();
    const result = await relay.cli('wait', '--selector', '#ghost', '--tab', String(tab.tabId), '--timeout', '2500');
    expect(result.error).toMatchObject({
      code: 'timeout',
      details: { condition: 'selector', targetExists: true, readyState: 'complete', url: relay.server.url(tab.path) },
    });
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('waits for network idle only after the slow request finished', async () => {
    const tab = await open(relay, '/wait.html');
    const page = await relay.page(tab.path);
    await ok('wait', '--networkidle', '--tab', String(tab.tabId));
    await ok('js', 'fetchSlow(1500)', '--tab', String(tab.tabId));
    expect(await ok('wait', '--networkidle', '--tab', String(tab.tabId))).toMatchObject({ condition: 'networkIdle' });
    expect(await read<boolean>(page, 'fetched')).toBe(true);
  });

  it('rejects bad conditions naming the field', async () => {
    const tab = await open(relay, '/wait.html');
    expect((await relay.cli('wait', '--tab', String(tab.tabId))).error).toMatchObject({ code: 'invalid_arguments', details: { field: 'condition' } });
    expect((await relay.cli('wait', '--text', 'a', '--load')).error).toMatchObject({ code: 'invalid_arguments', details: { field: 'condition' } });
    expect((await relay.cli('wait', '--selector', 'p[', '--tab', String(tab.tabId))).error).toMatchObject({ code: 'invalid_arguments', details: { field: 'selector' } });
  });
});

describe('get and js', () => {
  it('reads through an isolated world the page cannot patch', async () => {
    const tab = await open(relay, '/reads.html');
    const get = async (...args: string[]) => (await ok('get', ...args, '--tab', String(tab.tabId))).value;
    expect(await get('title')).toBe('Reads fixture');
    expect(await get('url')).toBe(relay.server.url(tab.path));
    expect(await get('text', '-s', '#head')).toBe('Quarterly report');
    expect(await get('value', '-s', '#email')).toBe('ada@example.com');
    expect(await get('value', '-s', '#size')).toBe('m');
    expect(await get('attr', 'href', '-s', '#next')).toBe('/page/2');
    expect(await get('attr', 'title', '-s', '#next')).toBeNull();
    expect(await get('count', '-s', '.item')).toBe(3);
    expect(await get('count', '-s', '.nope')).toBe(0);
    const many = await relay.cli('get', 'text', '-s', '.item', '--tab', String(tab.tabId));
    expect(many.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'selector' } });
    const none = await relay.cli('get', 'text', '-s', '#nope', '--tab', String(tab.tabId));
    expect(none.error).toMatchObject({ code: 'element_not_found' });
    const noValue = await relay.cli('get', 'value', '-s', '#plain', '--tab', String(tab.tabId));
    expect(noValue.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'selector' } });
  });

  it('evaluates in the main world and returns JSON or a precise error', async () => {
    const tab = await open(relay, '/reads.html');
    const js = (expression: string) => relay.cli('js', expression, '--tab', String(tab.tabId), '--json');
    expect((await js('window.secret')).json).toEqual({ tabId: tab.tabId, value: { answer: 42, list: [1, 'two', null], nested: { ok: true } } });
    expect((await js('await new Promise((r) => setTimeout(() => r(7), 50))')).json).toMatchObject({ value: 7 });
    expect((await js('undefined')).json).toEqual({ tabId: tab.tabId });
    // A value JSON cannot carry: the expression is what to change, and it ran (see contract.e2e.ts).
    const node = await js("document.getElementById('head')");
    expect(node.error).toMatchObject({ code: 'invalid_arguments', retryable: false, details: { field: 'expression', path: 'result', mayHaveActed: true } });
    expect(node.error?.message).toContain('DOM node');
    const thrown = await js("throw new Error('boom')");
    expect(thrown.error).toMatchObject({ code: 'cdp_error', retryable: false });
    expect(String(thrown.error?.details.exception)).toContain('boom');
    expect((await js('let x = ;')).error).toMatchObject({ code: 'invalid_arguments', details: { field: 'expression' } });
  });

  it("the page's own exception is the page's, whatever it says: Chrome's words for a document that went away included", async () => {
    const tab = await open(relay, '/reads.html');
    // Once read as the tab navigating (timeout, reason navigating): the error's kind came from its words.
    const mimic = await relay.cli('js', "throw new Error('Execution context was destroyed.')", '--tab', String(tab.tabId));
    expect(mimic.error).toMatchObject({ code: 'cdp_error', retryable: false });
    expect(String(mimic.error?.details.exception)).toContain('Execution context was destroyed');
    // And a wait whose function throws so fails at once, instead of polling a document it took for a new one.
    const waited = await relay.cli('wait', '--fn', "(() => { throw new Error('Cannot find context with specified id') })()", '--tab', String(tab.tabId), '--timeout', '8000');
    expect(waited.error).toMatchObject({ code: 'cdp_error', retryable: false });
    expect(String(waited.error?.details.exception)).toContain('Cannot find context with specified id');
  });
});

describe('dialogs never wedge a session', () => {
  it('reports a confirm opened by a key, blocks other commands fast, and takes the answer', async () => {
    const tab = await open(relay, '/dialogs.html');
    const page = await relay.page(tab.path);
    await focus(tab.tabId, /textbox "Query"/);
    const started = Date.now();
    const enter = await ok('keys', 'Enter');
    expect(enter).toMatchObject({ dialog: { type: 'confirm', message: 'Really submit?' } });
    const blocked = await relay.cli('get', 'title', '--tab', String(tab.tabId));
    expect(blocked.error).toMatchObject({ code: 'target_conflict', details: { tab: tab.tabId, dialog: { type: 'confirm' } } });
    expect(blocked.error?.message).toContain('chrome-relay dialog accept');
    expect(Date.now() - started).toBeLessThan(8000);
    expect(await ok('dialog', 'dismiss', '--tab', String(tab.tabId))).toMatchObject({ action: 'dismiss', dialog: { type: 'confirm' } });
    await until(async () => (await read<boolean[]>(page, 'answers')).length === 1, 5000, 'confirm answered');
    expect(await read<boolean[]>(page, 'answers')).toEqual([false]);
  });

  it('answers a prompt with text, refuses text for an alert, and says when no dialog is open', async () => {
    const tab = await open(relay, '/dialogs.html');
    const page = await relay.page(tab.path);
    const id = String(tab.tabId);
    expect(await ok('js', "window.named = prompt('Name?', 'x')", '--tab', id)).toEqual({ tabId: tab.tabId, dialog: { type: 'prompt', message: 'Name?', url: relay.server.url(tab.path), defaultPrompt: 'x' } });
    await ok('dialog', 'accept', '--text', 'Ada', '--tab', id);
    await until(async () => (await read<string | undefined>(page, 'window.named')) === 'Ada', 5000, 'prompt answer');
    await ok('js', "alert('hi')", '--tab', id);
    expect((await relay.cli('dialog', 'accept', '--text', 'x', '--tab', id)).error).toMatchObject({ code: 'invalid_arguments', details: { field: 'text' } });
    await ok('dialog', 'accept', '--tab', id);
    expect((await relay.cli('dialog', 'accept', '--tab', id)).error).toMatchObject({ code: 'target_not_found' });
  });

  it('ends a wait at once when the page opens a dialog, and a click that opens one returns promptly', async () => {
    const tab = await open(relay, '/dialogs.html');
    const id = String(tab.tabId);
    await ok('js', 'later(300)', '--tab', id);
    const started = Date.now();
    const waited = await relay.cli('wait', '--text', 'never there', '--tab', id, '--timeout', '20000');
    expect(waited.error).toMatchObject({ code: 'target_conflict', details: { dialog: { type: 'alert', message: 'Timer fired' } } });
    expect(Date.now() - started).toBeLessThan(5000);
    await ok('dialog', 'accept', '--tab', id);

    const save = refFor(await snapshot(relay, tab.tabId), /button "Save"/);
    const clickStarted = Date.now();
    const click = await relay.cli('click', save, '--json');
    expect(Date.now() - clickStarted).toBeLessThan(5000);
    expect(JSON.stringify(click.json ?? click.error)).toContain('Saved!');
    await ok('dialog', 'accept', '--tab', id);
    expect(await ok('get', 'title', '--tab', id)).toMatchObject({ value: 'Dialog fixture' });
  });

  it('reports "Leave site?" on reload and close, and the answer goes through', async () => {
    const tab = await open(relay, '/leave.html');
    const id = String(tab.tabId);
    // beforeunload dialogs only show after the person interacted with the page.
    await ok('click', '--x', '40', '--y', '40', '--tab', id);
    const reload = await ok('reload', '--tab', id);
    expect(reload).toMatchObject({ ready: false, dialog: { type: 'beforeunload' } });
    await ok('dialog', 'accept', '--tab', id);
    await until(async () => (await read<string>(await relay.page(tab.path), 'sessionStorage.loads')) === '2', 5000, 'reload after accept');

    await ok('click', '--x', '40', '--y', '40', '--tab', id);
    const other = await open(relay, '/other.html');
    const close = await relay.cli('close', String(other.tabId), id);
    expect(close.error).toMatchObject({ code: 'partial_success_disallowed', details: { applied: [other.tabId], failed: [tab.tabId], dialog: { type: 'beforeunload' } } });
    await ok('dialog', 'accept', '--tab', id);
    await until(async () => {
      const windows = (await ok('tabs')).windows as { tabs: { id: number }[] }[];
      return !windows.some((w) => w.tabs.some((t) => t.id === tab.tabId));
    }, 5000, 'tab closed after accept');
  });
});

describe('downloads', () => {
  it('arms a directory and wait --download returns the file moved there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cr-downloads-'));
    const tab = await open(relay, '/download.html');
    expect(await ok('download', '--dir', dir, '--tab', String(tab.tabId))).toEqual({ tabId: tab.tabId, dir, armed: true });
    await ok('click', refFor(await snapshot(relay, tab.tabId), /link "Download report"/));
    const waited = await ok('wait', '--download', '--tab', String(tab.tabId));
    const download = waited.download as { path: string; browserPath: string; suggestedFilename: string; dir: string };
    expect(download).toMatchObject({ dir, suggestedFilename: 'report.html' });
    expect(download.path).toBe(join(dir, 'report.html'));
    expect(readFileSync(download.path, 'utf8')).toContain('<title>Reads fixture</title>');
    expect(existsSync(download.browserPath)).toBe(false);
  });

  it('rejects a directory that does not exist', async () => {
    const result = await relay.cli('download', '--dir', join(tmpdir(), 'cr-no-such-dir', 'x'));
    expect(result.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'dir' } });
  });
});
